/**
 * A request is parsed and validated once, however it is answered: rendered in process, or by the
 * server after its static lookup found no file (the lookup's resolution is handed to the render).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { render } from '../../src/app/render.js';
import { resolve } from '../../src/app/resolve.js';
import type { AnyRoute } from '../../src/api/route.js';
import { ROUTES_BY_NAME } from '../../src/app/routes.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { createApiServer } from '../../src/server/http.js';
import type { StaticLookup } from '../../src/server/static-lookup.js';
import { buildApiStore, clock } from './helpers/api-store.js';
import { rawRequest } from './helpers/targets.js';

const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/api/query.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/api/query.js')>();
  return {
    ...original,
    parseQuery: (raw: string) => {
      parses.count++;
      return original.parseQuery(raw);
    },
  };
});

/** Every validation of a route's parameters, by parameter name (each `validate` call validates its fields). */
const validated = vi.hoisted(() => new Map<string, number>());
vi.mock('../../src/api/route.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/api/route.js')>();
  return {
    ...original,
    validate: (...args: Parameters<typeof original.validate>) => {
      for (const name of Object.keys(args[0])) validated.set(name, (validated.get(name) ?? 0) + 1);
      return original.validate(...args);
    },
  };
});

/** Validations counted from now on, of the parameters `route` declares. */
function spyFields(route: AnyRoute) {
  validated.clear();
  const names = Object.keys({ ...route.params, ...route.query });
  return {
    counts: () => Object.fromEntries(names.map((name) => [name, validated.get(name) ?? 0])),
    restore: () => validated.clear(),
  };
}

const URL_PATH = '/get/soccer/eng.1/fixtures';
const QUERY = 'status=LIVE&page=2&limit=5&from=20260301&to=20260331&utm=x';
const ONCE = { league: 1, from: 1, to: 1, status: 1, page: 1, limit: 1 };

let storeFile: string;
let store: StoreReader;
beforeAll(async () => {
  storeFile = await buildApiStore();
  store = StoreReader.open(storeFile);
});
afterAll(() => store.close());

describe('each request is resolved once', () => {
  it('in process: one parse of the query and one validation of each parameter per render', () => {
    const spy = spyFields(ROUTES_BY_NAME.get('fixtures')!);
    parses.count = 0;
    try {
      const res = render({ method: 'GET', path: URL_PATH, rawQuery: QUERY, headers: {} }, { store, clock });
      expect(res.status).toBe(200);
      expect(parses.count).toBe(1);
      expect(spy.counts()).toEqual(ONCE);
    } finally {
      spy.restore();
    }
  });

  it('a render handed a resolution does not resolve again', () => {
    const resolution = resolve(URL_PATH, QUERY);
    const spy = spyFields(ROUTES_BY_NAME.get('fixtures')!);
    parses.count = 0;
    try {
      const req = { method: 'GET', path: URL_PATH, rawQuery: QUERY, headers: {} };
      expect(render(req, { store, clock }, resolution).status).toBe(200);
      expect(parses.count).toBe(0);
      expect(Object.values(spy.counts()).every((n) => n === 0)).toBe(true);
    } finally {
      spy.restore();
    }
  });

  it('over HTTP: a static-lookup miss hands its resolution to the render', async () => {
    const seen: string[] = [];
    const lookup: StaticLookup = {
      description: 'records what it is asked and answers nothing',
      lookup: (_req, resolution) => {
        seen.push(resolution.kind);
        return null;
      },
    };
    const api = createApiServer({ storeFile, clock, rateLimit: null, log: null, staticLookup: lookup });
    const { port } = await api.listen(0, '127.0.0.1');
    const spy = spyFields(ROUTES_BY_NAME.get('fixtures')!);
    parses.count = 0;
    try {
      const res = await rawRequest(port, 'GET', `${URL_PATH}?${QUERY}`);
      expect(res.status).toBe(200);
      expect(seen).toEqual(['resolved']);
      expect(parses.count).toBe(1);
      expect(spy.counts()).toEqual(ONCE);
    } finally {
      spy.restore();
      await api.close();
    }
  });
});
