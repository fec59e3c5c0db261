/** The build plan's requests mean, to the router, exactly what the plan says they mean. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatQuery } from '../../src/api/query.js';
import { requestKey } from '../../src/app/resolve.js';
import { ROUTES, ROUTES_BY_NAME } from '../../src/app/routes.js';
import type { PlannedFile } from '../../src/publish/plan/plan.js';
import { PlanError, buildPlan, fileOfRoute, planOf } from '../../src/publish/plan/plan.js';
import { requestPathOf } from '../../src/release/file-name.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore } from '../api/helpers/api-store.js';

let store: StoreReader;
let plan: PlannedFile[];
beforeAll(async () => {
  store = StoreReader.open(await buildApiStore());
  plan = [...buildPlan(store)];
});
afterAll(() => store.close());

const keyOfForm = (f: PlannedFile['request']) => requestKey(f.path, formatQuery(Object.fromEntries(f.query)).slice(1));

describe('the build plan', () => {
  it('plans a file for every route that pre-renders', () => {
    const planned = new Set(plan.map((f) => f.route.name));
    expect([...planned].sort()).toEqual(
      ROUTES.filter((r) => r.prerender)
        .map((r) => r.name)
        .sort(),
    );
  });

  it('spells each request so that it routes back to the route and parameters it was planned for', () => {
    for (const file of plan) expect(keyOfForm(file.request), file.file).toBe(file.keys[0]);
  });

  it('spells each alias so that it routes to the key the file lists for it', () => {
    const withAliases = plan.filter((f) => f.aliases.length);
    expect(withAliases.length).toBeGreaterThan(0);
    for (const file of withAliases) expect(file.aliases.map(keyOfForm), file.file).toEqual(file.keys.slice(1));
  });

  it('lists only spellings that mean one of the keys its file answers', () => {
    let spellings = 0;
    for (const file of plan) {
      for (const form of file.forms) {
        spellings++;
        expect(file.keys, `${form.path} ${JSON.stringify(form.query)}`).toContain(keyOfForm(form));
      }
    }
    expect(spellings).toBeGreaterThan(plan.length);
  });

  it('leaves error stack traces as it found them, though it turns them off while it tries spellings', () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 7;
    try {
      // An event no plan has asked about: its spellings are tried now (the empty one is invalid).
      const route = ROUTES_BY_NAME.get('summary')!;
      const item = { route, prerender: { params: { league: 'eng.1' }, query: { event: '990000017' } }, file: 'x.json' };
      const planned = planOf(item, ['key']);
      expect(planned.forms.map((f) => f.query)).toEqual([[['event', '990000017']]]);
      expect(Error.stackTraceLimit).toBe(7);
      expect(new Error('x').stack).toMatch(/\n\s+at /);
    } finally {
      Error.stackTraceLimit = before;
    }
  });

  it('gives every file its own path and every key one file', () => {
    expect(new Set(plan.map((f) => f.file)).size).toBe(plan.length);
    const keys = plan.flatMap((f) => f.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('names each file so that the request path it answers reads back from its name', () => {
    const files = plan.filter((f) => f.file.startsWith('_s/'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(requestPathOf(f.file), f.file).toBe(f.request.path);
    expect(requestPathOf('index.html')).toBeNull();
  });

  it('names no file for a segment or query value that could leave its directory or run into another name', () => {
    const plays = ROUTES_BY_NAME.get('plays')!;
    const planned = plan.find((f) => f.route === plays)!;
    expect(fileOfRoute(plays, planned.prerender)).toBe(planned.file);
    const params = planned.prerender.params;
    for (const eventId of ['..', '.', 'a~b', 'a/b', '']) {
      expect(() => fileOfRoute(plays, { params: { ...params, eventId }, query: {} }), eventId).toThrow(PlanError);
    }
    for (const page of ['../x', '1 2', '']) {
      expect(() => fileOfRoute(plays, { params, query: { page } }), page).toThrow(PlanError);
    }
  });
});
