/**
 * Filling a build's temporary release: every planned file rendered (in this thread or by the render
 * workers) or carried over from the published release, in plan order, with the manifest, the rules,
 * the target's own files and build.json beside them. `writeRelease` reads as its steps: open what the
 * build writes, walk the plan segment by segment, settle what is under way, finish the files beside.
 */
import os from 'node:os';
import path from 'node:path';
import { affected, topic } from '../api/reads.js';
import { routePath } from '../api/route.js';
import { copyAssets } from '../frontdoor/assets.js';
import { BUILD_INFO_FILE, buildInfoJson } from '../release/build-info.js';
import { MANIFEST_FILE, carryDir } from '../release/layout.js';
import { LineWriter, countLines } from '../util/lines.js';
import { engaged, uses } from '../util/switches.js';
import { InOrder, windowFor } from './in-order.js';
import { RangeWriter, readRanges } from './reuse/manifest-ranges.js';
import { SegmentCarry } from './reuse/segment-carry.js';
import type { BuildContext } from './options.js';
import { FilePlacer, inThread } from './place/place.js';
import { planEntries, planOf } from './plan/plan.js';
import type { PlanGroup, PlanItem } from './plan/plan.js';
import { PreviousManifest, parsePrevious } from './reuse/previous.js';
import { ReachPolicy } from './plan/reach.js';
import { lineageBase } from './reuse/recycle.js';
import { ReleaseRecord } from './place/release-record.js';
import type { RenderJob } from './render/render-job.js';
import { jobOf, runJob } from './render/render-job.js';
import { POOL_AFTER, launchPool } from './render/render-pool.js';
import { RulePlanner } from './rules/rules.js';
import { SpoolSegments } from './rules/spool-reader.js';
import type { FileIndex } from './target.js';
import { FileDigest, SegmentKeys } from './rules/spool-segments.js';
import { snapshotClock } from './snapshot-clock.js';

export class BuildError extends Error {
  constructor(
    message: string,
    readonly failures: string[] = [],
  ) {
    super(message);
  }
}

/**
 * Changes from which an incremental build renders in one worker beside its own thread: below it,
 * the worker's start-up costs more than it renders (docs/performance.md, "day-worker").
 */
export const WORKER_AFTER = 256;

/** Fill the temporary release: every planned file rendered or carried over, the manifest, the rules. */
export async function writeRelease(ctx: BuildContext) {
  const w = new ReleaseWriter(ctx);
  try {
    await w.walkPlan();
  } finally {
    await w.close();
  }
  return w.finish();
}

/** The segment of the plan being walked (spool-segments.ts: one route's files of one league). */
interface OpenSegment {
  key: string;
  /** Its match groups' identities, digested: the next build carries its range over only for the same groups. */
  groups: FileDigest;
}

/** One build's writing: what it writes to, what it reuses, and the steps that walk the plan. */
class ReleaseWriter {
  private readonly placer: FilePlacer;
  private readonly known: PreviousManifest;
  private readonly rules: RulePlanner;
  /** The target's index of every planned file, if it keeps one (the edge router's). */
  private readonly index: FileIndex | null;
  private readonly manifest: LineWriter;
  private readonly ranges: RangeWriter;
  private readonly pool: ReturnType<typeof launchPool> | null;
  private readonly spool: SpoolSegments | null;
  /** Whole segments carried over (segment-carry.ts), when the published build's ranges allow it. */
  private readonly carry: SegmentCarry | null;
  private readonly record: ReleaseRecord;
  private readonly order: InOrder;
  private readonly local: (job: RenderJob) => ReturnType<typeof runJob>;
  /** Files given a new inode rather than the published one's: the new release's lineage (recycle.ts). */
  private readonly rewritten: string[] = [];
  /** A lineage without a base lists none, so a full build does not hold every file's name. */
  private readonly listed: boolean;
  /** What the published release has that the plan passed by (`vanished`), less what it still had, found late. */
  private readonly vanished = new Set<string>();
  private readonly placedLate = new Set<string>();
  private readonly segmentKeys = new SegmentKeys();
  private open: OpenSegment | null = null;
  /** Progress: files planned, told only past the count the published release had (told up front). */
  private planned = 0;
  private readonly previousFiles: number;

  constructor(private readonly ctx: BuildContext) {
    const { store, temp, previous, scope, opts, fs, recycler } = ctx;
    // One file per line, counted without reading the lines; only for whoever shows progress.
    this.previousFiles = previous && opts.onPlanned ? countLines(path.join(previous, MANIFEST_FILE)) : 0;
    const start = recycler?.start ?? 'empty';
    // The files this thread renders are written in it, as a render worker writes its own (place.ts `inThread`).
    this.placer = new FilePlacer(temp, previous, !opts.full, inThread(fs), start);
    this.listed = lineageBase(previous, opts.full) !== null;
    this.known = new PreviousManifest(previous && path.join(previous, MANIFEST_FILE), undefined, (file) =>
      this.vanished.add(file),
    );
    const clock = opts.clock ?? snapshotClock(store);
    const reach = new ReachPolicy(store, clock());
    this.rules = new RulePlanner(`${temp}-rules`, ctx.settings, reach, ctx.opts.target.rules, fs);
    this.index = ctx.target.index;
    // Written in the background while the build goes on; whole once `done()` says so.
    this.manifest = new LineWriter(path.join(temp, MANIFEST_FILE), fs, true);
    this.ranges = new RangeWriter(this.manifest);
    this.local = (job: RenderJob) => runJob(job, store, clock, this.placer);
    // Render workers, started at once in the background: renders wait for them, the plan does not.
    // A full build, or one of as many changes, uses one per core. An incremental build of more than
    // a few changes uses one: this thread has the plan to walk, and renders too whenever it would wait.
    const many = scope.kind === 'full' || (scope.kind === 'changes' && scope.changes > POOL_AFTER);
    const some = uses('day-worker') && scope.kind === 'changes' && scope.changes >= (opts.workerAfter ?? WORKER_AFTER);
    const size = many ? os.availableParallelism() : some ? 1 : 0;
    const where = { release: temp, previous, reuse: !opts.full, start };
    this.pool = size ? launchPool(store, where, clock, opts, { size, takeOver: !many }, this.local) : null;
    if (this.pool && !many) engaged('day-worker');
    // A file no change touched keeps its published manifest line and rule candidates (rules.carry);
    // a segment whose files all stand as published is carried over whole: its manifest lines as
    // bytes, its spool segment linked (spool-segments.ts, manifest-ranges.ts).
    this.spool =
      uses('spool-segments') && scope.kind === 'changes' && previous ? new SpoolSegments(carryDir(previous)) : null;
    this.carry =
      uses('manifest-ranges') && this.spool && !this.index && this.placer.inPlace
        ? new SegmentCarry(readRanges(carryDir(previous!)), this.spool, this.known, (group) => this.stands(group))
        : null;
    this.record = new ReleaseRecord(this.manifest, this.ranges, this.rules, this.index, opts, scope);
    // Results are taken in plan order, so the manifest and rules do not depend on who rendered what.
    this.order = new InOrder({
      record: this.record,
      rules: this.rules,
      ranges: this.ranges,
      spoolDir: this.spool?.dir ?? null,
      local: this.local,
      pool: this.pool,
      window: windowFor(this.pool, many),
      rewritten: this.listed ? this.rewritten : null,
    });
  }

  /** Step: every entry of the plan, in order, segment by segment; then what is under way, settled. */
  async walkPlan(): Promise<void> {
    const { store } = this.ctx;
    this.ctx.opts.onPlanned?.(this.previousFiles);
    for (const entry of planEntries(store)) {
      const group = 'items' in entry ? entry : null;
      const league = group ? group.params.league : (entry as PlanItem).prerender.params.league;
      const segment = this.segmentKeys.keyOf(entry.route.name, league, !!group);
      if (this.open?.key !== segment) {
        await this.closeSegment();
        this.open = { key: segment, groups: new FileDigest() };
        this.carry?.open();
      }
      if (group) this.open!.groups.add(groupId(group.params));
      if (this.carry?.hold(group)) continue;
      await this.planHeld();
      await this.planEntry(entry);
    }
    await this.closeSegment();
    await this.order.settle(0);
    this.known.drain();
  }

  /** Whether a group may wait for its segment's end: nothing it reads changed, and its files stand as published. */
  private stands(group: PlanGroup): boolean {
    const { scope, recycler } = this.ctx;
    if (scope.kind !== 'changes' || !group.route.groupReads) return false;
    if (affected(group.route.groupReads(group.params), scope.topics)) return false;
    return recycler!.allStand || recycler!.stands(routePath(group.route, group.params));
  }

  /** Step: an entry of the open segment, file by file: carried over if nothing it reads changed, else rendered. */
  private async planEntry(entry: PlanItem | PlanGroup): Promise<void> {
    const { scope, previous, recycler } = this.ctx;
    const { order, placer, known } = this;
    const segment = this.open!.key;
    for (const item of 'items' in entry ? entry.items() : [entry]) {
      this.plannedMore(1);
      const line = known.findLine(item.file);
      if (line === null && previous) this.placedLate.add(item.file);
      const rec = recycler?.claim(item.file, line) ?? null;
      if (line !== null && scope.kind === 'changes' && !affected(readsOf(item), scope.topics)) {
        const spooled = this.spool?.take(segment, item.file) ?? null;
        const linked = placer.standsAsIs(rec) || placer.carry(item.file, rec);
        order.add({ file: item.file, item, line, spooled, linked, rec, segment });
      } else {
        const file = planOf(item);
        this.record.counts.rendered++;
        const job = jobOf(file, line === null ? null : parsePrevious(line), rec);
        order.add({ file, result: this.pool ? this.pool.run(job) : this.local(job), segment });
      }
      if (order.full) await order.drain();
    }
  }

  /** The groups held back (segment-carry.ts), planned file by file after all. */
  private async planHeld(): Promise<void> {
    if (this.carry) for (const group of this.carry.letGo()) await this.planEntry(group);
  }

  /** Step: the open segment ends — carried over whole when the published build's range still holds, else planned. */
  private async closeSegment(): Promise<void> {
    const open = this.open;
    if (!open) return;
    const { key, groups } = open;
    const digest = groups.files ? groups.digest() : null;
    const whole = this.carry?.carry(key, digest);
    if (whole) {
      this.plannedMore(whole.range.files);
      this.order.add(whole);
      if (this.order.full) await this.order.drain();
      return;
    }
    await this.planHeld();
    this.order.add({ end: key, groups: digest, count: groups.files });
  }

  private plannedMore(n: number): void {
    const before = this.planned;
    this.planned += n;
    if (this.planned > this.previousFiles)
      this.ctx.opts.onPlanned?.(this.planned - Math.max(before, this.previousFiles));
  }

  /** Whatever happened: the workers stopped and what is being written closed. */
  async close(): Promise<void> {
    await this.pool?.close();
    this.manifest.close();
    this.rules.close();
    this.known.close();
  }

  /** Step: the files beside the rendered ones (assets, rules, ranges, manifest, the target's, build.json) and the counts. */
  async finish() {
    const { temp, previous, recycler, info, fs } = this.ctx;
    const { counts, failures } = this.record;
    // What the recycled release held that this build does not have (the rest is the build's now).
    if (!counts.failed) recycler?.finish(this.vanished, this.placedLate);
    const removed = [...this.vanished].filter((file) => !this.placedLate.has(file));
    const { changedTags } = this.record;
    for (const file of removed) changedTags.removed(file);
    if (this.listed) this.rewritten.push(...this.placer.copied);
    // The assets first: the rules reach the files the release holds.
    copyAssets(temp);
    const ruleStats = this.rules.finish(temp, carryDir(temp));
    this.ranges.finish(carryDir(temp), fs);
    await Promise.all([this.manifest.done(), this.rules.spooled()]);
    await this.ctx.target.finish?.(temp, fs);
    if (counts.failed) {
      throw new BuildError(
        `${counts.failed} of ${counts.files + counts.failed} pre-rendered responses failed; nothing was published`,
        failures,
      );
    }
    fs.writeFileSync(path.join(temp, BUILD_INFO_FILE), buildInfoJson(info));
    const deleted = previous ? Math.max(0, this.known.files - counts.unchanged - counts.changed) : 0;
    const workers = this.pool?.size ?? 0;
    const { placer, rewritten } = this;
    const changed = { counts, deleted, failures, rules: ruleStats, placer, workers };
    return { ...changed, rewritten, removed, changedTags: changedTags.list };
  }
}

/** A match group's identity within its segment, whose key names the route and league: its path parameters. */
function groupId(params: Readonly<Record<string, string>>): string {
  let id = '';
  for (const name in params) id += `${params[name]}/`;
  return id;
}

/** A route without `reads` is rendered every time: nothing says what it depends on. */
const readsOf = (item: PlanItem) => item.route.reads?.(item.prerender) ?? [topic.everything];
