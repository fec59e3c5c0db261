/**
 * The Netlify Function as Netlify runs it, for the tests under test/netlify/: a deploy's Blobs store
 * (@netlify/blobs' own BlobsServer) filled from the blobs a build wrote, the way Netlify's upload step
 * reads them (one directory per key holding `blob`); the blobs context Netlify hands a function in
 * its environment; the requests a rewrite hands it; and what the render core answers over the full
 * store, to compare with.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getDeployStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { render } from '../../src/app/render.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import type { Clock } from '../../src/util/time.js';
import type { TargetResponse } from '../api/helpers/targets.js';
import { sent } from '../api/helpers/targets.js';
import { tempDir } from '../helpers/store.js';

export const SITE_ID = 'fds-test-site';
export const DEPLOY_ID = '0123456789abcdef01234567';
const TOKEN = 'fds-test-token';
const REGION = 'us-east-2';
export const BASE = 'https://fds.test';

export interface Blobs {
  /** NETLIFY_BLOBS_CONTEXT as Netlify sets it for a function of this deploy. */
  context: string;
  /** What Netlify's invocation event carries of it (`blobs`, base64 of this JSON), with the site and deploy headers. */
  event: { blobs: string; siteId: string; deployId: string };
  /** Requests the server answered: reads of blobs, by key. */
  reads: string[];
  close(): Promise<void>;
}

/** Every blob under `dir` (Netlify's file-based upload layout), as key and file. */
export function deployBlobFiles(dir: string): Array<{ key: string; file: string }> {
  const out: Array<{ key: string; file: string }> = [];
  const walk = (at: string) => {
    for (const d of fs.readdirSync(at, { withFileTypes: true })) {
      const p = path.join(at, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name === 'blob') out.push({ key: path.relative(dir, at).split(path.sep).join('/'), file: p });
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** A deploy's Blobs store holding what a build wrote into `blobsDir`, as `netlify deploy` uploads it. */
export async function deployStoreOf(blobsDir: string | null): Promise<Blobs> {
  const reads: string[] = [];
  const server = new BlobsServer({
    directory: tempDir('fds-blobs-'),
    token: TOKEN,
    onRequest: ({ type, url }) => {
      // `…/deploy:<deploy id>/<key>`
      const parts = url.split('?')[0]!.split('/');
      const at = parts.findIndex((p) => p.startsWith('deploy:'));
      if (type === 'get' && at >= 0) reads.push(decodeURIComponent(parts.slice(at + 1).join('/')));
    },
  });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  // The environment's context would win over these options: a function's test may have set it.
  const held = process.env.NETLIFY_BLOBS_CONTEXT;
  delete process.env.NETLIFY_BLOBS_CONTEXT;
  const store = getDeployStore({ deployID: DEPLOY_ID, siteID: SITE_ID, token: TOKEN, edgeURL: url, region: REGION });
  if (held !== undefined) process.env.NETLIFY_BLOBS_CONTEXT = held;
  for (const { key, file } of blobsDir ? deployBlobFiles(blobsDir) : [])
    await store.set(key, new Blob([fs.readFileSync(file)]));
  reads.length = 0;
  const context = Buffer.from(
    JSON.stringify({
      edgeURL: url,
      uncachedEdgeURL: url,
      token: TOKEN,
      siteID: SITE_ID,
      deployID: DEPLOY_ID,
      primaryRegion: REGION,
    }),
  ).toString('base64');
  const event = {
    blobs: Buffer.from(JSON.stringify({ url, url_uncached: url, token: TOKEN, primary_region: REGION })).toString(
      'base64',
    ),
    siteId: SITE_ID,
    deployId: DEPLOY_ID,
  };
  return { context, event, reads, close: () => server.stop() };
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
