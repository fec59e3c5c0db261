/**
 * The route table as its readers see it from outside: the OpenAPI document it generates, the
 * requests it says to pre-render, and the build plan's aliases (one file for two request forms).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGroup, matchRoute } from '../../src/api/route.js';
import { ROUTES, ROUTES_BY_NAME } from '../../src/app/routes.js';
import { openApiDocument } from '../../src/api/routes.js';
import { nearDays } from '../../src/api/prerender.js';
import { buildPlan, formUrl } from '../../src/publish/plan/plan.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, clock, openReader } from './helpers/api-store.js';
import { responseComponent, schemaErrors } from './helpers/openapi.js';
import { prerendered, renderUrl } from './helpers/prerendered.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}
interface Doc {
  openapi: string;
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, unknown> };
}

let store: StoreReader;
let doc: Doc;
beforeAll(async () => {
  store = openReader(await buildApiStore());
  doc = openApiDocument(ROUTES_BY_NAME) as Doc;
});
afterAll(() => store.close());

/** Values that name stored resources of the API test store, for every path or required parameter. */
const SAMPLE: Record<string, string> = { league: 'eng.1', eventId: '9001', clubId: '1001', event: '9001' };

/**
 * The OpenAPI 3.1 structure the document must have. No official OpenAPI 3.1 schema is available
 * offline, so this holds the document to the parts of it that it uses (OpenAPI 3.1 §4.8).
 */
const OPENAPI_31 = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 } },
    },
    jsonSchemaDialect: { const: 'https://json-schema.org/draft/2020-12/schema' },
    tags: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        required: ['get'],
        additionalProperties: false,
        properties: { get: { $ref: '#/$defs/operation' } },
      },
    },
    components: {
      type: 'object',
      required: ['schemas'],
      properties: { schemas: { type: 'object', additionalProperties: { type: 'object' } } },
    },
  },
  additionalProperties: false,
  $defs: {
    withSchema: { type: 'object', required: ['schema'], properties: { schema: { type: 'object' } } },
    operation: {
      type: 'object',
      required: ['operationId', 'responses'],
      properties: {
        operationId: { type: 'string', pattern: '^[A-Za-z][\\w-]*$' },
        summary: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        parameters: { type: 'array', items: { $ref: '#/$defs/parameter' } },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^[1-5]\\d\\d$' },
          additionalProperties: { $ref: '#/$defs/response' },
        },
      },
      additionalProperties: false,
    },
    parameter: {
      type: 'object',
      required: ['name', 'in', 'schema'],
      properties: {
        name: { type: 'string', minLength: 1 },
        in: { enum: ['path', 'query', 'header', 'cookie'] },
        required: { type: 'boolean' },
        description: { type: 'string' },
        schema: { type: 'object' },
      },
      additionalProperties: false,
      // A path parameter must be declared required: true.
      anyOf: [
        { properties: { in: { not: { const: 'path' } } } },
        { required: ['required'], properties: { required: { const: true } } },
      ],
    },
    response: {
      type: 'object',
      required: ['description'],
      properties: {
        description: { type: 'string', minLength: 1 },
        headers: { type: 'object', additionalProperties: { $ref: '#/$defs/withSchema' } },
        content: {
          type: 'object',
          propertyNames: { pattern: '^[\\w.+-]+/[\\w.+-]+$' },
          additionalProperties: { $ref: '#/$defs/withSchema' },
        },
      },
      additionalProperties: false,
    },
  },
};

/** Every `$ref` anywhere in a JSON value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
}

describe('route table', () => {
  it('declares each endpoint once', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('documents exactly these paths in OpenAPI 3.1, each with its path and query parameters in order', () => {
    expect(doc.openapi).toBe('3.1.0');
    const parameters = Object.fromEntries(
      Object.entries(doc.paths).map(([p, item]) => [p, (item.get.parameters ?? []).map((x) => `${x.in}:${x.name}`)]),
    );
    expect(parameters).toEqual({
      '/get/soccer/leagues': ['query:kind', 'query:available'],
      '/get/soccer/meta': [],
      '/get/soccer/{league}/scoreboard': ['path:league', 'query:dates'],
      '/get/soccer/{league}/fixtures': [
        'path:league',
        'query:from',
        'query:to',
        'query:status',
        'query:page',
        'query:limit',
      ],
      '/get/soccer/{league}/summary': ['path:league', 'query:event', 'query:fields'],
      '/get/soccer/{league}/events/{eventId}': ['path:league', 'path:eventId', 'query:fields'],
      '/get/soccer/{league}/events/{eventId}/plays': [
        'path:league',
        'path:eventId',
        'query:page',
        'query:limit',
        'query:important',
      ],
      '/get/soccer/{league}/clubs': ['path:league'],
      '/get/soccer/{league}/clubs/{clubId}': ['path:league', 'path:clubId'],
      '/get/soccer/{league}/standings': ['path:league', 'query:season'],
      '/get/soccer/changes': ['query:since'],
      '/': [],
      '/health': [],
      '/api/health': [],
      '/openapi.json': [],
    });
    const required = Object.values(doc.paths).flatMap(({ get }) =>
      (get.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => `${get.operationId}:${p.name}`),
    );
    expect(required).toEqual(['summary:event']);
  });

  it('documents every route under a path template that routes back to it, with its parameters and statuses', () => {
    for (const route of ROUTES) {
      const documented = Object.entries(doc.paths).filter(([, item]) => item.get.operationId === route.name);
      expect(documented, route.name).toHaveLength(1);
      const [template, { get: op }] = documented[0]!;
      const params = op.parameters ?? [];
      const inPath = params.filter((p) => p.in === 'path').map((p) => p.name);
      // Each {name} in the template is a declared path parameter, in the same order.
      expect(
        [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]),
        template,
      ).toEqual(inPath);
      const url = template.replace(/\{([^}]*)\}/g, (_, name: string) => SAMPLE[name] ?? 'x');
      const matched = matchRoute(ROUTES, url);
      expect([matched?.route.name, matched?.params], url).toEqual([
        route.name,
        Object.fromEntries(inPath.map((n) => [n, SAMPLE[n]])),
      ]);
      expect(params.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(Object.keys(route.query));
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', ...route.errors.map(String)]));
    }
  });

  it('documents answers that hold: each documented path, filled in, answers 200 with its documented body', () => {
    for (const [template, { get: op }] of Object.entries(doc.paths)) {
      const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required);
      const query = required.map((p) => `${p.name}=${SAMPLE[p.name]}`).join('&');
      const url = template.replace(/\{([^}]*)\}/g, (_, name: string) => SAMPLE[name]!) + (query ? `?${query}` : '');
      const res = renderUrl(store, clock, url);
      expect(res.status, `${url}: ${res.body.toString().slice(0, 200)}`).toBe(200);
      // JSON, or the one other media type documented for the route (the front door's HTML).
      const [media, content] = Object.entries(op.responses['200']?.content ?? {})[0] ?? [];
      expect(res.headers['Content-Type'], url).toBe(`${media}; charset=utf-8`);
      const ref = content?.schema.$ref ?? '';
      expect(ref, template).toMatch(/^#\/components\/schemas\/\w+$/);
      const body = media === 'application/json' ? JSON.parse(res.body.toString()) : res.body.toString();
      expect(schemaErrors(ref.split('/').at(-1)!, body), url).toEqual([]);
    }
  });

  it('generates a structurally valid OpenAPI 3.1 document whose schemas are valid JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    const validate = ajv.compile(OPENAPI_31);
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    // Component and parameter schemas against the JSON Schema 2020-12 meta-schema (bundled with ajv).
    const schemas = [
      ...Object.values(doc.components.schemas),
      ...Object.values(doc.paths).flatMap(({ get }) => (get.parameters ?? []).map((p) => p.schema)),
    ];
    expect(schemas.length).toBeGreaterThan(20);
    for (const schema of schemas) expect(ajv.validateSchema(schema as object) ? [] : ajv.errors).toEqual([]);
    // Every reference resolves inside the document.
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(ROUTES.length);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\/components\/schemas\/[^/]+$/);
      expect(doc.components.schemas[ref.split('/').at(-1)!], ref).toBeTypeOf('object');
    }
  });

  it('pre-renders every enumerated request as a 200 that matches its schema', () => {
    let n = 0;
    const byRoute = new Map<string, number>();
    for (const { route, url } of prerendered(store)) {
      const res = renderUrl(store, clock, url);
      expect(res.status, url).toBe(200);
      expect(res.headers['Content-Type'], url).toBe(route.contentType ?? 'application/json; charset=utf-8');
      const body = route.contentType ? res.body.toString() : JSON.parse(res.body.toString());
      expect(schemaErrors(responseComponent(url.split('?')[0]!), body), url).toEqual([]);
      byRoute.set(route.name, (byRoute.get(route.name) ?? 0) + 1);
      n++;
    }
    expect(n).toBeGreaterThan(100);
    // Leagues 3 kinds × 2; a scoreboard per stored day of each league, and of the days around the
    // snapshot even when empty; standings default + each stored season.
    expect(byRoute.get('leagues')).toBe(6);
    const leagues = store.leagues.all().map((l) => l.slug);
    const days = leagues.map((l) => new Set([...store.matches.dates(l), ...nearDays(store)]).size);
    expect(byRoute.get('scoreboard')).toBe(days.reduce((a, b) => a + b, 0));
    expect(nearDays(store)).toHaveLength(3);
    expect(byRoute.get('standings')).toBe(16 + 1 + 2);
    expect(byRoute.get('event')).toBe(8);
    expect(byRoute.has('health') || byRoute.has('summary')).toBe(false);
  });

  it('enumerates fixtures pages at the default limit, and plays pages for important=false|true and limit=300', () => {
    const urls = [...prerendered(store)].map((p) => p.url);
    expect(urls).toContain('/get/soccer/eng.1/fixtures?status=live&page=1');
    expect(urls).toContain('/get/soccer/ger.1/fixtures?status=all&page=1');
    expect(urls).toContain('/get/soccer/eng.1/events/9001/plays?important=true&page=1');
    expect(urls).toContain('/get/soccer/eng.1/events/9001/plays?important=false&limit=300');
    expect(urls).toContain('/get/soccer/esp.1/clubs/2004');
  });

  it('plans /summary?event=ID as an alias of the /events/ID file, and both forms render the same answer', () => {
    const planned = [...buildPlan(store)];
    const events = planned.filter((p) => p.route.name === 'event');
    expect(events).toHaveLength(8);
    for (const p of events) {
      const [, league, id] = /^\/get\/soccer\/([^/]+)\/events\/([^/?]+)$/.exec(formUrl(p.request)) ?? [];
      expect(p.aliases.map(formUrl), p.file).toEqual([`/get/soccer/${league}/summary?event=${id}`]);
    }
    // The summary form has no file of its own: the event's file is the only one answering it.
    const summary = '/get/soccer/eng.1/summary?event=9001';
    const answering = planned.filter((p) => [p.request, ...p.aliases].some((f) => formUrl(f) === summary));
    expect(answering.map((p) => p.file)).toEqual(['_s/get/soccer/eng.1/events/9001~index.json']);

    const viaSummary = renderUrl(store, clock, summary);
    const viaEvent = renderUrl(store, clock, '/get/soccer/eng.1/events/9001');
    expect(viaSummary.status).toBe(200);
    expect(viaSummary.body.equals(viaEvent.body)).toBe(true);
    expect(viaSummary.headers).toEqual(viaEvent.headers);
  });

  it("groups each match's event and plays requests, and each request reads no more than its group says", () => {
    let requests = 0;
    const groupedRoutes = new Set<string>();
    for (const route of ROUTES) {
      for (const p of route.prerender?.(store, route) ?? []) {
        if (!isGroup(p)) continue;
        groupedRoutes.add(route.name);
        expect(route.groupReads, route.name).toBeDefined();
        const together = new Set(route.groupReads!(p.params));
        for (const req of p.requests()) {
          requests++;
          expect(req.params).toEqual(p.params);
          for (const t of route.reads!(req))
            expect(together.has(t), `${route.name} ${JSON.stringify(req)}: ${t}`).toBe(true);
        }
      }
    }
    expect([...groupedRoutes].sort()).toEqual(['event', 'plays']);
    expect(requests).toBeGreaterThan(8);
  });
});
