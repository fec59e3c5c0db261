/**
 * The fast lane (src/server/fast-lane.ts) answers plain requests without node:http's objects. Its
 * answers must be the very bytes node:http sends, and every request outside its subset must reach
 * node:http and be answered exactly as a server without the lane answers it. Two servers on one
 * store and one build — lane on, lane off — are compared byte for byte (Date blanked).
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/server/http.js';
import type { ApiServer, ServerOptions } from '../../src/server/http.js';
import { StaticBuild } from '../../src/server/static-lookup.js';
import { readManifestSync } from '../../src/release/manifest.js';
import type { ManifestEntry } from '../../src/release/manifest.js';
import { currentRelease } from '../../src/release/layout.js';
import { buildInto, demoStore } from '../publish/helpers.js';
import { converse, transcript } from './helpers.js';
import { headPrefix, headTail, laneRequest } from '../../src/server/fast-lane.js';

const NOW = new Date('2026-03-21T12:00:00Z');
let db: string;
let out: string;
let manifest: ManifestEntry[];

interface Running {
  api: ApiServer;
  port: number;
  /** Requests node:http handled (its 'request' event); the lane's answers raise none. */
  viaNode: number;
  logged: string[];
}

const running: Running[] = [];

async function start(fastLane: boolean, opts: Partial<ServerOptions> = {}): Promise<Running> {
  const r: Running = { api: null!, port: 0, viaNode: 0, logged: [] };
  r.api = createApiServer({
    storeFile: db,
    clock: () => NOW,
    rateLimit: null,
    log: (line) => r.logged.push(line),
    staticLookup: new StaticBuild(out),
    fastLane,
    ...opts,
  });
  r.api.server.on('request', () => r.viaNode++);
  r.port = ((await r.api.listen(0, '127.0.0.1')) as AddressInfo).port;
  running.push(r);
  return r;
}

let lane: Running;
let node: Running;

beforeAll(async () => {
  db = await demoStore({ leagues: ['eng.1', 'esp.1'], scale: 0.3 });
  ({ out } = await buildInto(db));
  manifest = readManifestSync(path.join(currentRelease(out)!, 'manifest.ndjson'));
  lane = await start(true);
  node = await start(false);
});
afterAll(async () => {
  await Promise.all(running.map((r) => r.api.close()));
});

const get = (target: string, extra = '', method = 'GET') => `${method} ${target} HTTP/1.1\r\nHost: t\r\n${extra}\r\n`;

/** The same bytes, on one connection each, to the lane and to node:http; both transcripts. */
async function both(pieces: string[], opts: Parameters<typeof converse>[2] = {}) {
  const [a, b] = await Promise.all([converse(lane.port, pieces, opts), converse(node.port, pieces, opts)]);
  return { lane: a, node: b };
}

describe('fast lane', () => {
  it('answers plain requests on one keep-alive connection with exactly the bytes node:http sends', async () => {
    const picked = manifest.filter((_, i) => i % 7 === 0).slice(0, 60);
    const big = manifest.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const requests: { text: string; head: boolean }[] = [
      ...picked.map((e) => ({ text: get(e.request), head: false })),
      ...picked.slice(0, 10).flatMap((e) => e.aliases.map((alias) => ({ text: get(alias), head: false }))),
      { text: get(big.request, '', 'HEAD'), head: true },
      { text: get(big.request, `If-None-Match: ${big.etag}\r\n`), head: false },
      { text: get(big.request, 'If-None-Match: "other"\r\n'), head: false },
      { text: get(big.request, 'Accept-Encoding: gzip\r\n'), head: false },
      { text: get(big.request, 'Accept-Encoding: br;q=1, gzip;q=0.5\r\n'), head: false },
      { text: get(big.request, 'Connection: keep-alive\r\nUser-Agent: test\r\nAccept: */*\r\n'), head: false },
      // Rendered: not in the build.
      { text: get('/get/soccer/eng.1/fixtures?limit=7&page=2'), head: false },
      { text: get('/get/soccer/eng.1/fixtures?limit=7', 'Accept-Encoding: gzip\r\n'), head: false },
      { text: get('/get/soccer/eng.1/fixtures?status=bogus'), head: false },
      { text: get('/get/soccer/eng.1/fixtures?status=%zz'), head: false },
      { text: get('/get/soccer/nowhere.1/fixtures'), head: false },
      { text: get('/no/such/route'), head: false },
      { text: get('/openapi.json'), head: false },
      { text: get('/'), head: false },
    ];
    const conv = await both([requests.map((r) => r.text).join('')], {
      count: requests.length,
      heads: requests.map((r) => r.head),
    });
    expect(conv.lane.answers).toHaveLength(requests.length);
    expect(transcript(conv.lane)).toBe(transcript(conv.node));
    expect(lane.viaNode).toBe(0);
    expect(node.viaNode).toBe(requests.length);
    const statuses = new Set(conv.lane.answers.map((a) => a.head.slice(9, 12)));
    expect([...statuses].sort()).toEqual(['200', '304', '400', '404']);
  });

  it('hands every request outside its subset to node:http, which answers as without the lane', async () => {
    const meta = get('/get/soccer/meta');
    const cases: Record<string, string> = {
      'a POST': 'POST /get/soccer/meta HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{}',
      'a CORS preflight': get(
        '/get/soccer/meta',
        'Origin: https://a.example\r\nAccess-Control-Request-Method: GET\r\n',
        'OPTIONS',
      ),
      'HTTP/1.0': 'GET /get/soccer/meta HTTP/1.0\r\n\r\n',
      'Connection: close': get('/get/soccer/meta', 'Connection: close\r\n'),
      'Connection: upgrade': get('/get/soccer/meta', 'Connection: Upgrade\r\nUpgrade: websocket\r\n'),
      'a chunked body': `${get('/get/soccer/meta', 'Transfer-Encoding: chunked\r\n')}0\r\n\r\n`,
      'a lower-case method': get('/get/soccer/meta', '', 'get'),
      'an absolute-form target': 'GET http://t/get/soccer/meta HTTP/1.1\r\nHost: t\r\n\r\n',
      'no Host': 'GET /get/soccer/meta HTTP/1.1\r\n\r\n',
      'two Hosts': get('/get/soccer/meta', 'Host: u\r\n'),
      'a line without a colon': get('/get/soccer/meta', 'Bogus\r\n'),
      'a folded line': get('/get/soccer/meta', 'X-A: 1\r\n  more\r\n'),
      'a byte above ASCII': get('/get/soccer/meta', 'X-A: caf\xe9\r\n'),
      'bare LF line ends': 'GET /get/soccer/meta HTTP/1.1\nHost: t\n\n',
      'a space in the target': 'GET /get/soccer/meta x HTTP/1.1\r\nHost: t\r\n\r\n',
      'a 10 KB header': get('/get/soccer/meta', `X-Big: ${'b'.repeat(10_000)}\r\n`),
      'a 20 KB header': get('/get/soccer/meta', `X-Big: ${'b'.repeat(20_000)}\r\n`),
      'a front-door asset': get('/_fd/frontdoor.css'),
    };
    for (const [name, request] of Object.entries(cases)) {
      const before = { lane: lane.viaNode, node: node.viaNode };
      // A plain request follows on the same connection: node:http keeps the connection once given it.
      // (Assets are answered after a read; node:http drops such answers to a client that half-closed.)
      const asset = name.includes('asset');
      const conv = await both([request + meta], asset ? { count: 2 } : { end: true, heads: [false, false] });
      expect(transcript(conv.lane), name).toBe(transcript(conv.node));
      expect(transcript(conv.lane), name).toMatch(/^HTTP\/1\.1 \d{3} /);
      // What node:http handled without the lane, it handled with it: the lane answered none of these.
      expect(lane.viaNode - before.lane, name).toBe(node.viaNode - before.node);
    }
  });

  it('answers a request whose head arrives in pieces, and the requests after it', async () => {
    const pieces = ['GET /get/soccer/me', 'ta HTTP/1.1\r\nHost: t\r\n', '\r\n', get('/get/soccer/leagues')];
    const conv = await both(pieces, { gapMs: 30, count: 2 });
    expect(conv.lane.answers).toHaveLength(2);
    expect(transcript(conv.lane)).toBe(transcript(conv.node));
  });

  it('stops answering a client that does not read, and answers it all once it does', async () => {
    const big = manifest.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const n = 300;
    const fresh = await start(true);
    const socket = net.connect(fresh.port, '127.0.0.1');
    socket.pause();
    await new Promise((r) => socket.once('connect', r));
    socket.write(get(big.request).repeat(n));
    await new Promise((r) => setTimeout(r, 300));
    // node:http's kernel buffers hold a few MB; n answers would be n × this file's size.
    const heldBack = fresh.logged.length;
    expect(heldBack * big.bytes).toBeLessThan(32 * 1024 * 1024);
    expect(heldBack).toBeLessThan(n);
    let received = 0;
    socket.on('data', (c: Buffer) => (received += c.length));
    socket.resume();
    await expect.poll(() => fresh.logged.length, { timeout: 10_000 }).toBe(n);
    await expect.poll(() => received, { timeout: 10_000 }).toBeGreaterThanOrEqual(n * big.bytes);
    socket.destroy();
  });

  it('answers a rate-limited client with 429 as node:http does', async () => {
    const limitedLane = await start(true, { rateLimit: { api: 2, other: 2, windowMs: 60_000 } });
    const conv = await converse(limitedLane.port, [get('/get/soccer/meta').repeat(3)], { count: 3 });
    expect(conv.answers.map((a) => a.head.slice(9, 12))).toEqual(['200', '200', '429']);
    expect(conv.answers[2]!.head).toMatch(/\r\nRetry-After: \d+\r\n/);
    expect(limitedLane.viaNode).toBe(0);
  });

  it('closes an idle connection after the keep-alive timeout, and idle connections at once on shutdown', async () => {
    const fresh = await start(true, { shutdownGraceMs: 60_000 });
    fresh.api.server.keepAliveTimeout = 200;
    const connect = async () => {
      const socket = net.connect(fresh.port, '127.0.0.1').resume();
      await new Promise((r) => socket.once('connect', r));
      return { socket, closed: new Promise((r) => socket.on('close', r)) };
    };
    const idle = await connect();
    idle.socket.write(get('/get/soccer/meta'));
    await idle.closed; // 200 ms after its answer
    expect(fresh.logged).toHaveLength(1);

    fresh.api.server.keepAliveTimeout = 60_000;
    const silent = await connect();
    const used = await connect();
    used.socket.write(get('/get/soccer/meta'));
    await expect.poll(() => fresh.logged.length).toBe(2);
    await fresh.api.close(); // resolves once every connection is closed
    await Promise.all([silent.closed, used.closed]);
  });

  it('gives generated requests the same answer with and without the lane', async () => {
    const targets = [
      '/get/soccer/meta',
      manifest[3]!.request,
      '/get/soccer/eng.1/fixtures?x=%',
      '*',
      'http://t/x',
      '/a b',
    ];
    const headers = [
      'Host: t',
      'host: t',
      'Connection: keep-alive',
      'Connection: close',
      'Accept-Encoding: gzip',
      `If-None-Match: ${manifest[3]!.etag}`,
      'X-W: \xff',
      'NoColon',
      ' folded',
      'Content-Length: 0',
      'Transfer-Encoding: chunked',
      'X-Empty:',
      'X-Tab:\tv\t',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'get', 'POST', 'OPTIONS', 'DELETE'),
        fc.constantFrom(...targets),
        fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x'),
        fc.array(fc.constantFrom(...headers), { maxLength: 4 }),
        fc.constantFrom('\r\n', '\n'),
        async (method, target, version, lines, eol) => {
          const request = [`${method} ${target} ${version}`, ...lines, '', ''].join(eol);
          const heads = [method === 'HEAD', false];
          const conv = await both([request + get('/get/soccer/meta')], { end: true, heads });
          expect(transcript(conv.lane)).toBe(transcript(conv.node));
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('fast lane parts', () => {
  it('takes only a strict subset of request heads', () => {
    const ok = laneRequest(
      'GET /get/soccer/meta?x=1 HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\nConnection: Keep-Alive',
      '1.2.3.4',
    );
    expect(ok).toEqual({
      method: 'GET',
      url: '/get/soccer/meta?x=1',
      headers: { host: 't', 'accept-encoding': 'gzip', connection: 'Keep-Alive' },
      socket: { remoteAddress: '1.2.3.4' },
    });
    for (const head of [
      'GET /x HTTP/1.1',
      'GET /x HTTP/1.0\r\nHost: t',
      'POST /x HTTP/1.1\r\nHost: t',
      'GET x HTTP/1.1\r\nHost: t',
      'GET /x HTTP/1.1\r\nHost: t\r\nhost: u',
      'GET /x HTTP/1.1\r\nHost: t\r\nContent-Length: 0',
      'GET /x HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked',
      'GET /x HTTP/1.1\r\nHost: t\r\nConnection: close',
      'GET /x HTTP/1.1\r\nHost: t\r\nX: a\nY: b',
      'GET /x HTTP/1.1\r\nHost: t\r\n folded',
      'GET /x HTTP/1.1\r\nHost: t\r\nX: caf\xe9',
      'GET /x HTTP/1.1\r\nHost : t',
    ]) {
      expect(laneRequest(head, undefined), JSON.stringify(head)).toBeNull();
    }
  });

  it('writes a head as node:http does, and refuses a header that would split the response', () => {
    const head = headPrefix(200, { 'Content-Type': 'application/json', 'Content-Length': '2' }) + headTail(5000);
    expect(head).toMatch(
      /^HTTP\/1\.1 200 OK\r\nContent-Type: application\/json\r\nContent-Length: 2\r\nDate: [^\r]+ GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n$/,
    );
    expect(() => headPrefix(200, { ETag: '"a"\r\nSet-Cookie: x=1' })).toThrow();
    expect(() => headPrefix(200, { 'Bad Name': 'x' })).toThrow();
  });
});
