/**
 * What shared caches (CDNs, reverse proxies) are told, in the render core: a lifetime per cache
 * class in CDN-Cache-Control and Netlify-CDN-Cache-Control, Netlify-Vary from the route's own query
 * parameters, cache tags naming what each 200 shows in each CDN's header — and for errors, no-store
 * and no tags. The browser's Cache-Control is the contract's, untouched (the contract suite pins it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownTag, sharedCacheHeaders, tagsFor } from '../../src/api/cache-tags.js';
import { SHARED_CACHE_POLICY } from '../../src/api/headers.js';
import { render } from '../../src/app/render.js';
import { ROUTES, ROUTES_BY_NAME } from '../../src/app/routes.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, clock } from './helpers/api-store.js';
import { renderUrl } from './helpers/prerendered.js';

let store: StoreReader;
beforeAll(async () => {
  store = StoreReader.open(await buildApiStore());
});
afterAll(() => store?.close());

const get = (url: string) => renderUrl(store, clock, url);

function renderUrlWith(url: string, headers: Record<string, string>) {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return render({ method: 'GET', path, rawQuery: q === -1 ? '' : url.slice(q + 1), headers }, { store, clock });
}

const MINUTES = 'public, s-maxage=60, stale-while-revalidate=30, stale-if-error=86400';
const IN_PLAY = 'public, s-maxage=10, stale-while-revalidate=5, stale-if-error=300';

describe('shared-cache lifetimes by cache class', () => {
  it.each([
    ['list', '/get/soccer/leagues', 'public, s-maxage=600, stale-while-revalidate=60, stale-if-error=86400'],
    ['list', '/get/soccer/eng.1/clubs/1001', 'public, s-maxage=600, stale-while-revalidate=60, stale-if-error=86400'],
    ['match', '/get/soccer/eng.1/standings', 'public, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400'],
    ['live, no match in play', '/get/soccer/eng.1/scoreboard?dates=20260321', MINUTES],
    ['live, a match in play', '/get/soccer/eng.1/scoreboard?dates=20260322', IN_PLAY],
    ['live, a match in play', '/get/soccer/eng.1/events/9004/plays', IN_PLAY],
    ['feed', '/get/soccer/changes', IN_PLAY],
  ])('%s: %s', (_cls, url, value) => {
    const res = get(url);
    expect(res.status).toBe(200);
    expect(res.headers['CDN-Cache-Control']).toBe(value);
    // Netlify's also shares one entry between its edge nodes.
    expect(res.headers['Netlify-CDN-Cache-Control']).toBe(value.replace('public, ', 'public, durable, '));
  });

  it('keeps the browser Cache-Control of the class, shorter than the shared lifetime', () => {
    expect(get('/get/soccer/eng.1/scoreboard?dates=20260321').headers['Cache-Control']).toBe('public, max-age=30');
    expect(get('/get/soccer/eng.1/scoreboard?dates=20260322').headers['Cache-Control']).toBe('public, max-age=4');
  });

  it('keeps every shared entry fresh for at least 10 s, and serves it stale on errors at least as long', () => {
    for (const { value, whileLive } of Object.values(SHARED_CACHE_POLICY)) {
      for (const life of [value, whileLive].filter((l) => l !== undefined)) {
        expect(life.fresh).toBeGreaterThanOrEqual(10);
        expect(life.ifError).toBeGreaterThanOrEqual(life.fresh);
      }
    }
  });

  it('gives health (class none) no shared-cache header: no-store says it all', () => {
    const res = get('/health');
    expect(res.headers['Cache-Control']).toBe('no-store');
    for (const h of ['CDN-Cache-Control', 'Netlify-CDN-Cache-Control', 'Cache-Tag', 'Netlify-Vary'])
      expect(res.headers[h]).toBeUndefined();
  });
});

describe('errors and shared caches', () => {
  it.each([
    ['an invalid query value', '/get/soccer/eng.1/scoreboard?dates=20260230', 400],
    ['an unknown league', '/get/soccer/xxx.9/standings', 404],
    ['an unknown match', '/get/soccer/eng.1/events/424242', 404],
    ['an unknown route', '/get/soccer/nope/nope/nope/nope/nope', 404],
  ])('%s: no-store for shared caches too, and no tags', (_name, url, status) => {
    const res = get(url);
    expect(res.status).toBe(status);
    expect(res.headers['Cache-Control']).toBe('no-store');
    expect(res.headers['CDN-Cache-Control']).toBe('no-store');
    expect(res.headers['Netlify-CDN-Cache-Control']).toBe('no-store');
    for (const h of ['Cache-Tag', 'Surrogate-Key', 'xkey', 'Netlify-Cache-Tag']) expect(res.headers[h]).toBeUndefined();
  });

  it("an error of a route keeps the route's Netlify-Vary, as Netlify wants one per URL", () => {
    expect(get('/get/soccer/eng.1/scoreboard?dates=nope').headers['Netlify-Vary']).toBe('query=dates');
    expect(get('/get/soccer/eng.1/scoreboard?dates=20260321').headers['Netlify-Vary']).toBe('query=dates');
  });
});

describe('Netlify-Vary', () => {
  it.each([
    ['/get/soccer/eng.1/fixtures?status=live&utm_source=x', 'query=from|limit|page|status|to'],
    ['/get/soccer/eng.1/events/9001/plays', 'query=important|limit|page'],
    ['/get/soccer/eng.1/summary?event=9001', 'query=event|fields'],
    ['/get/soccer/leagues', 'query=available|kind'],
    ['/get/soccer/changes', 'query=since'],
  ])('%s varies on its own parameters only: %s', (url, vary) => {
    expect(get(url).headers['Netlify-Vary']).toBe(vary);
  });

  it('/events/ID, whose file also answers /summary?event=ID, varies as the summary does', () => {
    expect(get('/get/soccer/eng.1/events/9001').headers['Netlify-Vary']).toBe('query=event|fields');
  });

  it('is left out where a route has no query parameter (Netlify has no syntax for none)', () => {
    expect(get('/get/soccer/meta').headers['Netlify-Vary']).toBeUndefined();
    expect(get('/get/soccer/eng.1/clubs').headers['Netlify-Vary']).toBeUndefined();
  });
});

describe('cache tags', () => {
  it.each([
    ['/get/soccer/leagues?kind=all', ['leagues']],
    ['/get/soccer/meta', ['meta']],
    ['/get/soccer/changes?since=1', ['changes']],
    ['/openapi.json', ['openapi']],
    ['/get/soccer/eng.1/scoreboard?dates=20260321', ['scoreboard-eng.1-20260321', 'league-eng.1']],
    // The date-less scoreboard is today's (by the render clock: 2026-03-21), and tagged so.
    ['/get/soccer/eng.1/scoreboard', ['scoreboard-eng.1-20260321', 'league-eng.1']],
    ['/get/soccer/esp.1/fixtures?status=finished&page=1', ['fixtures-esp.1', 'league-esp.1']],
    ['/get/soccer/esp.1/fixtures?from=20260301&to=20260331&limit=2', ['fixtures-esp.1', 'league-esp.1']],
    ['/get/soccer/eng.1/events/9001', ['match-eng.1-9001', 'league-eng.1']],
    ['/get/soccer/ENG.1/summary?event=9001&fields=header', ['match-eng.1-9001', 'league-eng.1']],
    ['/get/soccer/eng.1/events/9001/plays?important=true&limit=4&page=2', ['match-eng.1-9001', 'league-eng.1']],
    ['/get/soccer/eng.1/clubs', ['clubs-eng.1', 'league-eng.1']],
    ['/get/soccer/eng.1/clubs/1001', ['club-eng.1-1001', 'league-eng.1']],
    ['/get/soccer/esp.1/standings?season=2024', ['standings-esp.1', 'league-esp.1']],
  ])('%s names %j', (url, tags) => {
    const res = get(url);
    expect(res.status).toBe(200);
    expect(res.headers['Cache-Tag']).toBe(tags.join(','));
    expect(res.headers['Netlify-Cache-Tag']).toBe(tags.join(','));
    expect(res.headers['Surrogate-Key']).toBe(tags.join(' '));
    expect(res.headers.xkey).toBe(tags.join(' '));
  });

  it('the front door has its own tag', () => {
    const res = get('/');
    expect(res.status).toBe(200);
    expect(res.headers['Cache-Tag']).toBe('front-door');
  });

  it('a 304 keeps the tags and lifetimes, so a revalidating cache keeps them too', () => {
    const first = get('/get/soccer/eng.1/events/9001');
    const res = renderUrlWith('/get/soccer/eng.1/events/9001', { 'if-none-match': first.headers.ETag! });
    expect(res.status).toBe(304);
    expect(res.headers['Cache-Tag']).toBe(first.headers['Cache-Tag']);
    expect(res.headers['CDN-Cache-Control']).toBe(first.headers['CDN-Cache-Control']);
  });

  it('every tag a route declares is made of [A-Za-z0-9._-] only, and each cached answer has one', () => {
    const params = { league: 'eng.1', eventId: 'A_b-9', clubId: 'c-1' };
    const query = { event: 'e9', dates: '20260321' };
    for (const route of ROUTES) {
      // As the route declares them, before tagsFor drops any a CDN would refuse.
      const declared = route.cacheTags?.({ params, query, today: () => '20260321' }) ?? [];
      for (const tag of declared) expect(tag, route.name).toMatch(/^[A-Za-z0-9._-]+$/);
      if (route.cache === 'none') expect(tagsFor(route, params, query), route.name).toEqual([]);
      else expect(ownTag(route, params, query), route.name).toMatch(/^[a-z]/);
    }
  });

  it('the canonical text of a pre-rendered request and the typed values of a render give the same tags', () => {
    const scoreboard = ROUTES_BY_NAME.get('scoreboard')!;
    const typed = sharedCacheHeaders(scoreboard, 200, false, { league: 'eng.1' }, { dates: '20260321' });
    expect(typed['Cache-Tag']).toBe(get('/get/soccer/eng.1/scoreboard?dates=20260321').headers['Cache-Tag']);
  });
});
