/** What the fallback server adds to the render core: robustness, rate limits, compression, store retry, logs. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer, ServerOptions } from '../../src/server/http.js';
import { createApiServer } from '../../src/server/http.js';
import { SERVE_MAP_BYTES } from '../../src/store/store-source.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, buildEmptyStore, clock } from '../api/helpers/api-store.js';
import { rawRequest } from '../api/helpers/targets.js';
import { tempDir } from '../helpers/store.js';
import { get, rawExchange } from './helpers.js';

let storeFile: string;
const running: ApiServer[] = [];

async function start(opts: Partial<ServerOptions> = {}): Promise<{ api: ApiServer; port: number; logs: string[] }> {
  const logs: string[] = [];
  const api = createApiServer({ storeFile, clock, rateLimit: null, log: (l) => logs.push(l), ...opts });
  running.push(api);
  const { port } = await api.listen(0, '127.0.0.1');
  return { api, port, logs };
}

beforeAll(async () => {
  storeFile = await buildApiStore();
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});

describe('fallback server: malformed requests', () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await start());
  });

  it.each([
    ['a space in the request target', 'GET /get soccer/leagues HTTP/1.1\r\nHost: t\r\n\r\n'],
    ['a control character in the target', 'GET /get/\x01 HTTP/1.1\r\nHost: t\r\n\r\n'],
    ['a garbage request line', 'HELLO\r\n\r\n'],
    ['an unknown method token', 'FROB /get/soccer/leagues HTTP/1.1\r\nHost: t\r\n\r\n'],
    ['an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'],
    ['a header without a colon', 'GET /health HTTP/1.1\r\nHost: t\r\nBroken header\r\n\r\n'],
  ])('answers %s with a 400 JSON error', async (_name, bytes) => {
    const res = await rawExchange(port, bytes);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String) });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers oversized headers with 431 and a JSON error', async () => {
    const res = await rawExchange(port, get('/get/soccer/leagues', `X-Big: ${'a'.repeat(40_000)}\r\n`));
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String) });
  });

  it('answers a huge query string with a 4xx, never a 5xx', async () => {
    const res = await rawExchange(port, get(`/get/soccer/leagues?${'a=1&'.repeat(5000)}`));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('understands an absolute-form request target', async () => {
    const res = await rawExchange(port, get('http://example.test/get/soccer/eng.1/clubs?x=1'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).league.slug).toBe('eng.1');
  });

  it("answers raw non-ASCII bytes in a path segment with the segment's 400", async () => {
    const res = await rawExchange(
      port,
      Buffer.concat([
        Buffer.from('GET /get/soccer/'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('/clubs HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'),
      ]),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('keeps serving after all of that', async () => {
    expect((await rawRequest(port, 'GET', '/health')).status).toBe(200);
  });
});

describe('fallback server: transport', () => {
  it('compresses with brotli or gzip when accepted, to the same bytes, and varies on Accept-Encoding', async () => {
    const { port } = await start();
    const plain = await rawRequest(port, 'GET', '/get/soccer/eng.1/events/9001');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const br = await rawRequest(port, 'GET', '/get/soccer/eng.1/events/9001', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await rawRequest(port, 'GET', '/get/soccer/eng.1/events/9001', {
      'accept-encoding': 'gzip;q=1, br;q=0',
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.etag).toBe(plain.headers.etag);
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    const none = await rawRequest(port, 'GET', '/get/soccer/eng.1/events/9001', { 'accept-encoding': 'identity' });
    expect(none.headers['content-encoding']).toBeUndefined();
  });

  it('says in a 304 what the 200 varies on (RFC 9110 §15.4.5), and nothing for an answer too small to compress', async () => {
    const { port } = await start();
    for (const [url, vary] of [
      ['/get/soccer/eng.1/events/9001', 'Accept-Encoding'],
      ['/get/soccer/meta', undefined],
    ] as const) {
      const whole = await rawRequest(port, 'GET', url);
      expect(whole.headers.vary, url).toBe(vary);
      const again = await rawRequest(port, 'GET', url, { 'if-none-match': whole.headers.etag! });
      expect(again.status, url).toBe(304);
      expect(again.headers.vary, url).toBe(vary);
    }
  });

  it('rate-limits per client and bucket with RateLimit-* headers and a 429 {error} with Retry-After', async () => {
    const { port } = await start({ rateLimit: { api: 2, other: 3, windowMs: 60_000 } });
    const first = await rawRequest(port, 'GET', '/get/soccer/meta');
    expect(first.headers['ratelimit-limit']).toBe('2');
    expect(first.headers['ratelimit-remaining']).toBe('1');
    await rawRequest(port, 'GET', '/get/soccer/meta');
    const limited = await rawRequest(port, 'GET', '/get/soccer/meta');
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body.toString())).toEqual({ error: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    // Health is in the other bucket.
    expect((await rawRequest(port, 'GET', '/health')).status).toBe(200);
  });

  it('trusts X-Forwarded-For only when told to', async () => {
    const limits = { api: 1, other: 1, windowMs: 60_000 };
    // What the client wrote itself, then the address the proxy in front of the server appended.
    const as = (ip: string, spoof = '6.6.6.6') => ({ 'x-forwarded-for': `${spoof}, ${ip}` });
    const untrusting = await start({ rateLimit: limits });
    expect((await rawRequest(untrusting.port, 'GET', '/get/soccer/meta', as('1.1.1.1'))).status).toBe(200);
    expect((await rawRequest(untrusting.port, 'GET', '/get/soccer/meta', as('2.2.2.2'))).status).toBe(429);
    const trusting = await start({ rateLimit: limits, trustProxy: true });
    expect((await rawRequest(trusting.port, 'GET', '/get/soccer/meta', as('1.1.1.1'))).status).toBe(200);
    expect((await rawRequest(trusting.port, 'GET', '/get/soccer/meta', as('2.2.2.2'))).status).toBe(200);
    expect((await rawRequest(trusting.port, 'GET', '/get/soccer/meta', as('1.1.1.1'))).status).toBe(429);
  });

  it('behind trusted proxies limits the address they saw, which a client cannot spoof', async () => {
    const limits = { api: 1, other: 1, windowMs: 60_000 };
    // A CDN appends the client's address, then a Varnish in front of the server appends the CDN's.
    const via = (client: string, spoof: string) => ({ 'x-forwarded-for': `${spoof}, ${client}, 10.0.0.9` });
    const { port } = await start({ rateLimit: limits, trustProxy: 2 });
    expect((await rawRequest(port, 'GET', '/get/soccer/meta', via('1.1.1.1', '7.7.7.1'))).status).toBe(200);
    // A new made-up first address does not make a new client; another client is not the CDN's limit.
    expect((await rawRequest(port, 'GET', '/get/soccer/meta', via('1.1.1.1', '7.7.7.2'))).status).toBe(429);
    expect((await rawRequest(port, 'GET', '/get/soccer/meta', via('2.2.2.2', '7.7.7.3'))).status).toBe(200);
  });

  it('writes one JSON log line per request', async () => {
    const { port, logs } = await start();
    await rawRequest(port, 'GET', '/get/soccer/leagues?kind=all');
    await rawRequest(port, 'POST', '/nope');
    expect(logs).toHaveLength(2);
    expect(JSON.parse(logs[0]!)).toMatchObject({
      method: 'GET',
      url: '/get/soccer/leagues?kind=all',
      status: 200,
      source: 'dynamic',
    });
    expect(JSON.parse(logs[1]!)).toMatchObject({ method: 'POST', status: 404 });
  });
});

describe('fallback server: store availability', () => {
  it('starts without a store, says 503 on health, and picks the store up once it appears', async () => {
    const dir = tempDir('fds-late-');
    const file = path.join(dir, 'late.sqlite');
    const { port } = await start({ storeFile: file, storeRetryMs: 0 });
    const down = await rawRequest(port, 'GET', '/health');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body.toString())).toMatchObject({
      status: 'unhealthy',
      database: { status: 'disconnected', name: 'late.sqlite' },
    });
    expect((await rawRequest(port, 'GET', '/get/soccer/leagues')).status).toBe(503);
    fs.copyFileSync(storeFile, file);
    const up = await rawRequest(port, 'GET', '/health');
    expect(up.status).toBe(200);
    expect(JSON.parse(up.body.toString()).database).toEqual({ status: 'connected', name: 'late.sqlite' });
    expect((await rawRequest(port, 'GET', '/get/soccer/leagues')).status).toBe(200);
  });

  it('reports an unreadable store file as a database error', async () => {
    const file = path.join(tempDir('fds-corrupt-'), 'corrupt.sqlite');
    fs.writeFileSync(file, 'this is not a database'.repeat(100));
    const { port } = await start({ storeFile: file });
    const res = await rawRequest(port, 'GET', '/api/health');
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body.toString())).toMatchObject({
      status: 'unhealthy',
      database: { status: 'error', name: 'corrupt.sqlite' },
    });
  });

  it('reopens the store when a new snapshot file is moved into place', async () => {
    const dir = tempDir('fds-swap-');
    const file = path.join(dir, 'live.sqlite');
    fs.copyFileSync(buildEmptyStore(dir), file);
    const { port } = await start({ storeFile: file, storeRetryMs: 0 });
    const before = JSON.parse((await rawRequest(port, 'GET', '/get/soccer/meta')).body.toString());
    expect(before.coverage.matches).toBe(0);
    fs.copyFileSync(storeFile, path.join(dir, 'next.sqlite'));
    fs.renameSync(path.join(dir, 'next.sqlite'), file);
    const after = JSON.parse((await rawRequest(port, 'GET', '/get/soccer/meta')).body.toString());
    expect(after.coverage.matches).toBe(8);
  });

  it('reads its store through a bounded memory map, which a build reader leaves alone', async () => {
    const { api, port } = await start();
    expect((await rawRequest(port, 'GET', '/get/soccer/meta')).status).toBe(200);
    expect(api.store.get()!.db.pragma('mmap_size', { simple: true })).toBe(SERVE_MAP_BYTES);
    const plain = StoreReader.open(storeFile);
    expect(plain.db.pragma('mmap_size', { simple: true })).toBe(0);
    plain.close();
  });

  it('finishes a request that is in flight when shutdown begins', async () => {
    const { api, port } = await start();
    let closing: Promise<void> | undefined;
    api.server.once('request', () => {
      closing = api.close();
    });
    const res = await rawRequest(port, 'GET', '/get/soccer/eng.1/events/9001');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).header.id).toBe('9001');
    await closing;
    expect(api.server.listening).toBe(false);
  });
});
