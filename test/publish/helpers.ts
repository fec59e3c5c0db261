/**
 * Stores, builds and targets for the publishing tests: demo stores synced in-process, builds into
 * temporary directories, and the two contract-suite targets that answer from a built tree — the
 * CDN (Netlify's own engines over the generated rules and `_headers`, test/helpers/netlify-cdn.ts)
 * and the static-first server.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StoreReader } from '../../src/store/read/reader.js';
import { openStore } from '../../src/store/db.js';
import { runSync } from '../../src/sync/run-sync.js';
import { createDemoProvider, demoReferenceInstant } from '../../src/sync/providers/demo/index.js';
import { build } from '../../src/netlify/build.js';
import type {
  NetlifyBuildOptions as BuildOptions,
  NetlifyBuildSummary as BuildSummary,
} from '../../src/netlify/build.js';
import { NetlifyCdn, webRequest } from '../helpers/netlify-cdn.js';
import { currentRelease } from '../../src/release/layout.js';
import { StaticBuild } from '../../src/server/static-lookup.js';
import { createApiServer } from '../../src/server/http.js';
import type { Clock } from '../../src/util/time.js';
import { inProcessTarget, rawRequest, sent } from '../api/helpers/targets.js';
import type { TargetFactory } from '../api/helpers/targets.js';
import { openReader } from '../api/helpers/api-store.js';
import { tempDir } from '../helpers/store.js';

export const DEMO_TODAY = '20260321';

/** A small demo store (the demo's season laid out around `today`), synced in-process. */
export async function demoStore(
  opts: { file?: string; today?: string; scale?: number; leagues?: string[] } = {},
): Promise<string> {
  const file = opts.file ?? path.join(tempDir('fds-pub-'), 'demo.sqlite');
  const today = opts.today ?? DEMO_TODAY;
  const db = openStore(file);
  try {
    const instant = demoReferenceInstant(today);
    await runSync(db, createDemoProvider({ seed: 1, today, scale: opts.scale ?? 0.1, weight: 'light' }), {
      leagues: opts.leagues ?? ['eng.1', 'esp.1'],
      concurrency: 4,
      clock: () => instant,
    });
  } finally {
    db.close();
  }
  return file;
}

export async function buildInto(
  db: string,
  out = path.join(tempDir('fds-out-'), 'dist'),
  opts: Partial<BuildOptions> = {},
): Promise<{ out: string; summary: BuildSummary }> {
  const store = StoreReader.open(db);
  try {
    const summary = await build({ store, out, workers: 0, ...opts });
    return { out, summary };
  } finally {
    store.close();
  }
}

export interface FileState {
  ino: number;
  mtimeMs: number;
  sha: string;
}

/** Every regular file under a published tree (following the `dist` link), by relative path. */
export function treeState(out: string): Map<string, FileState> {
  const root = currentRelease(out);
  if (!root) throw new Error(`no release at ${out}`);
  const states = new Map<string, FileState>();
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else {
        const st = fs.statSync(p);
        states.set(path.relative(root, p), {
          ino: st.ino,
          mtimeMs: st.mtimeMs,
          sha: crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'),
        });
      }
    }
  };
  walk(root);
  return states;
}

/** Each file of the published release by its content's hash. */
export const contentOf = (out: string): Map<string, string> => new Map([...treeState(out)].map(([f, s]) => [f, s.sha]));

/** The published tree a full build of `db` gives, by content (built in a directory of its own). */
export async function fullBuildOf(db: string, opts: Partial<BuildOptions> = {}): Promise<Map<string, string>> {
  const out = path.join(tempDir('fds-full-'), 'dist');
  await buildInto(db, out, { full: true, ...opts });
  return contentOf(out);
}

/**
 * A copy of a directory holding `store.sqlite` and its build's `dist` (hard links and the relative
 * `dist` link kept), for a test to move on from the same state as others.
 */
export function copyOfState(from: string, to: string): { db: string; out: string } {
  execFileSync('cp', ['-a', from, to]);
  return { db: path.join(to, 'store.sqlite'), out: path.join(to, 'dist') };
}

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * The built tree as the CDN serves it: the edge router (when built with one), the generated
 * `_redirects` by @netlify/redirects, files with their `_headers` by @netlify/headers; whatever the
 * rules send to the fallback is answered by it. A request that ends anywhere else (a missing file, a
 * front-door asset) fails loudly.
 */
export interface Served {
  fromFiles: number;
  other: number;
}

export interface CdnTargetOptions {
  /** How the tree is built (the router, the fallback). */
  build?: Partial<BuildOptions>;
  /** What answers the requests the CDN does not answer from files (default: the render core in-process). */
  fallback?: TargetFactory;
  name?: string;
}

export function cdnTarget(
  clock: Clock,
  served: Served = { fromFiles: 0, other: 0 },
  options: CdnTargetOptions = {},
): TargetFactory {
  const fallback = options.fallback ?? inProcessTarget(openReader, clock);
  const name = options.name ?? 'cdn';
  return async (file) => {
    const dynamic = await fallback(file);
    if (!file) return { ...dynamic, name: `${name} (no build)` };
    const { out } = await buildInto(file, undefined, options.build);
    const cdn = await NetlifyCdn.open(currentRelease(out)!);
    return {
      name,
      async request(method, url, headers = {}) {
        const q = url.indexOf('?');
        const request = webRequest(method, q === -1 ? url : url.slice(0, q), q === -1 ? '' : url.slice(q + 1), headers);
        if (!request) throw new Error(`${method} ${url}: not a URL a platform would hand over`);
        const answer = await cdn.serve(request);
        if (answer.kind === 'not-found' || answer.kind === 'page')
          throw new Error(`${method} ${url}: ${answer.kind === 'not-found' ? answer.reason : `page ${answer.file}`}`);
        // A path Netlify's rule engine cannot decode reaches no file: what the platform answers then
        // is not ours to model, so the fallback's 400 stands for it.
        if (answer.kind === 'function' || answer.kind === 'rejected') {
          served.other++;
          return dynamic.request(method, url, headers);
        }
        served.fromFiles++;
        return { status: answer.response.status, headers: lower(answer.response.headers), body: sent(answer.response) };
      },
      close: () => dynamic.close(),
    };
  };
}

/** The real server over a built tree (`fds serve --dir`), static lookup first. */
export function staticServerTarget(clock: Clock, served: Served = { fromFiles: 0, other: 0 }): TargetFactory {
  return async (file) => {
    const out = file ? (await buildInto(file)).out : path.join(tempDir('fds-nobuild-'), 'dist');
    const api = createApiServer({
      storeFile: file ?? '/nonexistent/missing.sqlite',
      clock,
      rateLimit: null,
      log: (line) => {
        if ((JSON.parse(line) as { source?: string }).source === 'static') served.fromFiles++;
        else served.other++;
      },
      staticLookup: new StaticBuild(out),
    });
    const { port } = (await api.listen(0, '127.0.0.1')) as AddressInfo;
    return {
      name: 'static-first server',
      request: (method, url, headers) => rawRequest(port, method, url, headers),
      close: () => api.close(),
    };
  };
}
