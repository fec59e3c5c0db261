/**
 * Each target sends its purge as its provider documents it — method, path, credentials, where the
 * tags go — in as few requests as its batch size allows. The stand-ins answer only a request of
 * exactly that shape, so a target that builds one wrongly fails here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parsePurgeTarget } from '../../src/purge/parse.js';
import { Purger } from '../../src/purge/purger.js';
import type { Seen, StandIn } from './stand-in.js';
import { json, matchTags, startStandIn, stopStandIns } from './stand-in.js';

afterEach(stopStandIns);

/** A stand-in that answers `ok` to requests passing `check`, and 400 to any other. */
const strict = (check: (s: Seen) => boolean, ok = 200) => startStandIn((s) => ({ status: check(s) ? ok : 400 }));

const sizes = (standIn: StandIn, tagsOf: (s: Seen) => string[]) => standIn.seen.map((s) => tagsOf(s).length);
const union = (standIn: StandIn, tagsOf: (s: Seen) => string[]) => standIn.seen.flatMap(tagsOf).sort();

describe('Varnish', () => {
  const xkeys = (s: Seen) => String(s.headers['xkey-purge']).split(' ');
  const isPurge = (s: Seen) => s.method === 'PURGE' && s.path === '/' && typeof s.headers['xkey-purge'] === 'string';

  it('purges the tags of a publish with one PURGE carrying them all in xkey-purge', async () => {
    const varnish = await strict(isPurge);
    const tags = ['match-eng.1-9001', 'scoreboard-eng.1-20260321', 'leagues'];
    const report = await new Purger([parsePurgeTarget(`varnish:${varnish.url}`, {})]).purge(tags);
    expect(varnish.seen.map((s) => s.headers['xkey-purge'])).toEqual([
      'match-eng.1-9001 scoreboard-eng.1-20260321 leagues',
    ]);
    expect(report.targets).toEqual([
      { name: 'varnish', purged: 3, requests: 1, ms: expect.any(Number), pending: 0, busy: false },
    ]);
  });

  it('splits tags that would make the header longer than Varnish allows into as few requests as fit', async () => {
    const varnish = await strict(isPurge);
    const tags = matchTags(1000); // 18 characters each: 421 fit in 8000 bytes with their spaces
    const report = await new Purger([parsePurgeTarget(`varnish:${varnish.url}`, {})]).purge(tags);
    expect(sizes(varnish, xkeys)).toEqual([421, 421, 158]);
    expect(Math.max(...varnish.seen.map((s) => String(s.headers['xkey-purge']).length))).toBeLessThanOrEqual(8000);
    expect(union(varnish, xkeys)).toEqual([...tags].sort());
    expect(report.targets[0]).toMatchObject({ purged: 1000, requests: 3, pending: 0 });
  });

  it('sends a tag once however many publishes asked for it before it went out, and ignores malformed ones', async () => {
    const varnish = await strict(isPurge);
    const purger = new Purger([parsePurgeTarget(`varnish:${varnish.url}`, {})]);
    await purger.purge(['leagues', 'leagues', 'bad tag', 'x\r\ny: z', 'clubs-eng.1']);
    expect(varnish.seen.map((s) => s.headers['xkey-purge'])).toEqual(['leagues clubs-eng.1']);
  });

  it('tells two Varnish targets apart by host in the report', async () => {
    const [a, b] = await Promise.all([strict(isPurge), strict(isPurge)]);
    const purger = new Purger([a, b].map((v) => parsePurgeTarget(`varnish:${v.url}`, {})));
    const report = await purger.purge(['leagues']);
    expect(report.targets.map((t) => t.name)).toEqual([a, b].map((v) => `varnish ${new URL(v.url).host}`));
    expect([a.seen.length, b.seen.length]).toEqual([1, 1]);
  });
});

describe('Netlify', () => {
  it('posts the site and its cache tags as JSON with the bearer token, 100 tags a request', async () => {
    const api = await strict(
      (s) =>
        s.method === 'POST' &&
        s.path === '/api/v1/purge' &&
        s.headers.authorization === 'Bearer nf-token' &&
        s.headers['content-type'] === 'application/json' &&
        Object.keys(json(s)).sort().join() === 'cache_tags,site_id' &&
        json(s).site_id === 'site-1',
      202,
    );
    const env = { NETLIFY_AUTH_TOKEN: 'nf-token', NETLIFY_SITE_ID: 'site-1', FDS_NETLIFY_API_URL: api.url };
    const tags = matchTags(250);
    const report = await new Purger([parsePurgeTarget('netlify', env)]).purge(tags);
    const tagsOf = (s: Seen) => json(s).cache_tags as string[];
    expect(sizes(api, tagsOf)).toEqual([100, 100, 50]);
    expect(union(api, tagsOf)).toEqual(tags);
    expect(report.targets[0]).toMatchObject({ name: 'netlify', purged: 250, requests: 3, pending: 0 });
  });
});

describe('Cloudflare', () => {
  it("posts the tags as JSON to the zone's purge_cache with the bearer token, 100 tags a request", async () => {
    const api = await strict(
      (s) =>
        s.method === 'POST' &&
        s.path === '/client/v4/zones/zone-1/purge_cache' &&
        s.headers.authorization === 'Bearer cf-token' &&
        s.headers['content-type'] === 'application/json' &&
        Object.keys(json(s)).join() === 'tags',
    );
    const env = { CLOUDFLARE_API_TOKEN: 'cf-token', CLOUDFLARE_ZONE_ID: 'zone-1', FDS_CLOUDFLARE_API_URL: api.url };
    const tags = matchTags(250);
    const report = await new Purger([parsePurgeTarget('cloudflare', env)]).purge(tags);
    const tagsOf = (s: Seen) => json(s).tags as string[];
    expect(sizes(api, tagsOf)).toEqual([100, 100, 50]);
    expect(union(api, tagsOf)).toEqual(tags);
    expect(report.targets[0]).toMatchObject({ name: 'cloudflare', purged: 250, requests: 3, pending: 0 });
  });
});

describe('Fastly', () => {
  it("hard-purges the service's surrogate keys with the Fastly-Key, 256 keys a request", async () => {
    // Answers carry stale-while-revalidate: a soft purge would let the next request get the old answer.
    const api = await strict(
      (s) =>
        s.method === 'POST' &&
        s.path === '/service/svc-1/purge' &&
        s.headers['fastly-key'] === 'fy-token' &&
        s.headers['fastly-soft-purge'] === undefined &&
        s.headers['content-type'] === 'application/json' &&
        Object.keys(json(s)).join() === 'surrogate_keys',
    );
    const env = { FASTLY_API_TOKEN: 'fy-token', FASTLY_SERVICE_ID: 'svc-1', FDS_FASTLY_API_URL: api.url };
    const tags = matchTags(600);
    const report = await new Purger([parsePurgeTarget('fastly', env)]).purge(tags);
    const tagsOf = (s: Seen) => json(s).surrogate_keys as string[];
    expect(sizes(api, tagsOf)).toEqual([256, 256, 88]);
    expect(union(api, tagsOf)).toEqual(tags);
    expect(report.targets[0]).toMatchObject({ name: 'fastly', purged: 600, requests: 3, pending: 0 });
  });
});
