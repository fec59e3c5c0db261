/**
 * `fds check`: the published build against the store. Every file must equal the dynamic render of
 * its request (and of its aliases) in status, body and headers, and `_headers` must give it the
 * manifest's Cache-Control and Content-Type; every literal rule must point at a file; and a seeded
 * sample of bent requests, resolved through Netlify's own matcher (after the release's edge router,
 * when it has one) and through the server's static lookup, must get exactly the dynamic answer
 * whenever a file answers. It also counts how many pre-rendered requests — and of the hot set — the
 * CDN reaches from files, each asked in its shortest spelling.
 *
 * The steps, in order: checkFiles (each manifest entry: bytes, dynamic render, `_headers`, reach,
 * and a draw for the sample), checkTree (files on disk, rule targets), checkSample.
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
import type { CdnAnswer } from './cdn-view.js';
import { linesSync } from '../util/lines.js';
import { readManifest } from '../release/manifest.js';
import type { ManifestEntry } from '../release/manifest.js';
import { MANIFEST_FILE, currentRelease } from '../release/layout.js';
import { readBuildInfo } from '../release/build-info.js';
import { DEFAULT_TARGET } from '../publish/rules/rule-settings.js';
import { OTHER_REQUESTS, mutate, seededRng, splitUrl } from './sample.js';
import type { RawRequest, Rng } from './sample.js';
import { STATIC_PREFIX } from '../release/file-name.js';
import { StaticBuild } from '../server/static-lookup.js';
import { resolve } from '../app/resolve.js';
import { formatQuery } from '../api/query.js';
import { defaultSpelling } from '../publish/plan/plan.js';
import type { ReachCount } from '../publish/plan/reach.js';
import { ReachPolicy, noReach } from '../publish/plan/reach.js';
import { snapshotClock } from '../publish/snapshot-clock.js';
import { literalQuery, splitLiteral } from '../publish/rules/rule-text.js';

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
function literalTargets(redirects: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of redirects) {
    const parts = line.split(/\s+/);
    if (line.startsWith('#') || parts.length < 3 || !parts.at(-2)!.startsWith(`/${STATIC_PREFIX}/`)) continue;
    // `path k=v … target status`: the literal's request as the rules wrote it (rule-text.ts), read back.
    const { path: p, conds } = splitLiteral(parts.slice(0, -2).join(' '));
    out.set(literalKey(p, Object.entries(literalQuery(conds))), parts.at(-2)!);
  }
  return out;
}

/** `fds check`: one pass over the release, in the steps the module comment names. */
export async function check(opts: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const release = currentRelease(opts.dir);
  if (!release) throw new CheckError(`no published build in ${opts.dir} (run \`fds build\` first)`);
  // The check resolves requests through Netlify's engines: another target's release has none of its rules.
  const target = readBuildInfo(release)?.settings.target ?? DEFAULT_TARGET;
  if (target !== DEFAULT_TARGET)
    throw new CheckError(
      `${release} was built for ${target}: fds check resolves requests through Netlify's rules, which a ` +
        `--target ${target} build does not have (docs/deploying.md says how to check it)`,
    );
  const store = StoreReader.open(opts.db);
  try {
    const checker = new Checker(release, store, await CdnView.open(release), opts);
    await checker.checkFiles();
    checker.checkTree();
    const fileMismatches = checker.mismatches;
    const sampled = await checker.checkSample();
    return {
      release,
      files: checker.files,
      sampled: checker.sampleSize,
      ...sampled,
      fileMismatches,
      sampleMismatches: checker.mismatches - fileMismatches,
      edge: checker.cdn.edge !== null,
      reach: checker.reach,
      reasons: checker.reasons,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    store.close();
  }
}

/** The state of one check: what it found so far, and the bases its sample is drawn from. */
class Checker {
  readonly reasons: string[] = [];
  mismatches = 0;
  files = 0;
  readonly reach = noReach();
  readonly sampleSize: number;
  /** Requests of the manifest, a fair draw of them (reservoir sampling: bounded memory at any size). */
  private readonly bases: RawRequest[] = [];
  private seen = 0;
  private underPrefix = 0;
  private readonly rng: Rng;
  private readonly policy: ReachPolicy;
  private readonly redirects: string[];
  private readonly literals: Map<string, string>;

  constructor(
    readonly release: string,
    private readonly store: StoreReader,
    readonly cdn: CdnView,
    private readonly opts: CheckOptions,
  ) {
    this.sampleSize = opts.sample ?? 1000;
    this.rng = seededRng(opts.seed ?? 1);
    this.policy = new ReachPolicy(store, snapshotClock(store)());
    this.redirects = [...linesSync(path.join(release, '_redirects'))];
    this.literals = literalTargets(this.redirects);
  }

  private mismatch(reason: string): void {
    this.mismatches++;
    if (this.reasons.length < MAX_REASONS) this.reasons.push(reason);
    this.opts.onItem?.(true);
  }

  private dynamic(r: RawRequest): ApiResponse {
    return render(
      { method: 'GET', path: r.path, rawQuery: r.query, headers: {} },
      { store: this.store, clock: systemClock },
    );
  }

  /** Every file of the manifest: its bytes, and for each request it answers the dynamic render. */
  async checkFiles(): Promise<void> {
    for await (const entry of readManifest(path.join(this.release, MANIFEST_FILE))) {
      this.files++;
      if (entry.file.startsWith(`${STATIC_PREFIX}/`)) this.underPrefix++;
      this.opts.onPlanned?.(1);
      await this.checkFile(entry);
    }
  }

  private async checkFile(entry: ManifestEntry): Promise<void> {
    let body: Buffer;
    try {
      body = fs.readFileSync(path.join(this.release, entry.file));
    } catch {
      this.mismatch(`${entry.file}: listed in the manifest but missing`);
      return;
    }
    const stored: Answered = {
      status: entry.status,
      body,
      headers: { ETag: entry.etag, 'Cache-Control': entry.cacheControl, 'Content-Type': entry.contentType },
    };
    if (body.length !== entry.bytes)
      this.mismatch(`${entry.file}: ${body.length} bytes on disk, the manifest says ${entry.bytes}`);
    for (const url of [entry.request, ...entry.aliases]) {
      const rendered = this.dynamic(splitUrl(url));
      const diff = differs(rendered, stored, false);
      if (diff) this.mismatch(`${entry.file} (for ${url}): ${diff}`);
      if (url === entry.request) this.checkHeadersFile(entry.file, rendered);
      await this.countReach(url, entry.file);
      this.drawBase(url);
    }
    this.opts.onItem?.(false);
  }

  /** What the CDN sends with the file: the headers `_headers` gives its path. */
  private checkHeadersFile(file: string, rendered: ApiResponse): void {
    const given = this.cdn.headersFor(`/${file}`);
    for (const h of FROM_HEADERS)
      if (given[h] !== rendered.headers[h])
        this.mismatch(
          `${file}: _headers gives ${h} ${JSON.stringify(given[h])}, dynamic ${JSON.stringify(rendered.headers[h])}`,
        );
  }

  /** Whether the CDN reaches the file from the request's shortest spelling (and whether it is hot). */
  private async countReach(url: string, file: string): Promise<void> {
    const asked = defaultSpelling(url);
    if (!asked) return;
    const hot = this.policy.isHot(asked);
    const query = formatQuery(Object.fromEntries(asked.query)).slice(1);
    // netlify-redirector is slow over thousands of rules: it judges the hot set;
    // the rest is read off the router (or the literal rules, whose order makes each one win).
    let reached: boolean;
    if (hot) {
      const via = await this.cdn.serve('GET', asked.path, query);
      reached = via.kind === 'file' && via.file === file;
    } else if (this.cdn.edge) reached = (await this.cdn.rewrite('GET', asked.path, query)) === `/${file}`;
    else reached = this.literals.get(literalKey(asked.path, asked.query)) === `/${file}`;
    this.reach.requests++;
    this.reach.hot += hot ? 1 : 0;
    this.reach.reached += reached ? 1 : 0;
    this.reach.hotReached += hot && reached ? 1 : 0;
  }

  private drawBase(url: string): void {
    if (this.bases.length < this.sampleSize) this.bases.push(splitUrl(url));
    else if (this.rng() * ++this.seen < this.sampleSize)
      this.bases[Math.floor(this.rng() * this.sampleSize)] = splitUrl(url);
  }

  /** The tree holds exactly the manifest's files, and every rule pointing at a file finds it. */
  checkTree(): void {
    let onDisk = 0;
    for (const _ of walkFiles(path.join(this.release, STATIC_PREFIX))) onDisk++;
    if (onDisk !== this.underPrefix)
      this.mismatch(`${onDisk} files under ${STATIC_PREFIX}/, the manifest lists ${this.underPrefix}`);
    for (const line of this.redirects) {
      const target = line.startsWith('#') ? undefined : line.split(/\s+/).at(-2);
      // A file of this release (not the fallback, not a pattern such as `/_s/:splat`) must exist.
      const file = target && /^\/(?!\/|\.netlify\/)[^:]*$/.test(target);
      if (file && !fs.existsSync(path.join(this.release, target)))
        this.mismatch(`rule target ${target} does not exist: ${line}`);
    }
  }

  /**
   * The sample: the other requests, then bent spellings of drawn bases, each through the CDN and
   * through the server's static lookup; whenever a file answers, it must be the dynamic answer.
   */
  async checkSample(): Promise<{ cdnFiles: number; localFiles: number }> {
    const local = new StaticBuild(this.release);
    this.opts.onPlanned?.(this.sampleSize);
    let cdnFiles = 0;
    let localFiles = 0;
    try {
      for (let i = 0; i < this.sampleSize; i++) {
        const req = this.sampleRequest(i);
        const label = `GET ${req.path}${req.query ? `?${req.query}` : ''}`;
        const expected = this.dynamic(req);
        const viaCdn = await this.cdn.serve('GET', req.path, req.query);
        if (viaCdn.kind === 'file') cdnFiles++;
        const cdnFailure = this.cdnFailure(viaCdn, req, expected);
        if (cdnFailure) this.mismatch(`${label}: ${cdnFailure}`);
        const viaServer = local.lookup(
          { method: 'GET', path: req.path, rawQuery: req.query, headers: {} },
          resolve(req.path, req.query),
        );
        let serverFailure: string | null = null;
        if (viaServer) {
          localFiles++;
          const diff = differs(expected, viaServer, true);
          if (diff) serverFailure = `the server's static lookup answers but ${diff}`;
        }
        if (serverFailure) this.mismatch(`${label}: ${serverFailure}`);
        if (!cdnFailure && !serverFailure) this.opts.onItem?.(false);
      }
    } finally {
      local.close();
    }
    return { cdnFiles, localFiles };
  }

  private sampleRequest(i: number): RawRequest {
    if (i < OTHER_REQUESTS.length || !this.bases.length) return splitUrl(OTHER_REQUESTS[i % OTHER_REQUESTS.length]!);
    return mutate(this.bases[Math.floor(this.rng() * this.bases.length)]!, this.rng);
  }

  /** Why the CDN's answer is wrong, or null: a file it serves must be the dynamic answer. */
  private cdnFailure(viaCdn: CdnAnswer, req: RawRequest, expected: ApiResponse): string | null {
    if (viaCdn.kind === 'broken') return viaCdn.reason;
    if (viaCdn.kind === 'origin') {
      // The origin is asked the rule's request in the request's place: it must answer the same.
      const to = new URL(viaCdn.to);
      const diff = differs(expected, this.dynamic({ path: to.pathname, query: to.search.slice(1) }), true);
      return diff && `the rules ask the origin ${viaCdn.to} but ${diff}`;
    }
    if (viaCdn.kind !== 'file') return null;
    // The edge router reads the URL the platform parsed; the fallback would be handed the same.
    const served = {
      status: 200,
      body: fs.readFileSync(path.join(this.release, viaCdn.file)),
      headers: viaCdn.headers,
    };
    const diff = differs(viaCdn.via === 'edge' ? this.dynamic(viaCdn.asked) : expected, served, false, FROM_HEADERS);
    if (!diff) return null;
    const hint = readsLikeNetlify(req.query)
      ? ''
      : ' (the render core reads this query differently from Netlify: see src/netlify/query.ts)';
    return `the rules serve ${viaCdn.file} but ${diff}${hint}`;
  }
}
