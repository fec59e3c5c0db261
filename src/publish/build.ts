/**
 * `fds build`: pre-render every enumerable response into a new release, generate the CDN rules
 * and headers, and publish atomically (release.ts). Incremental: files whose bytes did not change
 * are hard-linked from the published release, and a build that changes nothing publishes nothing.
 * Memory stays flat: the plan streams from the store, bodies are held only while in flight, and
 * rule candidates are spooled to disk — all but the edge router's index (edge.ts), a short line per
 * request, which ships whole in the function anyway. The function the fallback may be is measured
 * first (function-size.ts): a build whose fallback could not deploy fails before any work.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { formatQuery } from '../api/query.js';
import { render } from '../api/render.js';
import { ROUTES } from '../api/routes.js';
import type { StoreReader } from '../store/read/reader.js';
import type { Clock } from '../util/time.js';
import type { OutputFs } from '../util/lines.js';
import { LineWriter } from '../util/lines.js';
import { countManifest, manifestLine } from './manifest.js';
import { FilePlacer } from './place.js';
import { PreviousManifest } from './previous.js';
import { buildPlan, formUrl } from './plan.js';
import type { PlannedFile } from './plan.js';
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
  /** Files being compared and written at once. */
  concurrency?: number;
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
  files: number;
  bytes: number;
  added: number;
  changed: number;
  unchanged: number;
  deleted: number;
  failed: number;
  failures: string[];
  rules: RuleStats;
  router: Router;
  /** Pre-rendered requests the CDN reaches from files, in their shortest spelling; and of the hot set. */
  reach: ReachCount;
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

const AUX_FILES = ['_redirects', '_headers', MANIFEST_FILE];
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
  const concurrency = opts.concurrency ?? 16;
  const fs = opts.fs ?? nodeFs;
  const layout = releaseLayout(opts.out, fs);
  const unlock = acquireLock(layout);
  let temp: string | null = null;
  try {
    cleanStale(layout);
    const previous = currentRelease(layout.out, fs);
    const previousFiles = previous ? await countManifest(path.join(previous, MANIFEST_FILE)) : 0;
    temp = createTempRelease(layout);
    const placer = new FilePlacer(temp, previous, !opts.full, fs);
    const known = new PreviousManifest(previous && path.join(previous, MANIFEST_FILE));
    const store = opts.store;
    const clock = opts.clock ?? snapshotClock(store);
    const rules = new RulePlanner(`${temp}-rules`, budget, fallback, new ReachPolicy(store, clock()), router, fs);
    const edge = router === 'edge' ? new EdgeIndex() : null;
    const manifest = new LineWriter(path.join(temp, MANIFEST_FILE), fs);
    const counts = { files: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, failed: 0 };
    const failures: string[] = [];
    const fail = (message: string) => {
      counts.failed++;
      if (failures.length < MAX_REPORTED_FAILURES) failures.push(message);
      opts.onFile?.(true);
    };

    try {
      // One read transaction for the whole enumeration: every file comes from one state of the
      // store even if a sync commits meanwhile (and the render core joins this transaction).
      store.db.exec('BEGIN');
      const limit = pLimit(concurrency);
      const inflight = new Set<Promise<void>>();
      let planned = 0;
      opts.onPlanned?.(previousFiles);
      try {
        for (const file of buildPlan(store)) {
          if (++planned > previousFiles) opts.onPlanned?.(1);
          const body = renderFile(file, store, clock, fail);
          if (!body) continue;
          counts.files++;
          counts.bytes += body.body.length;
          manifest.write(
            manifestLine({
              file: file.file,
              request: formUrl(file.request),
              aliases: file.aliases.map(formUrl),
              keys: file.keys,
              status: body.status,
              etag: body.etag,
              cacheControl: body.cacheControl,
              contentType: body.contentType,
              bytes: body.body.length,
            }),
          );
          rules.add(file, body);
          edge?.add(file);
          const before = known.find(file.file);
          const task: Promise<void> = limit(() => placer.place(file.file, body.body, body.etag, before)).then(
            (placed) => {
              counts[placed]++;
              opts.onFile?.(false);
            },
            (err: unknown) => fail(`${file.file}: ${err instanceof Error ? err.message : String(err)}`),
          );
          inflight.add(task);
          void task.finally(() => inflight.delete(task));
          // Backpressure: never hold more than a couple of windows of bodies in memory.
          while (inflight.size >= concurrency * 2) await Promise.race(inflight);
        }
      } finally {
        // Whatever happened, no write may still be running when the temporary release is removed.
        await Promise.allSettled(inflight);
      }
      store.db.exec('COMMIT');
    } finally {
      if (store.db.inTransaction) store.db.exec('ROLLBACK');
      manifest.close();
      rules.close();
      known.close();
    }
    const ruleStats = rules.finish(temp);
    const edgeStats = edge ? await writeRouter(temp, edge, fs) : null;
    if (counts.failed) {
      throw new BuildError(
        `${counts.failed} of ${counts.files + counts.failed} pre-rendered responses failed; nothing was published`,
        failures,
      );
    }

    const deleted = previous ? Math.max(0, previousFiles - counts.unchanged - counts.changed) : 0;
    const auxSame = (edge ? EDGE_AUX_FILES : AUX_FILES).map((f) => placer.keepIfSame(f)).every(Boolean);
    const nothingChanged = !!previous && !opts.full && counts.added + counts.changed + deleted === 0 && auxSame;
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
      ...counts,
      deleted,
      failures,
      rules: ruleStats,
      router,
      // The edge router reaches every pre-rendered request; the rules, those they hold.
      reach: edge
        ? { ...ruleStats.reach, reached: ruleStats.reach.requests, hotReached: ruleStats.reach.hot }
        : ruleStats.reach,
      edge: edgeStats,
      functionSize,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (temp) {
      fs.rmSync(temp, { recursive: true, force: true });
      fs.rmSync(`${temp}-rules`, { recursive: true, force: true });
    }
    unlock();
  }
}

interface Rendered {
  status: number;
  body: Buffer;
  etag: string;
  cacheControl: string;
  contentType: string;
}

function renderFile(file: PlannedFile, store: StoreReader, clock: Clock, fail: (m: string) => void): Rendered | null {
  const { path: urlPath, query } = file.request;
  const req = { method: 'GET', path: urlPath, rawQuery: formatQuery(Object.fromEntries(query)).slice(1), headers: {} };
  const res = render(req, { store, clock }, { kind: 'resolved', route: file.route, request: file.resolved });
  const { ETag: etag, 'Cache-Control': cacheControl, 'Content-Type': contentType } = res.headers;
  if (res.status !== 200 || !etag || !cacheControl || !contentType) {
    fail(`${formUrl(file.request)}: rendered ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
    return null;
  }
  return { status: res.status, body: res.body, etag, cacheControl, contentType };
}
