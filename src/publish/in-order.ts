/**
 * What a build has under way, taken in plan order (write-release.ts plans, this records): files
 * rendered here or by the render workers, files carried over from the published release, segments
 * carried over whole (their manifest range and spool segment), and the end of each segment. Each is recorded
 * (place/release-record.ts) only once everything planned before it is, so the manifest and the rules do
 * not depend on who rendered what, nor on when a render finished.
 *
 * It stands beside write-release.ts, above render/ and place/: it hands renders to render/ and their
 * results to place/'s record. A render places its own bytes (render/ imports place/), so the conveyor
 * between them cannot live in place/ without a loop between the two rooms.
 */
import type { CarriedFile } from './reuse/carried-file.js';
import type { ManifestRange, RangeWriter } from './reuse/manifest-ranges.js';
import type { PlannedFile } from './plan/plan.js';
import { planOf } from './plan/plan.js';
import { parsePrevious } from './reuse/previous.js';
import type { ReleaseRecord } from './place/release-record.js';
import type { JobResult, RenderJob } from './render/render-job.js';
import { jobOf } from './render/render-job.js';
import type { RenderPool } from './render/render-pool.js';
import type { RulePlanner } from './rules/rules.js';
import type { SegmentSummary } from './rules/spool-segments.js';

export type Pending =
  | CarriedFile
  | { file: PlannedFile; result: Promise<JobResult>; segment: string }
  | { lines: Buffer; range: ManifestRange; summary: SegmentSummary }
  | { end: string; groups: string | null; count: number };

export interface InOrderDeps {
  record: ReleaseRecord;
  rules: RulePlanner;
  ranges: RangeWriter;
  /** The published spool, which segments carried over whole are linked from. */
  spoolDir: string | null;
  /** Renders in this thread: a file that could not be carried over after all. */
  local: (job: RenderJob) => Promise<JobResult>;
  pool: RenderPool | null;
  /** Results awaited at once: past it (`full`), the plan drains them to half of it (`drain`). */
  window: number;
  /** Where the files given a new inode are listed (the release's lineage, recycle.ts), if they are. */
  rewritten: string[] | null;
}

/** Results awaited at once from the render workers: enough to keep them busy, few enough to bound memory. */
const IN_FLIGHT = 512;
/**
 * Entries awaited at once while one worker renders beside this thread. The worker's bodies never
 * come here, so an entry is a manifest line or a result's headers; a smaller window kept the plan
 * waiting on a render while carried files piled up behind it.
 */
const BESIDE_WORKER = 16_384;
/** Results awaited at once when the build renders in its own thread. */
const IN_PROCESS = 32;

/** Results awaited at once, by who renders: a bounded window of them, and so of bodies in flight. */
export function windowFor(pool: RenderPool | null, many: boolean): number {
  return pool ? (many ? IN_FLIGHT : BESIDE_WORKER) : IN_PROCESS;
}

export class InOrder {
  private readonly pending: Pending[] = [];

  constructor(private readonly deps: InOrderDeps) {}

  /** Add what comes next in plan order. */
  add(p: Pending): void {
    this.pending.push(p);
  }

  /** More are under way than the window allows: the plan drains some before it goes on. */
  get full(): boolean {
    return this.pending.length > this.deps.window;
  }

  /** Take results until half the window is left under way. */
  drain(): Promise<void> {
    return this.settle(this.deps.window >> 1);
  }

  /** Take results in order until `keep` are left under way. */
  async settle(keep: number): Promise<void> {
    const { pending } = this;
    const { record, pool } = this.deps;
    while (pending.length > keep) {
      const head = pending[0]!;
      if ('range' in head) {
        pending.shift();
        record.segment(head.range, head.lines, this.deps.spoolDir!, head.summary);
        continue;
      }
      if ('end' in head) {
        pending.shift();
        this.deps.ranges.end(head.end, head.groups, head.count);
        continue;
      }
      if ('line' in head) {
        if (head.linked === true || (await head.linked)) {
          pending.shift();
          record.carried(head);
          continue;
        }
        // The published file could not be carried over: render it after all, in its place in the order.
        record.counts.rendered++;
        const file = planOf(head.item);
        const job = jobOf(file, parsePrevious(head.line), head.rec);
        pending[0] = { file, result: this.deps.local(job), segment: head.segment };
      }
      const current = pending[0] as Extract<Pending, { result: unknown }>;
      const r = await (pool ? pool.result(current.result) : current.result);
      pending.shift();
      if (!r.ok) {
        record.fail(r.error);
        continue;
      }
      record.rendered(current.file, r, current.segment);
      if (r.placed !== 'unchanged') this.deps.rewritten?.push(current.file.file);
    }
  }
}
