/**
 * `/` stays static (docs/publishing.md): when a release ships the front door (`index.html`, assets under
 * `/_fd/`), no forced rule takes those paths from their files — proven with Netlify's own matcher
 * over the generated `_redirects` — while API paths and everything else route as before.
 */
import { JSON_TYPE } from '../../src/api/headers.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotClock } from '../../src/publish/build.js';
import { NetlifyCdn, webRequest } from '../helpers/netlify-cdn.js';
import { buildPlan } from '../../src/publish/plan/plan.js';
import { ReachPolicy } from '../../src/publish/plan/reach.js';
import type { Router } from '../../src/publish/rules/rule-settings.js';
import { settingsOf } from '../../src/publish/rules/rule-settings.js';
import { netlifyTarget } from '../../src/netlify/target.js';
import { NETLIFY_RULES } from '../../src/netlify/rules/dialect.js';
import { RulePlanner } from '../../src/publish/rules/rules.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { tempDir } from '../helpers/store.js';
import { demoStore } from './helpers.js';

let store: StoreReader;
beforeAll(async () => {
  store = StoreReader.open(await demoStore({ leagues: ['eng.1'] }));
});
afterAll(() => store?.close());

/** Rules for a release holding the league catalogue's files and, optionally, the front door. */
async function release(opts: { frontDoor: boolean; router?: Router }): Promise<NetlifyCdn> {
  const dir = tempDir('fds-pages-');
  const planner = new RulePlanner(
    path.join(dir, 'work'),
    settingsOf({ router: opts.router }, netlifyTarget()),
    new ReachPolicy(store, snapshotClock(store)()),
    NETLIFY_RULES,
  );
  const release = path.join(dir, 'release');
  for (const planned of buildPlan(store)) {
    if (planned.route.name !== 'leagues' && planned.route.name !== 'front-door') continue;
    if (planned.route.name === 'front-door' && !opts.frontDoor) continue;
    fs.mkdirSync(path.dirname(path.join(release, planned.file)), { recursive: true });
    fs.writeFileSync(path.join(release, planned.file), '{}');
    planner.add(planned, { etag: '"x"', cacheControl: 'public, max-age=60', contentType: JSON_TYPE }, 'pages');
  }
  if (opts.frontDoor) {
    fs.mkdirSync(path.join(release, '_fd'));
    fs.writeFileSync(path.join(release, '_fd', 'frontdoor.js'), '');
  }
  planner.finish(release);
  return NetlifyCdn.open(release);
}

/** Where Netlify's rule engine sends a GET, and what it serves. */
const ask = (cdn: NetlifyCdn, p: string, q: string) => cdn.rules(webRequest('GET', p, q)!);

describe('the front door under the generated rules', () => {
  it('is served from its files: the page at / (any query) by its route literal, each asset under /_fd/', async () => {
    const cdn = await release({ frontDoor: true });
    for (const q of ['', 'utm=x']) expect(await ask(cdn, '/', q)).toMatchObject({ kind: 'file', file: 'index.html' });
    expect(await ask(cdn, '/_fd/frontdoor.js', '')).toEqual({ kind: 'page', file: '_fd/frontdoor.js' });
    // Only the assets the release holds: another path there is the fallback's 404, in the API's shape.
    expect((await ask(cdn, '/_fd/app.js', '')).kind).toBe('function');
    expect((await ask(cdn, '/index.html', '')).kind).toBe('function');
  });

  it('leaves API paths and unknown paths where they went', async () => {
    const cdn = await release({ frontDoor: true });
    expect(await ask(cdn, '/get/soccer/leagues', '')).toMatchObject({ kind: 'file' });
    expect((await ask(cdn, '/get/soccer/leagues', 'kind=bogus')).kind).toBe('function');
    for (const p of ['/nope', '/health', '/index.htm', '/_s/get/soccer/leagues/index.json'])
      expect((await ask(cdn, p, '')).kind, p).toBe('function');
  });

  it('sends / to the fallback when the release has no page', async () => {
    const cdn = await release({ frontDoor: false });
    expect((await ask(cdn, '/', '')).kind).toBe('function');
    expect((await ask(cdn, '/_fd/app.js', '')).kind).toBe('function');
  });

  it('with the edge router, also lets its rewrites reach the files under /_s/', async () => {
    const cdn = await release({ frontDoor: false, router: 'edge' });
    expect(await ask(cdn, '/_s/get/soccer/leagues/available-false,kind-club.json', '')).toMatchObject({
      kind: 'file',
      file: '_s/get/soccer/leagues/available-false,kind-club.json',
    });
  });
});
