/**
 * A route's declaration holds what it claims (src/api/route.ts, `Prerendering`): a pre-rendered route
 * declares what its responses read and how the CDN reaches its files, or it does not compile.
 * `npm run typecheck` checks the `@ts-expect-error` lines below: were the type to let one of them
 * through, the unused directive would be the error. What the type cannot see is checked here over the
 * route table as shipped: every route that another route's files answer for (`aliases`) declares its
 * reach too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as pre from '../../src/api/prerender.js';
import { topic } from '../../src/api/reads.js';
import { defineRoute, eachRequest } from '../../src/api/route.js';
import type { Reach } from '../../src/api/route.js';
import { ROUTES, ROUTES_BY_NAME } from '../../src/app/routes.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, openReader } from './helpers/api-store.js';

/** Everything a route declares besides what pre-rendering asks of it. */
const base = {
  name: 'example',
  path: '/example',
  summary: 'An example',
  tag: 'Service' as const,
  params: {},
  query: {},
  cache: 'list' as const,
  response: z.object({}),
  errors: [],
  handle: () => ({ body: {} }),
};
const reads = () => [topic.any];
const reach: Reach = { level: 'league' };

describe('a route declaration', () => {
  it('compiles only when a pre-rendered route declares both what it reads and how it is reached', () => {
    const declared = [
      defineRoute({ ...base, prerender: pre.once, reads, reach }),
      // A route the fallback answers; one whose requests another route's files answer declares its reach.
      defineRoute(base),
      defineRoute({ ...base, reach: { level: 'match' } }),
      // @ts-expect-error without `reads`, every build would render its files again
      defineRoute({ ...base, prerender: pre.once, reach }),
      // @ts-expect-error without `reach`, its files would stand in the rule budget as a match's
      defineRoute({ ...base, prerender: pre.once, reads }),
      // @ts-expect-error `reads` without an enumerator: nothing of the route is pre-rendered to read
      defineRoute({ ...base, reads, reach }),
      // @ts-expect-error `aliases` without an enumerator: no file of the route answers another's requests
      defineRoute({ ...base, aliases: () => [] }),
    ];
    expect(declared.map((r) => r.name)).toEqual(Array(7).fill('example'));
  });
});

describe('the route table', () => {
  let store: StoreReader;
  beforeAll(async () => {
    store = openReader(await buildApiStore());
  });
  afterAll(() => store.close());

  it("gives every route that another route's files also answer its own reach", () => {
    const aliased = new Set<string>();
    for (const route of ROUTES) {
      if (!route.prerender || !route.aliases) continue;
      for (const req of eachRequest(route.prerender(store, route))) {
        for (const alias of route.aliases(req)) aliased.add(alias.route);
      }
    }
    expect([...aliased]).toEqual(['summary']);
    for (const name of aliased) expect(ROUTES_BY_NAME.get(name)?.reach, name).toBeDefined();
  });
});
