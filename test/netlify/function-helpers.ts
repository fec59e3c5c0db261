/**
 * The Netlify Function as Netlify runs it, for the tests under test/netlify/: a deploy's files as the
 * CDN serves them to the function (the release's body files, `_b/`, over HTTP at the site's URL that
 * Netlify gives a function in its environment); the requests a rewrite hands it; and what the render
 * core answers over the full store, to compare with.
 */
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BODIES_DIR } from '../../src/netlify/function-store.js';
import { render } from '../../src/app/render.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import type { Clock } from '../../src/util/time.js';
import type { TargetResponse } from '../api/helpers/targets.js';
import { sent } from '../api/helpers/targets.js';

export const SITE_ID = 'fds-test-site';
export const DEPLOY_ID = '0123456789abcdef01234567';
export const BASE = 'https://fds.test';

/** A deploy's files as the function reaches them: served over HTTP at `url` (the site's URL). */
export interface Blobs {
  /** The site's URL, as Netlify gives it to a function (`URL` in its environment). */
  url: string;
  /** What Netlify's invocation event carries of the site and deploy; `url` for the function's `URL`. */
  event: { siteId: string; deployId: string; url: string };
  /** Body files the server was asked for, as `<league>/<file name>`. */
  reads: string[];
  close(): Promise<void>;
}

/** Every body file of a release (`_b/<league>/<name>`), as `<league>/<name>` and its path. */
export function deployBlobFiles(release: string): Array<{ key: string; file: string }> {
  const dir = path.join(release, BODIES_DIR);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .flatMap((league) =>
      fs
        .readdirSync(path.join(dir, league))
        .sort()
        .map((name) => ({ key: `${league}/${name}`, file: path.join(dir, league, name) })),
    );
}

/**
 * A deploy's files as a CDN serves them: `GET /_b/…` answers the release's body file (404 when there
 * is none, or no release); nothing else is asked of it.
 */
export async function deployStoreOf(release: string | null): Promise<Blobs> {
  const reads: string[] = [];
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const m = /^\/_b\/([^/]+)\/([^/]+)$/.exec(url);
    if (m) reads.push(`${m[1]}/${m[2]}`);
    const file = m && release ? path.join(release, BODIES_DIR, m[1]!, m[2]!) : null;
    if (!file || m![1]!.startsWith('.') || m![2]!.startsWith('.') || !fs.existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    event: { siteId: SITE_ID, deployId: DEPLOY_ID, url },
    reads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What Netlify hands the function for a request that a rule rewrote to `/.netlify/functions/fds`. */
export function rewrittenToFunction(method: string, url: string, headers: Record<string, string> = {}): Request {
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
  return new Request(`${BASE}/.netlify/functions/fds${search}`, {
    method,
    headers: { ...headers, 'x-netlify-original-pathname': pathname, 'x-netlify-original-search': search },
  });
}

/** The render core's answer over a (full) store. */
export function renderAnswer(
  store: StoreReader,
  clock: Clock,
  method: string,
  url: string,
  headers: Record<string, string> = {},
): TargetResponse {
  const q = url.indexOf('?');
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const res = render(
    { method, path: q === -1 ? url : url.slice(0, q), rawQuery: q === -1 ? '' : url.slice(q + 1), headers: lower },
    { store, clock, uptime: () => 0, storeName: 'test.sqlite' },
  );
  return {
    status: res.status,
    headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), v])),
    body: sent(res),
  };
}

export async function responseOf(res: Response): Promise<TargetResponse> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

/**
 * Requests no client should send — malformed percent-encoding, traversal, huge queries, unknown
 * parameters — and what they must get: the render core's own answer (a 400 or 404 in the API's
 * shape, or a 200 when what is wrong is only ignored), never a 500.
 */
export const HOSTILE_URLS: readonly string[] = [
  '/get/soccer/eng.1/summary?event=%E0%A4%A',
  '/get/soccer/eng.1/summary?event=%',
  '/get/soccer/%E0%A4%A/clubs',
  '/get/soccer/eng.1/events/..%2f..%2fetc%2fpasswd',
  '/get/soccer/..%2f..%2f/clubs',
  '/get/soccer/eng.1/events/%2e%2e/plays',
  '/../../../etc/passwd',
  '/_s/../data/function.sqlite',
  '/get/soccer/eng.1/fixtures?status=live&unknown=1&page=1&x=%ZZ',
  `/get/soccer/eng.1/fixtures?${'a=1&'.repeat(2000)}page=2`,
  `/get/soccer/eng.1/summary?event=${'9'.repeat(5000)}`,
  '/get/soccer/eng.1/events/401%00/plays',
  '/get/soccer/ENG.1/events/x/plays?important=maybe',
  '/get/soccer/eng.1/events/1/plays?limit=-1',
  '/get/soccer/eng.1/events/1/plays?page=99999999999999999999',
];
