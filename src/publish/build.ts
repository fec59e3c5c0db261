/**
 * `fds build`: pre-render every enumerable response into a new release, generate the CDN rules
 * and headers, and publish atomically (release.ts). Incremental (scope.ts): only the responses
 * that read something the store's change log says changed since the published build are rendered;
 * every other file is hard-linked from the published release, and a build with nothing to do
 * returns at once. Memory stays flat: the plan streams from the store, bodies are held only while
 * in flight, and rule candidates are spooled to disk.
 * The function the fallback may be is measured first (function-size.ts): a build whose fallback
 * could not deploy fails before any work. With `--router edge` the build also writes an edge function
 * holding the index of what it pre-rendered (edge.ts).
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { formatQuery } from '../api/query.js';
import { ROUTES } from '../api/routes.js';
import type { StoreReader } from '../store/read/reader.js';
import type { Clock } from '../util/time.js';
import type { OutputFs } from '../util/lines.js';
import { LineWriter } from '../util/lines.js';
import type { ManifestEntry } from './manifest.js';
import { countManifest, manifestLine } from './manifest.js';
import type { BuildInfo } from './build-info.js';
import { BUILD_INFO_FILE, buildInfoJson, codeVersion, readBuildInfo } from './build-info.js';
import type { BuildScope } from './scope.js';
import { buildScope } from './scope.js';
import { affected, topic } from '../api/reads.js';
import { FilePlacer } from './place.js';
import { PreviousManifest } from './previous.js';
import { buildPlan, formUrl } from './plan.js';
import type { PlannedFile } from './plan.js';
import type { JobResult, RenderJob } from './render-job.js';
import { runJob } from './render-job.js';
import { RenderPool, storeState } from './render-pool.js';
import {
  MANIFEST_FILE,
  acquireLock,
  cleanStale,
  createTempRelease,
  currentRelease,
  publish,
  pruneReleases,
  releaseLayout,
} from './release.js';
import { DEFAULT_FALLBACK, DEFAULT_RULE_BUDGET, RulePlanner, checkBudget, checkFallback, isFunction } from './rules.js';
import type { Router, RuleStats } from './rules.js';
import { assetReleasePaths, assetsVersion, copyAssets } from '../frontdoor/assets.js';
import type { ReachCount } from './reach.js';
import { ReachPolicy } from './reach.js';
import type { EdgeBundleStats } from './edge.js';
import { EDGE_FILE, EdgeIndex, writeRouter } from './edge.js';
import type { FunctionSize } from './function-size.js';
import { checkFunctionFits, functionBundleSize } from './function-size.js';

export interface BuildOptions {
  /** The store to render from; the build reads it in one transaction and leaves it open. */
  store: StoreReader;
  out: string;
  /** Where the release is written (node:fs unless a test injects another). */
  fs?: OutputFs;
  /** The clock responses are rendered with; by default the store's snapshot time, so builds are reproducible. */
  clock?: Clock;
  /** Render and write every file, reusing nothing from the published release. */
  full?: boolean;
  /** Render threads (default: one per core; 0 renders in the build's own thread). */
  workers?: number;
  ruleBudget?: number;
  fallback?: string;
  /** How the CDN reaches the files: literal rules only (default), or an edge function first. */
  router?: Router;
  /** Older releases kept next to the published one. */
  keepReleases?: number;
  onPlanned?: (n: number) => void;
  onFile?: (failed: boolean) => void;
}

export interface BuildSummary {
  /** The published release (the previous one when nothing changed). */
  release: string;
  published: boolean;
  /** full: everything rendered (and why); incremental: only what changed; unchanged: nothing to do. */
  mode: 'full' | 'incremental' | 'unchanged';
  reason: string | null;
  /** Responses rendered (the rest of `files` was carried over from the published build). */
  rendered: number;
  /** Render workers used (0: rendered in the build's own thread). */
  workers: number;
  files: number;
  bytes: number;
  added: number;
  changed: number;
  unchanged: number;
  deleted: number;
  failed: number;
  failures: string[];
  rules: RuleStats | null;
  router: Router;
  /** Pre-rendered requests the CDN reaches from files, in their shortest spelling; and of the hot set. */
  reach: ReachCount | null;
  /** The edge function's module (`--router edge`). */
  edge: EdgeBundleStats | null;
  /** The fallback function's bundle, when the fallback is the Netlify Function. */
  functionSize: FunctionSize | null;
  seconds: number;
}

export class BuildError extends Error {
  constructor(
    message: string,
    readonly failures: string[] = [],
  ) {
    super(message);
  }
}

/** Files beside the rendered ones; the front door's assets are copies of installed files. */
const AUX_FILES = ['_redirects', '_headers', MANIFEST_FILE, BUILD_INFO_FILE, ...assetReleasePaths()];
const EDGE_AUX_FILES = [...AUX_FILES, EDGE_FILE];
const MAX_REPORTED_FAILURES = 20;

/** Responses rendered for files must not depend on the time of the build: the clock is the store's. */
export function snapshotClock(store: StoreReader): Clock {
  const at = new Date(store.meta().snapshotAt ?? 0);
  return () => at;
}

export async function build(opts: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const fallback = checkFallback(opts.fallback ?? DEFAULT_FALLBACK);
  const budget = checkBudget(opts.ruleBudget ?? DEFAULT_RULE_BUDGET, ROUTES);
  const router = opts.router ?? 'rules';
  // Before any work: a function that cannot deploy makes the whole build pointless.
  const functionSize = isFunction(fallback) ? functionBundleSize(opts.store.db.name) : null;
  if (functionSize) checkFunctionFits(functionSize, fallback);
  const fs = opts.fs ?? nodeFs;
  const layout = releaseLayout(opts.out, fs);
  const unlock = acquireLock(layout);
  let temp: string | null = null;
  try {
    cleanStale(layout);
    const previous = currentRelease(layout.out, fs);
    const store = opts.store;
    // One read transaction for the whole build: every file comes from one state of the store even
    // if a sync commits meanwhile (and the render core joins this transaction).
    store.db.exec('BEGIN');
    try {
      const settings = { fallback, ruleBudget: budget, router, assets: assetsVersion() };
      const info: BuildInfo = { code: codeVersion(), snapshot: store.snapshots.current(), settings };
      const before = readBuildInfo(previous);
      const same = JSON.stringify(before?.settings) === JSON.stringify(settings);
      const scope = buildScope(store, before, info, !!opts.full, same);
      if (scope.kind === 'none' && previous) {
        const { files, bytes } = await countManifest(path.join(previous, MANIFEST_FILE));
        return {
          release: previous,
          published: false,
          mode: 'unchanged',
          reason: null,
          rendered: 0,
          workers: 0,
          files,
          bytes,
          ...{ added: 0, changed: 0, unchanged: files, deleted: 0, failed: 0, failures: [], rules: null },
          ...{ router, reach: null, edge: null, functionSize },
          seconds: (performance.now() - started) / 1000,
        };
      }
      temp = createTempRelease(layout);
      const written = await writeRelease(store, temp, previous, scope, info, fallback, budget, router, opts, fs);
      const aux = written.edge ? EDGE_AUX_FILES : AUX_FILES;
      const auxSame = aux.map((f) => written.placer.keepIfSame(f)).every(Boolean);
      const { counts } = written;
      const nothingChanged =
        !!previous && !opts.full && counts.added + counts.changed + written.deleted === 0 && auxSame;
      let release: string;
      if (nothingChanged) {
        fs.rmSync(temp, { recursive: true, force: true });
        release = previous;
      } else {
        release = publish(layout, temp);
        pruneReleases(layout, opts.keepReleases ?? 2);
      }
      temp = null;
      return {
        release,
        published: !nothingChanged,
        mode: scope.kind === 'full' ? 'full' : 'incremental',
        reason: scope.kind === 'full' ? scope.reason : null,
        ...counts,
        workers: written.workers,
        deleted: written.deleted,
        failures: written.failures,
        rules: written.rules,
        router,
        // The edge router reaches every pre-rendered request; the rules, those they hold.
        reach: written.edge
          ? { ...written.rules.reach, reached: written.rules.reach.requests, hotReached: written.rules.reach.hot }
          : written.rules.reach,
        edge: written.edge,
        functionSize,
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      if (store.db.inTransaction) store.db.exec('ROLLBACK');
    }
  } finally {
    if (temp) {
      fs.rmSync(temp, { recursive: true, force: true });
      fs.rmSync(`${temp}-rules`, { recursive: true, force: true });
    }
    unlock();
  }
}

/** Fill the temporary release: every planned file rendered or carried over, the manifest, the rules. */
async function writeRelease(
  store: StoreReader,
  temp: string,
  previous: string | null,
  scope: BuildScope,
  info: BuildInfo,
  fallback: string,
  budget: number,
  router: Router,
  opts: BuildOptions,
  fs: OutputFs,
) {
  const previousFiles = previous ? (await countManifest(path.join(previous, MANIFEST_FILE))).files : 0;
  const reuse = !opts.full;
  const placer = new FilePlacer(temp, previous, reuse, fs);
  const known = new PreviousManifest(previous && path.join(previous, MANIFEST_FILE));
  const clock = opts.clock ?? snapshotClock(store);
  const rules = new RulePlanner(`${temp}-rules`, budget, fallback, new ReachPolicy(store, clock()), router, fs);
  const edge = router === 'edge' ? new EdgeIndex() : null;
  const manifest = new LineWriter(path.join(temp, MANIFEST_FILE), fs);
  const counts = { rendered: 0, files: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, failed: 0 };
  const failures: string[] = [];
  const fail = (message: string) => {
    counts.failed++;
    if (failures.length < MAX_REPORTED_FAILURES) failures.push(message);
    opts.onFile?.(true);
  };
  const record = (file: PlannedFile, r: Omit<ManifestEntry, 'file' | 'request' | 'aliases' | 'keys'>) => {
    counts.files++;
    counts.bytes += r.bytes;
    const { status, etag, cacheControl, contentType, bytes } = r;
    const { file: name, request, aliases, keys } = file;
    manifest.write(
      manifestLine({
        ...{ file: name, request: formUrl(request), aliases: aliases.map(formUrl), keys },
        ...{ status, etag, cacheControl, contentType, bytes },
      }),
    );
    rules.add(file, r);
    edge?.add(file);
  };
  const pool = await startPool(store, temp, previous, reuse, clock, opts);
  // Results are taken in plan order, so the manifest and rules do not depend on who rendered what.
  type Pending =
    | { file: PlannedFile; kept: ManifestEntry; linked: Promise<boolean> }
    | { file: PlannedFile; result: Promise<JobResult> };
  const pending: Pending[] = [];
  const settle = async (keep: number) => {
    while (pending.length > keep) {
      const head = pending[0]!;
      if ('kept' in head) {
        if (await head.linked) {
          pending.shift();
          record(head.file, head.kept);
          counts.unchanged++;
          opts.onFile?.(false);
          continue;
        }
        // The published file could not be carried over: render it after all, in its place in the order.
        counts.rendered++;
        pending[0] = { file: head.file, result: runJob(jobOf(head.file, head.kept), store, clock, placer) };
      }
      pool?.flush();
      const r = await (pending[0] as { result: Promise<JobResult> }).result;
      pending.shift();
      if (!r.ok) {
        fail(r.error);
        continue;
      }
      record(head.file, r);
      counts[r.placed]++;
      opts.onFile?.(false);
    }
  };
  try {
    let planned = 0;
    opts.onPlanned?.(previousFiles);
    for (const file of buildPlan(store)) {
      if (++planned > previousFiles) opts.onPlanned?.(1);
      const before = known.find(file.file);
      if (before && scope.kind === 'changes' && !affected(readsOf(file), scope.topics)) {
        pending.push({ file, kept: before, linked: placer.keep(file.file) });
      } else {
        counts.rendered++;
        const job = jobOf(file, before);
        pending.push({ file, result: pool ? pool.run(job) : runJob(job, store, clock, placer) });
      }
      // Backpressure: a bounded window of results (and so of bodies in flight) at any time.
      await settle(pool ? IN_FLIGHT : IN_PROCESS);
    }
    await settle(0);
  } finally {
    await pool?.close();
    manifest.close();
    rules.close();
    known.close();
  }
  // The assets first: the rules reach the files the release holds.
  copyAssets(temp);
  const ruleStats = rules.finish(temp);
  const edgeStats = edge ? await writeRouter(temp, edge, fs) : null;
  if (counts.failed) {
    throw new BuildError(
      `${counts.failed} of ${counts.files + counts.failed} pre-rendered responses failed; nothing was published`,
      failures,
    );
  }
  fs.writeFileSync(path.join(temp, BUILD_INFO_FILE), buildInfoJson(info));
  const deleted = previous ? Math.max(0, previousFiles - counts.unchanged - counts.changed) : 0;
  return { counts, deleted, failures, rules: ruleStats, placer, workers: pool?.size ?? 0, edge: edgeStats };
}

/** Results awaited at once from the render workers: enough to keep them busy, few enough to bound memory. */
const IN_FLIGHT = 512;
/** Writes in flight when the build renders in its own thread. */
const IN_PROCESS = 32;

function jobOf(file: PlannedFile, before: ManifestEntry | null): RenderJob {
  const { path: urlPath, query } = file.request;
  return {
    file: file.file,
    route: file.route.name,
    path: urlPath,
    rawQuery: formatQuery(Object.fromEntries(query)).slice(1),
    params: file.resolved.params,
    query: file.resolved.query,
    key: file.resolved.key!,
    before: before && { etag: before.etag, bytes: before.bytes },
  };
}

/**
 * Render workers when they are worth starting (`workers`, default: one per core) and can be: a
 * build that writes through an injected file system renders in its own thread.
 */
async function startPool(
  store: StoreReader,
  release: string,
  previous: string | null,
  reuse: boolean,
  clock: Clock,
  opts: BuildOptions,
): Promise<RenderPool | null> {
  const workers = opts.workers ?? os.availableParallelism();
  if (workers < 1 || opts.fs) return null;
  const setup = { db: store.db.name, release, previous, reuse, clock: clock().toISOString() };
  return RenderPool.start(workers, setup, storeState(store));
}

/** A route without `reads` is rendered every time: nothing says what it depends on. */
const readsOf = (file: PlannedFile) => file.route.reads?.(file.prerender) ?? [topic.everything];
