/**
 * The OpenAPI 3.1 description, generated from the route table (paths, parameters, statuses,
 * caching) and the zod response schemas (components). Served at /openapi.json.
 */
import * as z from 'zod';
import { registry } from './schemas.js';
import './responses.js';
import type { AnyRoute } from './route.js';
import { describeCachePolicy } from './headers.js';
import { API_VERSION, SERVICE_NAME } from './vocab.js';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

const ERROR_DOC: Record<number, string> = {
  400: 'An invalid path identifier or query value; validated in the order path → query → league → resource',
  404: '`League not found`, `Match not found` or `Club not found`',
  503: 'The store cannot be read',
};

function components(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  const out: Record<string, unknown> = {};
  for (const id of Object.keys(schemas).sort()) {
    const { $schema: _s, $id: _i, ...schema } = schemas[id]!;
    out[id] = schema;
  }
  return out;
}

function operation(route: AnyRoute) {
  const schemaId = registry.get(route.response)?.id;
  if (!schemaId) throw new Error(`route ${route.name}: response schema is not registered`);
  const parameters = [
    ...Object.entries(route.params).map(([name, f]) => ({
      name,
      in: 'path',
      required: true,
      description: f.description,
      schema: f.doc,
    })),
    ...Object.entries(route.query).map(([name, f]) => ({
      name,
      in: 'query',
      required: !!f.required,
      description: f.description,
      schema: f.doc,
    })),
  ];
  const json = (id: string) => ({ 'application/json': { schema: ref(id) } });
  // A non-JSON route (the front door's HTML) is documented under its own media type.
  const media = route.contentType?.split(';')[0];
  const responses: Record<string, unknown> = {
    200: {
      description: `OK. Cache-Control: ${describeCachePolicy(route.cache)}; strong ETag of the body.`,
      headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
      content: media ? { [media]: { schema: ref(schemaId) } } : json(schemaId),
    },
    304: { description: 'Not modified: If-None-Match names the current ETag' },
  };
  // Every route that reads the store answers 503 while the store cannot be read.
  const statuses = route.handle ? [...route.errors, 503] : route.errors;
  for (const status of statuses) {
    responses[status] = {
      description: ERROR_DOC[status] ?? 'Error',
      content: json(status === 503 && route.standalone ? schemaId : 'Error'),
    };
  }
  return {
    operationId: route.name,
    summary: route.summary,
    tags: [route.tag],
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
}

/**
 * No `jsonSchemaDialect`: the default one (OpenAPI 3.1's base dialect, JSON Schema 2020-12 plus
 * OpenAPI's keywords) fits the generated schemas, while naming plain 2020-12 makes Swagger UI, the
 * front door's renderer, show a warning that it does not support it.
 */
export function buildOpenApi(routes: readonly AnyRoute[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const route of routes) paths[route.path.replace(/:(\w+)/g, '{$1}')] = { get: operation(route) };
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_NAME,
      version: API_VERSION,
      description:
        'A read-only JSON API of football (soccer) data served from stored snapshots: ' +
        'no request calls the upstream provider. ' +
        'Errors are `{"error": "<text>"}`; unknown paths are 404 `Route not found`; ' +
        'methods other than GET, HEAD and OPTIONS are 405. ' +
        'A repeated query parameter takes its last value, an empty value means "not given", ' +
        'unknown parameters are ignored.',
    },
    tags: [{ name: 'Football data' }, { name: 'Service' }],
    paths,
    components: { schemas: components() },
  };
}
