/** The route table as the static build and the OpenAPI document read it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, ROUTES_BY_NAME, openApiDocument } from '../../src/api/routes.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, clock, openReader } from './helpers/api-store.js';
import { responseComponent, schemaErrors } from './helpers/openapi.js';
import { prerendered, renderUrl, urlOf } from './helpers/prerendered.js';

let store: StoreReader;
beforeAll(async () => {
  store = openReader(await buildApiStore());
});
afterAll(() => store.close());

describe('route table', () => {
  it('declares each endpoint once', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('documents every route, its parameters and its statuses in OpenAPI 3.1', () => {
    const doc = openApiDocument() as {
      openapi: string;
      paths: Record<
        string,
        { get: { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> } }
      >;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.get;
      expect(op, route.path).toBeDefined();
      const names = (op!.parameters ?? []).map((p) => `${p.in}:${p.name}`);
      expect(names).toEqual([
        ...Object.keys(route.params).map((n) => `path:${n}`),
        ...Object.keys(route.query).map((n) => `query:${n}`),
      ]);
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(['200', ...route.errors.map(String)]));
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
    // §5.1: leagues 3 kinds × 2; a scoreboard per stored day (eng.1 2, esp.1 2); standings default + each stored season.
    expect(byRoute.get('leagues')).toBe(6);
    expect(byRoute.get('scoreboard')).toBe(4);
    expect(byRoute.get('standings')).toBe(16 + 1 + 2);
    expect(byRoute.get('event')).toBe(8);
    expect(byRoute.has('health') || byRoute.has('summary')).toBe(false);
  });

  it('enumerates every fixtures page at the default limit and plays pages for important=false and true plus the limit=300 page', () => {
    const urls = [...prerendered(store)].map((p) => p.url);
    expect(urls).toContain('/get/soccer/eng.1/fixtures?status=live&page=1');
    expect(urls).toContain('/get/soccer/ger.1/fixtures?status=all&page=1');
    expect(urls).toContain('/get/soccer/eng.1/events/9001/plays?important=true&page=1');
    expect(urls).toContain('/get/soccer/eng.1/events/9001/plays?important=false&limit=300');
    expect(urls).toContain('/get/soccer/esp.1/clubs/2004');
  });

  it('declares /summary?event=ID as an alias of the pre-rendered /events/ID, whose bytes it shares', () => {
    const event = ROUTES_BY_NAME.get('event')!;
    const aliases = event.aliases!({ params: { league: 'eng.1', eventId: '9001' }, query: {} });
    expect(aliases).toEqual([{ route: 'summary', req: { params: { league: 'eng.1' }, query: { event: '9001' } } }]);
    const a = renderUrl(store, clock, urlOf(ROUTES_BY_NAME.get('summary')!, aliases[0]!.req));
    const b = renderUrl(store, clock, '/get/soccer/eng.1/events/9001');
    expect(a.body.equals(b.body)).toBe(true);
    expect(event.aliases!({ params: { league: 'eng.1', eventId: '9001' }, query: { fields: 'meta' } })).toEqual([]);
  });
});
