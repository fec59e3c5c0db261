/**
 * Filling a build's temporary release: every planned file rendered (in this thread or by the render
 * workers) or carried over from the published release, in plan order, with the manifest, the rules,
 * the edge router and build.json beside them.
 */
import path from 'node:path';
import type { StoreReader } from '../store/read/reader.js';
import type { Clock } from '../util/time.js';
import type { OutputFs } from '../util/lines.js';
import { LineWriter, countLines } from '../util/lines.js';
import type { BuildInfo } from '../release/build-info.js';
import { BUILD_INFO_FILE, buildInfoJson } from '../release/build-info.js';
import type { BuildScope } from './scope.js';
import { affected, topic } from '../api/reads.js';
import { routePath } from '../api/route.js';
import { FilePlacer, inThread } from './place.js';
import { PreviousManifest, parsePrevious } from './previous.js';
import { FileDigest, SegmentKeys } from './spool-segments.js';
import { RangeWriter, readRanges } from './manifest-ranges.js';
import { SpoolSegments } from './spool-reader.js';
import { planEntries, planOf } from './plan.js';
import type { PlanGroup, PlanItem } from './plan.js';
import type { RenderJob } from './render-job.js';
import { jobOf, runJob } from './render-job.js';
import { POOL_AFTER, launchPool } from './render-pool.js';
import type { SpareCopy } from './spare.js';
import os from 'node:os';
import { MANIFEST_FILE, carryDir } from '../release/layout.js';
import { RulePlanner } from './rules.js';
import type { Router } from './rule-settings.js';
import { copyAssets } from '../frontdoor/assets.js';
import { ReachPolicy } from './reach.js';
import { EdgeIndex, writeRouter } from '../netlify/edge/bundle.js';
import type { BuildOptions } from './build.js';
import type { Recycler } from './recycle.js';
import { lineageBase } from './recycle.js';
import type { Run } from './carried-file.js';
import { ReleaseRecord } from './release-record.js';
import { KeptParts } from './kept.js';
import { InOrder, windowFor } from './in-order.js';
import { uses } from '../util/switches.js';

export class BuildError extends Error {
  constructor(
    message: string,
    readonly failures: string[] = [],
  ) {
    super(message);
  }
}

/** Responses rendered for files must not depend on the time of the build: the clock is the store's. */
export function snapshotClock(store: StoreReader): Clock {
  const at = new Date(store.meta().snapshotAt ?? 0);
  return () => at;
}

/** Fill the temporary release: every planned file rendered or carried over, the manifest, the rules. */
export async function writeRelease(
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
  recycler: Recycler | null,
  spare: SpareCopy | null = null,
) {
  // One file per line, counted without reading the lines — only for whoever shows progress: the
  // count reads the whole manifest (45 MB at demo scale 4) before the build starts, and what the
  // build itself needs of it, how many files went, the in-step reading counts anyway.
  const previousFiles = previous && opts.onPlanned ? countLines(path.join(previous, MANIFEST_FILE)) : 0;
  const reuse = !opts.full;
  // The files this thread renders are written in it, as a render worker writes its own (place.ts
  // `inThread`): handed to the one libuv thread bin/fds.js gives a small build, they kept this thread
  // waiting (the day step at demo scale 4: ~80 ms idle of ~0.9 s; ~0.06 s less, 11 interleaved pairs, twice).
  const placer = new FilePlacer(temp, previous, reuse, inThread(fs), recycler?.start ?? 'empty', spare?.dir ?? null);
  /**
   * Files given a new inode rather than the published one's: the new release's lineage (recycle.ts).
   * A lineage without a base lists none, so a full build does not hold every file's name (10 MB of
   * the build's heap at demo scale 4).
   */
  const rewritten: string[] = [];
  const listed = lineageBase(previous, opts.full) !== null;
  // What the published release has that this build does not: the files its manifest offered that
  // the plan passed by, less those the plan still had (`placedLate`: found too far out of step).
  const vanished = new Set<string>();
  const placedLate = new Set<string>();
  const known = new PreviousManifest(previous && path.join(previous, MANIFEST_FILE), undefined, (file) =>
    vanished.add(file),
  );
  const clock = opts.clock ?? snapshotClock(store);
  const rules = new RulePlanner(`${temp}-rules`, budget, fallback, new ReachPolicy(store, clock()), router, fs);
  const edge = router === 'edge' ? new EdgeIndex() : null;
  // Written in the background while the build goes on; whole once `done()` says so.
  const manifest = new LineWriter(path.join(temp, MANIFEST_FILE), fs, true);
  const ranges = new RangeWriter(manifest);
  // Render workers, started at once in the background: renders wait for them, the plan does not.
  // A full build, or one of as many changes, uses one per core. An incremental build of more than a
  // few changes uses one: this thread has the plan to walk, and renders too whenever it would wait.
  const many = scope.kind === 'full' || (scope.kind === 'changes' && scope.changes > POOL_AFTER);
  const some = uses('day-worker') && scope.kind === 'changes' && scope.changes >= (opts.workerAfter ?? WORKER_AFTER);
  const local = (job: RenderJob) => runJob(job, store, clock, placer);
  const size = many ? os.availableParallelism() : some ? 1 : 0;
  const where = { release: temp, previous, reuse, start: recycler?.start ?? 'empty', spare: spare?.dir ?? null };
  const pool = size ? launchPool(store, where, clock, opts, { size, takeOver: !many }, local) : null;
  // A file no change touched keeps its published manifest line and rule candidates (rules.carry):
  // it is not planned again unless they cannot be carried over. A segment of the spool whose files
  // all are untouched is linked whole (spool-segments.ts).
  const spool =
    uses('spool-segments') && scope.kind === 'changes' && previous ? new SpoolSegments(carryDir(previous)) : null;
  const segmentKeys = new SegmentKeys();
  // A segment of untouched match groups whose files all stand as published is carried over whole:
  // its manifest lines as bytes, its spool segment linked (manifest-ranges.ts).
  const published =
    uses('manifest-ranges') && spool && !edge && placer.inPlace ? readRanges(carryDir(previous!)) : null;
  const record = new ReleaseRecord(manifest, ranges, rules, edge, opts, scope);
  // Parts of responses rendered again that the published files hold as they stand (kept.ts).
  const kept = uses('kept-parts') && scope.kind === 'changes' && previous ? new KeptParts(store, scope, placer) : null;
  const { counts, failures } = record;
  // Results are taken in plan order, so the manifest and rules do not depend on who rendered what.
  const window = windowFor(pool, many);
  const spoolDir = spool?.dir ?? null;
  const order = new InOrder({
    record,
    rules,
    ranges,
    spoolDir,
    local,
    pool,
    window,
    rewritten: listed ? rewritten : null,
  });
  // A group of requests nothing it reads changed (a match untouched by the sync) is carried over as
  // the published manifest lists it, without planning its files. Not with the edge router, which
  // plans every file for its index.
  const unaffected = (group: PlanGroup) =>
    scope.kind === 'changes' &&
    !!group.route.groupReads &&
    !affected(group.route.groupReads(group.params), scope.topics);
  const carriedGroup = (group: PlanGroup, at: string | null) =>
    uses('carried-groups') && !edge && unaffected(group)
      ? known.takeRequestsAt(at ?? routePath(group.route, group.params))
      : null;
  const pushRun = async (group: PlanGroup, run: Run, segment: string, linking: boolean) => {
    for (const [file, line] of run) {
      const rec = recycler?.claim(file, line) ?? null;
      const spooled = linking ? null : (spool?.take(segment, file) ?? null);
      const linked = placer.standsAsIs(rec) || placer.keep(file, rec);
      order.add({ file, item: null, group, line, spooled, linked, rec, segment, linking });
      if (order.full) await order.drain();
    }
  };
  // The carried groups of the open segment, held back while it may still be linked whole: until it
  // ends, or until one of its files has to be planned or does not stand as the published one (recycle.ts:
  // a file of a linked segment can never have to be rendered after all).
  let open = null as {
    key: string;
    runs: Array<[PlanGroup, Run]>;
    digest: FileDigest;
    whole: boolean;
    /** The segment's match groups (groupId); those held back (with their request paths, if known) while it may be carried over whole. */
    groups: FileDigest;
    held: Array<[PlanGroup, string | null]>;
    quick: boolean;
  } | null;
  const flushOpen = async () => {
    if (!open?.runs.length) return;
    const { key, runs, digest } = open;
    open.runs = [];
    const summary = open.whole ? spool?.intact(key) : null;
    const linking = !!summary?.carriable && summary.files === digest.files && summary.digest === digest.digest();
    for (const [group, run] of runs) await pushRun(group, run, key, linking);
    if (linking) order.add({ link: summary });
  };
  const standsAsIs = ([file, line]: [string, string]) => placer.standsAsIs(recycler?.claim(file, line) ?? null);
  let planned = 0;
  const plannedMore = (n: number) => {
    const before = planned;
    planned += n;
    if (planned > previousFiles) opts.onPlanned?.(planned - Math.max(before, previousFiles));
  };
  /** Plan an entry of the open segment file by file (carried over, or rendered); `at`: a group's request path, if known. */
  const planEntry = async (entry: PlanItem | PlanGroup, at: string | null) => {
    const group = 'items' in entry ? entry : null;
    const segment = open!.key;
    const run = group && carriedGroup(group, at);
    if (run) plannedMore(run.length);
    if (run && open!.whole && run.every(standsAsIs)) {
      for (const [file] of run) open!.digest.add(file);
      open!.runs.push([group, run]);
      return;
    }
    // The segment cannot be linked whole: its candidates are spooled anew, file by file.
    open!.whole = false;
    await flushOpen();
    if (run) return pushRun(group, run, segment, false);
    for (const item of group ? group.items() : [entry as PlanItem]) {
      plannedMore(1);
      // Each of these is read in step with the plan, so each is asked about every file.
      const line = known.findLine(item.file);
      if (line === null && previous) placedLate.add(item.file);
      const rec = recycler?.claim(item.file, line) ?? null;
      if (line !== null && scope.kind === 'changes' && !affected(readsOf(item), scope.topics)) {
        const spooled = spool?.take(segment, item.file) ?? null;
        const linked = placer.standsAsIs(rec) || placer.keep(item.file, rec);
        order.add({ file: item.file, item, group: null, line, spooled, linked, rec, segment, linking: false });
      } else {
        const file = planOf(item);
        counts.rendered++;
        const before = line === null ? null : parsePrevious(line);
        const job = jobOf(file, before, rec, before && kept ? kept.of(file, before) : null);
        const result = pool ? pool.run(job) : local(job);
        order.add({ file, result, segment });
      }
      if (order.full) await order.drain();
    }
  };
  /** The held groups, planned file by file after all. */
  const planHeld = async () => {
    const held = open!.held;
    open!.quick = false;
    open!.held = [];
    for (const [group, at] of held) await planEntry(group, at);
  };
  const closeSegment = async () => {
    if (!open) return;
    const { key, held, groups } = open;
    const digest = groups.files ? groups.digest() : null;
    if (open.quick && held.length) {
      const range = published?.get(key);
      const summary = range?.groups === digest && range.count === held.length ? spool!.intact(key) : null;
      const lines = range && summary?.carriable ? known.skip(range.at, range.to, range.files) : null;
      if (lines) {
        plannedMore(range!.files);
        order.add({ lines, range: range!, summary: summary! });
        if (order.full) await order.drain();
        return;
      }
      await planHeld();
    }
    await flushOpen();
    order.add({ end: key, groups: digest, count: groups.files });
  };
  try {
    opts.onPlanned?.(previousFiles);
    for (const entry of planEntries(store)) {
      const group = 'items' in entry ? entry : null;
      const league = group ? group.params.league : (entry as PlanItem).prerender.params.league;
      const segment = segmentKeys.keyOf(entry.route.name, league, !!group);
      if (open?.key !== segment) {
        await closeSegment();
        const [runs, held] = [[], []];
        const [digest, groups] = [new FileDigest(), new FileDigest()];
        open = { key: segment, runs, digest, whole: !!spool, groups, held, quick: !!published };
      }
      if (group) open.groups.add(groupId(group.params));
      let at: string | null = null;
      if (open.quick && group && unaffected(group)) {
        // Its request path only where staleness is asked of it (not for every match of every build).
        at = recycler!.allStand ? null : routePath(group.route, group.params);
        if (at === null || recycler!.stands(at)) {
          open.held.push([group, at]);
          continue;
        }
      }
      if (open.quick) await planHeld();
      await planEntry(entry, at);
    }
    await closeSegment();
    await order.settle(0);
    known.drain();
  } finally {
    await pool?.close();
    // Nothing is done with the tree, nor is it removed, while a copy is still linking into it.
    await recycler?.ready.catch(() => {});
    manifest.close();
    rules.close();
    known.close();
  }
  // What the recycled release held that this build does not have (the rest is the build's now).
  if (!counts.failed) recycler?.finish(vanished, placedLate);
  const removed = [...vanished].filter((file) => !placedLate.has(file));
  const recycled = (await recycler?.ready) ?? [];
  if (listed) rewritten.push(...placer.copied, ...recycled);
  // The assets first: the rules reach the files the release holds.
  copyAssets(temp);
  if (placer.spareLost || pool?.spareLost) spare?.lose();
  const ruleStats = rules.finish(temp, carryDir(temp));
  ranges.finish(carryDir(temp), fs);
  await Promise.all([manifest.done(), rules.spooled()]);
  const edgeStats = edge ? await writeRouter(temp, edge, fs) : null;
  if (counts.failed) {
    throw new BuildError(
      `${counts.failed} of ${counts.files + counts.failed} pre-rendered responses failed; nothing was published`,
      failures,
    );
  }
  fs.writeFileSync(path.join(temp, BUILD_INFO_FILE), buildInfoJson(info));
  const deleted = previous ? Math.max(0, known.files - counts.unchanged - counts.changed) : 0;
  const workers = pool?.size ?? 0;
  return { counts, deleted, failures, rules: ruleStats, placer, workers, edge: edgeStats, rewritten, removed };
}

/**
 * Changes from which an incremental build renders in a worker beside its own thread. The day step
 * at demo scale 4 (629 changes, 806 renders): 1.04 s against 1.12 s in its own thread (medians of 11
 * interleaved runs, process start included); the worker takes ~0.25 s of CPU to start. A minute of a
 * live matchday changes a few dozen records.
 */
export const WORKER_AFTER = 256;

/** A match group's identity within its segment, whose key names the route and league: its path parameters. */
function groupId(params: Readonly<Record<string, string>>): string {
  let id = '';
  for (const name in params) id += `${params[name]}/`;
  return id;
}

/** A route without `reads` is rendered every time: nothing says what it depends on. */
const readsOf = (item: PlanItem) => item.route.reads?.(item.prerender) ?? [topic.everything];
