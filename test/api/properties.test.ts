/**
 * Properties of the render core over generated requests: no request — however odd its path, query
 * string, method or validators — gets a 5xx; every 4xx is exactly `{"error": string}`; every 200
 * body matches the OpenAPI schema of its route.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../src/app/render.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, clock, openReader } from './helpers/api-store.js';
import { ifNoneMatchArb, methodArb, pathArb, queryArb } from './helpers/arbitraries.js';
import { responseComponent, schemaErrors } from './helpers/openapi.js';

let store: StoreReader;
beforeAll(async () => {
  store = openReader(await buildApiStore());
});
afterAll(() => store.close());

describe('render core under generated requests', () => {
  it('never answers 5xx; 4xx bodies are exactly {error}; 200 bodies match the schema', () => {
    fc.assert(
      fc.property(methodArb, pathArb, queryArb, ifNoneMatchArb, (method, path, rawQuery, inm) => {
        const res = render(
          { method, path, rawQuery, headers: inm === undefined ? {} : { 'if-none-match': inm } },
          { store, clock },
        );
        expect(res.status).toBeLessThan(500);
        expect(res.headers['Access-Control-Allow-Origin']).toBe('*');
        if (res.status >= 400 && method !== 'HEAD') {
          const body = JSON.parse(res.body.toString()) as Record<string, unknown>;
          expect(Object.keys(body)).toEqual(['error']);
          expect(typeof body.error).toBe('string');
        }
        if (res.status === 200 && method === 'GET') {
          // The front door is the one page that is not JSON; its schema is a string.
          const html = res.headers['Content-Type'] === 'text/html; charset=utf-8';
          const body = html ? res.body.toString() : JSON.parse(res.body.toString());
          expect(schemaErrors(responseComponent(path), body)).toEqual([]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('renders the same request to the same bytes and headers', () => {
    fc.assert(
      fc.property(pathArb, queryArb, (path, rawQuery) => {
        const a = render({ method: 'GET', path, rawQuery, headers: {} }, { store, clock });
        const b = render({ method: 'GET', path, rawQuery, headers: {} }, { store, clock });
        expect(b.status).toBe(a.status);
        expect(b.headers).toEqual(a.headers);
        expect(b.body.equals(a.body)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
