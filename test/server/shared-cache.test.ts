/**
 * The server tells shared caches the same of a pre-rendered file as of the dynamic answer it stands
 * for — lifetimes, Netlify-Vary and cache tags, which it derives from the route of the request that
 * found the file — whether the answer is finished per request or held ready; and its 429s are
 * no-store for shared caches, with the route's Netlify-Vary and no tags.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/server/http.js';
import type { ApiServer } from '../../src/server/http.js';
import { StaticBuild } from '../../src/server/static-lookup.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, clock } from '../api/helpers/api-store.js';
import { prerendered, renderUrl } from '../api/helpers/prerendered.js';
import { rawRequest } from '../api/helpers/targets.js';
import { buildInto } from '../publish/helpers.js';

/** Headers a shared cache reads, besides the contract's Cache-Control, Content-Type and ETag. */
const SHARED = [
  'cdn-cache-control',
  'netlify-cdn-cache-control',
  'netlify-vary',
  'cache-tag',
  'surrogate-key',
  'xkey',
  'netlify-cache-tag',
];
const COMPARED = ['cache-control', 'content-type', 'etag', ...SHARED];

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
const pick = (h: Record<string, string>) => Object.fromEntries(COMPARED.map((k) => [k, h[k]]));

let storeFile: string;
let out: string;
let urls: string[];
const servers: ApiServer[] = [];

async function serve(rateLimit: { api: number; other: number; windowMs: number } | null) {
  const logs: string[] = [];
  const api = createApiServer({
    storeFile,
    clock,
    rateLimit,
    log: (l) => logs.push(l),
    staticLookup: new StaticBuild(out),
  });
  servers.push(api);
  const { port } = (await api.listen(0, '127.0.0.1')) as AddressInfo;
  return { port, logs };
}

beforeAll(async () => {
  storeFile = await buildApiStore();
  ({ out } = await buildInto(storeFile));
  const store = StoreReader.open(storeFile);
  try {
    urls = [...prerendered(store)].map((p) => p.url).filter((u) => u !== '/');
  } finally {
    store.close();
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('shared-cache headers of pre-rendered files', () => {
  it.each([
    ['finished per request (rate limits on)', { api: 100_000, other: 100_000, windowMs: 60_000 }],
    ['held ready (no rate limits)', null],
  ])('are the dynamic answer’s, %s', async (_how, limits) => {
    const { port, logs } = await serve(limits);
    const store = StoreReader.open(storeFile);
    try {
      expect(urls.length).toBeGreaterThan(20);
      // Twice: the second answer of a target comes from what the first left ready.
      for (const round of [1, 2]) {
        for (const url of urls) {
          const res = await rawRequest(port, 'GET', url, { 'accept-encoding': 'identity' });
          const dynamic = renderUrl(store, clock, url);
          expect(res.status, url).toBe(200);
          expect(pick(res.headers), `${url} (round ${round})`).toEqual(pick(lower(dynamic.headers)));
          expect(res.headers['cache-tag'], url).toBeDefined();
        }
      }
    } finally {
      store.close();
    }
    const sources = logs.map((l) => (JSON.parse(l) as { source: string }).source);
    expect(sources.filter((s) => s === 'static').length).toBe(sources.length);
  });

  it('a compressed file answer keeps them', async () => {
    const { port } = await serve(null);
    // A summary: well over the 1 KB below which answers go uncompressed.
    const url = '/get/soccer/eng.1/events/9001';
    expect(urls).toContain(url);
    const plain = await rawRequest(port, 'GET', url, { 'accept-encoding': 'identity' });
    const br = await rawRequest(port, 'GET', url, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    for (const h of SHARED) expect(br.headers[h], h).toBe(plain.headers[h]);
  });
});

describe("the server's 429", () => {
  it('is no-store for shared caches too, and names no tags and no Netlify-Vary', async () => {
    const { port } = await serve({ api: 1, other: 1, windowMs: 60_000 });
    const url = '/get/soccer/eng.1/scoreboard?dates=20260321';
    const ok = await rawRequest(port, 'GET', url);
    const limited = await rawRequest(port, 'GET', url);
    expect(ok.status).toBe(200);
    expect(limited.status).toBe(429);
    expect(limited.headers['cache-control']).toBe('no-store');
    expect(limited.headers['cdn-cache-control']).toBe('no-store');
    expect(limited.headers['netlify-cdn-cache-control']).toBe('no-store');
    expect(ok.headers['netlify-vary']).toBe('query=dates');
    expect(limited.headers['netlify-vary']).toBeUndefined();
    for (const h of ['cache-tag', 'surrogate-key', 'xkey', 'netlify-cache-tag'])
      expect(limited.headers[h]).toBeUndefined();
  });
});

describe('a date-less scoreboard', () => {
  it("is answered from today's published file, with the same bytes and headers as the dynamic answer", async () => {
    const { port, logs } = await serve(null);
    const today = clock().toISOString().slice(0, 10).replaceAll('-', '');
    const dated = `/get/soccer/eng.1/scoreboard?dates=${today}`;
    expect(urls).toContain(dated);
    const store = StoreReader.open(storeFile);
    try {
      for (const url of ['/get/soccer/eng.1/scoreboard', '/get/soccer/ENG.1/scoreboard?utm=x']) {
        const res = await rawRequest(port, 'GET', url, { 'accept-encoding': 'identity' });
        const dynamic = renderUrl(store, clock, url);
        expect(res.status, url).toBe(200);
        expect(res.body.equals(dynamic.body), url).toBe(true);
        expect(pick(res.headers), url).toEqual(pick(lower(dynamic.headers)));
      }
    } finally {
      store.close();
    }
    const sources = logs.map((l) => (JSON.parse(l) as { source: string }).source);
    expect(sources).toEqual(['static', 'static']);
  });
});
