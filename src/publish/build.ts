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
import { ROUTES } from '../app/routes.js';
import type { StoreReader } from '../store/read/reader.js';
import { smallPageCache } from '../store/db.js';
import type { Clock } from '../util/time.js';
import type { OutputFs } from '../util/lines.js';
import { countManifest } from '../release/manifest.js';
import { writeRelease } from './write-release.js';

export { BuildError, snapshotClock } from './write-release.js';
import type { BuildInfo } from '../release/build-info.js';
import { BUILD_INFO_FILE, codeVersion, readBuildInfo } from '../release/build-info.js';
import { buildScope } from './scope.js';
import { MANIFEST_FILE, carryDir, currentRelease, releaseLayout } from '../release/layout.js';
import {
  acquireLock,
  cleanStale,
  createTempRelease,
  publish,
  pruneReleases,
  tempReleasePath,
} from './atomic/releases.js';
import type { ReleaseLayout } from '../release/layout.js';
import { Recycler, discardedFiles, lineageBase, writeLineage } from './recycle.js';
import { SpareCopy } from './spare.js';
import type { BuildScope } from './scope.js';
import { DEFAULT_FALLBACK, DEFAULT_RULE_BUDGET, checkBudget, checkFallback, isFunction } from './rule-settings.js';
import type { RuleStats } from './rules.js';
import type { Router } from './rule-settings.js';
import { assetReleasePaths, assetsVersion } from '../frontdoor/assets.js';
import type { ReachCount } from './reach.js';
import type { EdgeBundleStats } from '../netlify/edge/bundle.js';
import { EDGE_FILE } from '../netlify/edge/bundle.js';
import type { FunctionSize } from '../netlify/function-size.js';
import { checkFunctionFits, functionBundleSize } from '../netlify/function-size.js';
import { uses } from '../util/switches.js';

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
  /** Render threads at most (default: one per core; 0 renders in the build's own thread). */
  workers?: number;
  /** Changes from which an incremental build renders in one worker beside its own thread (default WORKER_AFTER). */
  workerAfter?: number;
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
  /** Of those, how many spliced in a part the published file holds (kept.ts). */
  kept: number;
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

/** Files beside the rendered ones; the front door's assets are copies of installed files. */
const AUX_FILES = ['_redirects', '_headers', MANIFEST_FILE, BUILD_INFO_FILE, ...assetReleasePaths()];
const EDGE_AUX_FILES = [...AUX_FILES, EDGE_FILE];
/**
 * What a tree a build starts from must not hold: the files a build writes anew, whichever router
 * made the tree (a build with literal rules may take over a release the edge router made).
 */
const WRITTEN_ANEW = EDGE_AUX_FILES;

/**
 * The tree a build that reuses the published release starts from (recycle.ts): the release pruning
 * would delete next, or else the spare a full build left (spare.ts), brought up to date; else, when
 * the build only carries unchanged files over, a copy of the published release; else nothing.
 */
function takeTree(layout: ReleaseLayout, previous: string, scope: BuildScope, keep: number): Recycler | null {
  const temp = tempReleasePath(layout);
  return (
    (uses('recycle') ? Recycler.take(layout, previous, keep, temp, WRITTEN_ANEW) : null) ??
    (uses('spare') ? Recycler.takeSpare(layout, previous, temp) : null) ??
    (uses('link-tree') && scope.kind === 'changes' ? Recycler.copy(layout, previous, temp, WRITTEN_ANEW) : null)
  );
}

type ScopeOptions = Pick<BuildOptions, 'store' | 'out' | 'full' | 'fallback' | 'ruleBudget' | 'router'>;

/** What the output depends on besides the code and the store (checked: bad settings fail here). */
function settingsOf(opts: ScopeOptions) {
  const fallback = checkFallback(opts.fallback ?? DEFAULT_FALLBACK);
  const ruleBudget = checkBudget(opts.ruleBudget ?? DEFAULT_RULE_BUDGET, ROUTES);
  return { fallback, ruleBudget, router: opts.router ?? 'rules', assets: assetsVersion() };
}

function scopeFor(store: StoreReader, previous: string | null, settings: BuildInfo['settings'], full: boolean) {
  const info: BuildInfo = { code: codeVersion(), snapshot: store.snapshots.current(), settings };
  const before = readBuildInfo(previous);
  const same = JSON.stringify(before?.settings) === JSON.stringify(settings);
  return { info, scope: buildScope(store, before, info, full, same) };
}

/**
 * What a build with these options would render if it started now, decided as the build decides
 * it: `fds build` asks first, to give a build that renders much a bounded heap (cli/build-heap.ts).
 */
export function predictScope(opts: ScopeOptions): BuildScope {
  return scopeFor(opts.store, currentRelease(opts.out), settingsOf(opts), !!opts.full).scope;
}

export async function build(opts: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const settings = settingsOf(opts);
  const { fallback, ruleBudget: budget, router } = settings;
  // Before any work: a function that cannot deploy makes the whole build pointless.
  const functionSize = isFunction(fallback) ? functionBundleSize(opts.store.db.name) : null;
  if (functionSize) checkFunctionFits(functionSize, fallback);
  const fs = opts.fs ?? nodeFs;
  const layout = releaseLayout(opts.out, fs);
  const unlock = acquireLock(layout);
  let temp: string | null = null;
  let spare: SpareCopy | null = null;
  try {
    cleanStale(layout);
    const previous = currentRelease(layout.out, fs);
    const store = opts.store;
    // One read transaction for the whole build: every file comes from one state of the store even
    // if a sync commits meanwhile (and the render core joins this transaction).
    store.begin();
    // Its own reads are a build's too (render-worker.ts): ~8 MB less at the peak at demo scale 4.
    const restoreCache = smallPageCache(store.db);
    try {
      const { info, scope } = scopeFor(store, previous, settings, !!opts.full);
      if (scope.kind === 'none' && previous) {
        const { files, bytes } = countManifest(path.join(previous, MANIFEST_FILE));
        return {
          release: previous,
          published: false,
          mode: 'unchanged',
          reason: null,
          rendered: 0,
          kept: 0,
          workers: 0,
          files,
          bytes,
          ...{ added: 0, changed: 0, unchanged: files, deleted: 0, failed: 0, failures: [], rules: null },
          ...{ router, reach: null, edge: null, functionSize },
          seconds: (performance.now() - started) / 1000,
        };
      }
      const keep = opts.keepReleases ?? 2;
      const aux = router === 'edge' ? EDGE_AUX_FILES : AUX_FILES;
      const recycler = previous && !opts.full ? takeTree(layout, previous, scope, keep) : null;
      temp = recycler?.dir ?? createTempRelease(layout);
      // Made from nothing: the next build would have no tree to start from but a copy of this one.
      spare = recycler || !uses('spare') ? null : new SpareCopy(layout);
      const written = await writeRelease(
        store,
        temp,
        previous,
        scope,
        info,
        fallback,
        budget,
        router,
        opts,
        fs,
        recycler,
        spare,
      );
      const auxSame = aux.map((f) => written.placer.keepIfSame(f)).every(Boolean);
      const { counts } = written;
      const nothingChanged =
        !!previous && !opts.full && counts.added + counts.changed + written.deleted === 0 && auxSame;
      let release: string;
      if (nothingChanged) {
        spare?.discard();
        spare = null;
        if (recycler) await recycler.giveBack();
        else fs.rmSync(temp, { recursive: true, force: true });
        fs.rmSync(carryDir(temp), { recursive: true, force: true });
        release = previous;
      } else {
        release = publish(layout, temp);
        fs.rmSync(carryDir(release), { recursive: true, force: true });
        fs.renameSync(carryDir(temp), carryDir(release));
        const base = lineageBase(previous, opts.full);
        writeLineage(release, { base, written: written.rewritten, removed: base ? written.removed : [] }, fs);
        recycler?.published();
        pruneReleases(layout, keep);
        spare?.keep(release);
        spare = null;
      }
      await recycler?.discarded;
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
      restoreCache();
    }
  } finally {
    spare?.discard();
    if (temp) {
      fs.rmSync(temp, { recursive: true, force: true });
      fs.rmSync(`${temp}-rules`, { recursive: true, force: true });
      for (const file of Object.values(discardedFiles(temp))) fs.rmSync(file, { force: true });
      fs.rmSync(carryDir(temp), { recursive: true, force: true });
    }
    unlock();
  }
}
