/** Validating bodies against the generated OpenAPI document's component schemas (JSON Schema 2020-12). */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../../src/api/routes.js';
import { registry } from '../../../src/api/schemas.js';
import { ROUTES, ROUTES_BY_NAME } from '../../../src/app/routes.js';
import { matchRoute } from '../../../src/api/route.js';

const DOC_ID = 'https://football-data-service.test/openapi.json';
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
// Only the components are schemas; `components` is declared so strict mode accepts the wrapper.
ajv.addKeyword('components');
ajv.addSchema({ $id: DOC_ID, components: (openApiDocument(ROUTES_BY_NAME) as { components: unknown }).components });

/** Errors of `body` against a component schema ([] when valid). */
export function schemaErrors(component: string, body: unknown): string[] {
  const validate = ajv.getSchema(`${DOC_ID}#/components/schemas/${component}`);
  if (!validate) throw new Error(`no component schema ${component}`);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`);
}

/** The component documenting the 200 body of the route this path resolves to. */
export function responseComponent(path: string): string {
  const m = matchRoute(ROUTES, path);
  if (!m) throw new Error(`no route for ${path}`);
  const id = registry.get(m.route.response)?.id;
  if (!id) throw new Error(`route ${m.route.name} has no registered response schema`);
  return id;
}
