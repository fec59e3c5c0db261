/**
 * `fds check`: the published build against the store. Every file must equal the dynamic render of
 * its request (and of its aliases) in status, body and headers, and `_headers` must give it the
 * manifest's Cache-Control and Content-Type; every literal rule must point at a file; and a seeded
 * sample of bent requests, resolved through Netlify's own matcher (after the release's edge router,
 * when it has one) and through the server's static lookup, must get exactly the dynamic answer
 * whenever a file answers. It also counts how many pre-rendered requests — and of the hot set — the
 * CDN reaches from files, each asked in its shortest spelling.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ApiResponse } from '../app/render.js';
import { render } from '../app/render.js';
import { parseQuery } from '../api/query.js';
import { agreesWithNetlify } from '../netlify/query.js';
import { StoreReader } from '../store/read/reader.js';
import { systemClock } from '../util/time.js';
import { CdnView } from './cdn-view.js';
import { linesSync } from '../util/lines.js';
import { readManifest } from '../release/manifest.js';
import { MANIFEST_FILE, currentRelease } from '../release/layout.js';
import { OTHER_REQUESTS, mutate, seededRng, splitUrl } from './sample.js';
import type { RawRequest } from './sample.js';
import { STATIC_PREFIX } from '../release/file-name.js';
import { StaticBuild } from '../server/static-lookup.js';
import { resolve } from '../app/resolve.js';
import { formatQuery } from '../api/query.js';
import { defaultSpelling } from '../publish/plan/plan.js';
import type { ReachCount } from '../publish/plan/reach.js';
import { ReachPolicy, noReach } from '../publish/plan/reach.js';
import { snapshotClock } from '../publish/build.js';

export interface CheckOptions {
  dir: string;
  db: string;
  /** Generated requests to resolve through the rules and the static lookup. */
  sample?: number;
  seed?: number;
  onPlanned?: (n: number) => void;
  onItem?: (failed: boolean) => void;
}

export interface CheckReport {
  release: string;
  files: number;
  sampled: number;
  /** Sampled requests the CDN rules answered from a file / the static-first server answered from a file. */
  cdnFiles: number;
  localFiles: number;
  /** Files (and rules) that differ from the dynamic render or the manifest. */
  fileMismatches: number;
  /** Sampled requests answered from a file with anything but the dynamic answer. */
  sampleMismatches: number;
  /** Whether the release routes through an edge function first. */
  edge: boolean;
  /** Pre-rendered requests (shortest spelling) the CDN answers from their own file; and of the hot set. */
  reach: ReachCount;
  reasons: string[];
  seconds: number;
}

export class CheckError extends Error {}

const MAX_REASONS = 20;
const COMPARED = ['ETag', 'Cache-Control', 'Content-Type'] as const;
/** What `_headers` gives a file (Netlify makes the ETag itself, from the file's bytes). */
const FROM_HEADERS = ['Cache-Control', 'Content-Type', 'CDN-Cache-Control', 'Netlify-CDN-Cache-Control'] as const;

interface Answered {
  status: number;
  body: Buffer;
  headers: Record<string, string>;
}

function differs(
  expected: ApiResponse,
  actual: Answered,
  allHeaders: boolean,
  compared: readonly string[] = COMPARED,
): string | null {
  if (expected.status !== actual.status) return `status ${actual.status}, dynamic ${expected.status}`;
  if (!expected.body.equals(actual.body))
    return `body differs from the dynamic one (${actual.body.length} vs ${expected.body.length} bytes)`;
  const names = allHeaders
    ? [...new Set([...Object.keys(expected.headers), ...Object.keys(actual.headers)])]
    : compared;
  for (const h of names)
    if (expected.headers[h] !== actual.headers[h])
      return `${h} ${JSON.stringify(actual.headers[h])}, dynamic ${JSON.stringify(expected.headers[h])}`;
  return null;
}

const readsLikeNetlify = (query: string) => agreesWithNetlify(query, parseQuery(query));

function* walkFiles(dir: string): Generator<string> {
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) yield* walkFiles(p);
    else yield p;
  }
}

/** A literal rule's path and conditions, in any order (Netlify matches conditions as a set). */
const literalKey = (path: string, conds: ReadonlyArray<readonly [string, string]>) =>
  `${path}?${conds
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('&')}`;

/** The literal rules of `_redirects` (at most the rule budget): literal key → target. */
function literalTargets(redirects: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of linesSync(redirects)) {
    const parts = line.split(/\s+/);
    if (line.startsWith('#') || parts.length < 3 || !parts.at(-2)!.startsWith(`/${STATIC_PREFIX}/`)) continue;
    const conds = parts
      .slice(1, -2)
      .map((c): [string, string] => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]);
    out.set(literalKey(parts[0]!, conds), parts.at(-2)!);
  }
  return out;
}

async function reachedByCdn(cdn: CdnView, path: string, query: string, file: string): Promise<boolean> {
  const via = await cdn.serve('GET', path, query);
  return via.kind === 'file' && via.file === file;
}

export async function check(opts: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const release = currentRelease(opts.dir);
  if (!release) throw new CheckError(`no published build in ${opts.dir} (run \`fds build\` first)`);
  const store = StoreReader.open(opts.db);
  const reasons: string[] = [];
  let mismatches = 0;
  let fileMismatches = 0;
  const mismatch = (reason: string) => {
    mismatches++;
    if (reasons.length < MAX_REASONS) reasons.push(reason);
    opts.onItem?.(true);
  };
  const dynamic = (r: RawRequest, headers: Record<string, string> = {}) =>
    render({ method: 'GET', path: r.path, rawQuery: r.query, headers }, { store, clock: systemClock });
  const sampleSize = opts.sample ?? 1000;
  const bases: RawRequest[] = [];
  const rng = seededRng(opts.seed ?? 1);
  let files = 0;
  let seen = 0;
  const cdn = await CdnView.open(release);
  const policy = new ReachPolicy(store, snapshotClock(store)());
  const reach = noReach();
  const literals = literalTargets(path.join(release, '_redirects'));
  try {
    let underPrefix = 0;
    for await (const entry of readManifest(path.join(release, MANIFEST_FILE))) {
      files++;
      if (entry.file.startsWith(`${STATIC_PREFIX}/`)) underPrefix++;
      opts.onPlanned?.(1);
      let body: Buffer;
      try {
        body = fs.readFileSync(path.join(release, entry.file));
      } catch {
        mismatch(`${entry.file}: listed in the manifest but missing`);
        continue;
      }
      const stored: Answered = {
        status: entry.status,
        body,
        headers: { ETag: entry.etag, 'Cache-Control': entry.cacheControl, 'Content-Type': entry.contentType },
      };
      if (body.length !== entry.bytes)
        mismatch(`${entry.file}: ${body.length} bytes on disk, the manifest says ${entry.bytes}`);
      for (const url of [entry.request, ...entry.aliases]) {
        const rendered = dynamic(splitUrl(url));
        const diff = differs(rendered, stored, false);
        if (diff) mismatch(`${entry.file} (for ${url}): ${diff}`);
        if (url === entry.request) {
          // What the CDN sends with the file: the headers `_headers` gives its path.
          const given = cdn.headersFor(`/${entry.file}`);
          for (const h of FROM_HEADERS)
            if (given[h] !== rendered.headers[h])
              mismatch(
                `${entry.file}: _headers gives ${h} ${JSON.stringify(given[h])}, dynamic ${JSON.stringify(rendered.headers[h])}`,
              );
        }
        const asked = defaultSpelling(url);
        if (asked) {
          const hot = policy.isHot(asked);
          const query = formatQuery(Object.fromEntries(asked.query)).slice(1);
          // netlify-redirector is slow over thousands of rules: it judges the hot set;
          // the rest is read off the router (or the literal rules, whose order makes each one win).
          const reached = hot
            ? await reachedByCdn(cdn, asked.path, query, entry.file)
            : cdn.edge
              ? (await cdn.rewrite('GET', asked.path, query)) === `/${entry.file}`
              : literals.get(literalKey(asked.path, asked.query)) === `/${entry.file}`;
          reach.requests++;
          reach.hot += hot ? 1 : 0;
          reach.reached += reached ? 1 : 0;
          reach.hotReached += hot && reached ? 1 : 0;
        }
        // Reservoir sampling keeps the bases a fair draw at any manifest size, in bounded memory.
        if (bases.length < sampleSize) bases.push(splitUrl(url));
        else if (rng() * ++seen < sampleSize) bases[Math.floor(rng() * sampleSize)] = splitUrl(url);
      }
      opts.onItem?.(false);
    }
    let onDisk = 0;
    for (const _ of walkFiles(path.join(release, STATIC_PREFIX))) onDisk++;
    if (onDisk !== underPrefix) mismatch(`${onDisk} files under ${STATIC_PREFIX}/, the manifest lists ${underPrefix}`);
    for (const line of linesSync(path.join(release, '_redirects'))) {
      const target = line.startsWith('#') ? undefined : line.split(/\s+/).at(-2);
      // A file of this release (not the fallback, not a pattern such as `/_s/:splat`) must exist.
      const file = target && /^\/(?!\/|\.netlify\/)[^:]*$/.test(target);
      if (file && !fs.existsSync(path.join(release, target))) mismatch(`rule target ${target} does not exist: ${line}`);
    }

    fileMismatches = mismatches;
    const local = new StaticBuild(release);
    opts.onPlanned?.(sampleSize);
    let cdnFiles = 0;
    let localFiles = 0;
    for (let i = 0; i < sampleSize; i++) {
      const base =
        i < OTHER_REQUESTS.length || !bases.length
          ? splitUrl(OTHER_REQUESTS[i % OTHER_REQUESTS.length]!)
          : bases[Math.floor(rng() * bases.length)]!;
      const req = i < OTHER_REQUESTS.length ? base : mutate(base, rng);
      const label = `GET ${req.path}${req.query ? `?${req.query}` : ''}`;
      const expected = dynamic(req);
      const viaCdn = await cdn.serve('GET', req.path, req.query);
      let failed = false;
      if (viaCdn.kind === 'broken') {
        mismatch(`${label}: ${viaCdn.reason}`);
        failed = true;
      } else if (viaCdn.kind === 'file') {
        cdnFiles++;
        // The edge router reads the URL the platform parsed; the fallback would be handed the same.
        const served = { status: 200, body: fs.readFileSync(path.join(release, viaCdn.file)), headers: viaCdn.headers };
        const diff = differs(viaCdn.via === 'edge' ? dynamic(viaCdn.asked) : expected, served, false, FROM_HEADERS);
        if (diff) {
          const hint = readsLikeNetlify(req.query)
            ? ''
            : ' (the render core reads this query differently from Netlify: see src/netlify/query.ts)';
          mismatch(`${label}: the rules serve ${viaCdn.file} but ${diff}${hint}`);
          failed = true;
        }
      }
      const viaServer = local.lookup(
        { method: 'GET', path: req.path, rawQuery: req.query, headers: {} },
        resolve(req.path, req.query),
      );
      if (viaServer) {
        localFiles++;
        const diff = differs(expected, viaServer, true);
        if (diff) {
          mismatch(`${label}: the server's static lookup answers but ${diff}`);
          failed = true;
        }
      }
      if (!failed) opts.onItem?.(false);
    }
    local.close();
    return {
      release,
      files,
      sampled: sampleSize,
      cdnFiles,
      localFiles,
      fileMismatches,
      sampleMismatches: mismatches - fileMismatches,
      edge: cdn.edge !== null,
      reach,
      reasons,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    store.close();
  }
}
