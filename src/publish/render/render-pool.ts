/**
 * Render workers for `fds build`, so a build uses every core: jobs go out in batches to the least
 * busy worker and come back as promises the build awaits in plan order, so the manifest and the
 * rules are written exactly as a single-threaded build writes them.
 *
 * The build does not wait for them to start: batches go out at once and a worker takes them once it
 * has loaded (its messages wait for it). A worker that cannot start, or sees the store in another
 * state than the build (a sync committed meanwhile), renders nothing: what was sent to it is
 * rendered in the build's own thread after all, in the order it was sent.
 */
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../util/worker.js';
import type { StoreReader } from '../../store/read/reader.js';
import type { JobResult, RenderJob } from './render-job.js';
import type { ReleaseStart } from '../reuse/recycle.js';
import type { Clock } from '../../util/time.js';
import type { BuildOptions } from '../options.js';

export interface WorkerSetup {
  db: string;
  release: string;
  previous: string | null;
  reuse: boolean;
  /** What the release started as (recycle.ts). */
  start: ReleaseStart;
  /** The build's clock, an instant (responses render with the store's snapshot time). */
  clock: string;
  /** The store as the build sees it (SnapshotQueries.state): a worker that sees another renders nothing. */
  state: string;
  /**
   * Who renders each job (by its `seq`): 0 nobody yet, 1 a worker, 2 the build's own thread, which
   * takes jobs a worker has not started while it waits (RenderPool.result). Claimed with
   * compare-and-swap, so each job is rendered once. Null: the workers render every job sent.
   */
  claims: SharedArrayBuffer | null;
}

/** Changes from which an incremental build renders as a full build does, in one render worker per core (write-release.ts). */
export const POOL_AFTER = 4096;

const BATCH = 32;
/** Jobs of a build the build's own thread can take over (those beyond render in the workers only). */
const CLAIMS = 1 << 14;
export const CLAIMED_BY_WORKER = 1;
const CLAIMED_HERE = 2;
/**
 * A render holds one response at a time; without a cap V8 lets each worker's heap grow lazily to
 * hundreds of megabytes, and the build's peak memory with it.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

interface Batch {
  jobs: RenderJob[];
  done: Array<(r: JobResult) => void>;
}

interface Slot {
  worker: Worker;
  busy: number;
  /** It has loaded and sees the store as the build does. */
  ready: boolean;
  /** It renders nothing (it could not start, or sees another store). */
  gone: boolean;
  exited: boolean;
  /** Settles `started` for this worker: it said whether it renders, or failed to start. */
  heard: () => void;
}

/** What a worker says: it has loaded (and whether it renders), or a batch's results, or that it rendered none of it. */
export type WorkerMessage =
  | { ready: boolean }
  | { batch: number; results: Array<JobResult | null> }
  | { batch: number; stale: true };

export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly waiting = new Map<number, { slot: Slot; batch: Batch }>();
  private batch: Batch = { jobs: [], done: [] };
  private nextBatch = 0;
  private failure: Error | null = null;
  private closing: Promise<void> | null = null;
  /** Batches a worker did not render, rendered here one job after another. */
  private rerun: Promise<void> = Promise.resolve();
  private seq = 0;
  /** Jobs sent that this thread may still take over, latest last. */
  private readonly open: Array<{ job: RenderJob; done: (r: JobResult) => void }> = [];

  private constructor(
    private readonly local: (job: RenderJob) => Promise<JobResult>,
    /** Who renders each job, when this thread may take jobs over (WorkerSetup.claims). */
    private readonly claims: Int32Array | null,
  ) {}

  /** Settles once every worker has said whether it renders, or failed to start (the build never waits for it). */
  started: Promise<void> = Promise.resolve();

  /** Workers that have started and render. */
  get size(): number {
    return this.slots.filter((s) => s.ready && !s.gone).length;
  }

  /** Start `size` workers; `local` renders in this thread what they cannot, and what it takes over. */
  static launch(
    size: number,
    setup: Omit<WorkerSetup, 'claims'>,
    local: (job: RenderJob) => Promise<JobResult>,
    takeOver: boolean,
  ): RenderPool {
    const claims = takeOver ? new SharedArrayBuffer(CLAIMS * Int32Array.BYTES_PER_ELEMENT) : null;
    const pool = new RenderPool(local, claims && new Int32Array(claims));
    const started: Array<Promise<void>> = [];
    for (let i = 0; i < size; i++) {
      const worker = startWorker();
      worker.postMessage({ setup: { ...setup, claims } });
      let heard = () => {};
      started.push(new Promise<void>((resolve) => (heard = resolve)));
      const slot: Slot = { worker, busy: 0, ready: false, gone: false, exited: false, heard };
      pool.slots.push(slot);
      worker.on('message', (m: WorkerMessage) => pool.heard(slot, m));
      worker.on('error', (err) => pool.failed(slot, err));
      worker.on('exit', () => {
        slot.exited = true;
      });
    }
    pool.started = Promise.all(started).then(() => {});
    return pool;
  }

  private heard(slot: Slot, m: WorkerMessage): void {
    if ('ready' in m) {
      slot.ready = m.ready;
      if (!m.ready) slot.gone = true;
      slot.heard();
      return;
    }
    const sent = this.waiting.get(m.batch)!;
    this.waiting.delete(m.batch);
    slot.busy--;
    if ('stale' in m) {
      this.renderHere(sent.batch);
      return;
    }
    // null: a job this thread took over (and settled itself).
    for (const [j, r] of m.results.entries()) if (r) sent.batch.done[j]!(r);
  }

  private failed(slot: Slot, err: Error): void {
    if (!slot.ready) {
      // It never started: what it was sent is rendered here.
      if (process.env.FDS_DEBUG) console.error('a render worker did not start:', err);
      slot.gone = true;
      slot.heard();
      for (const [id, sent] of this.waiting) {
        if (sent.slot !== slot) continue;
        this.waiting.delete(id);
        this.renderHere(sent.batch);
      }
      return;
    }
    this.failure = err;
    for (const sent of this.waiting.values()) for (const d of sent.batch.done) d({ ok: false, error: err.message });
    this.waiting.clear();
  }

  private renderHere(batch: Batch): void {
    this.rerun = this.rerun.then(async () => {
      for (const [j, job] of batch.jobs.entries()) if (this.claim(job)) batch.done[j]!(await this.local(job));
    });
  }

  /** Whether this thread may render a job it sent: false when it already took it over. */
  private claim(job: RenderJob): boolean {
    return job.seq === undefined || Atomics.compareExchange(this.claims!, job.seq, 0, CLAIMED_HERE) === 0;
  }

  run(job: RenderJob): Promise<JobResult> {
    if (this.failure) return Promise.resolve({ ok: false, error: this.failure.message });
    const seq = this.claims && this.seq < CLAIMS ? this.seq++ : undefined;
    const sent = seq === undefined ? job : { ...job, seq };
    const result = new Promise<JobResult>((resolve) => {
      this.batch.jobs.push(sent);
      this.batch.done.push(resolve);
      if (seq !== undefined) this.open.push({ job: sent, done: resolve });
    });
    if (this.batch.jobs.length >= BATCH) this.flush();
    return result;
  }

  /**
   * A job's result, awaited by the build in plan order. While it is not there, a pool that lets it
   * (`takeOver`) has this thread render the latest job sent that no worker has started, rather than
   * wait: the worker works from the first job on, so at the end of a build both threads render.
   */
  async result(pending: Promise<JobResult>): Promise<JobResult> {
    this.flush();
    if (!this.claims) return pending;
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    for (;;) {
      // Let the workers' messages in.
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return pending;
      const taken = this.take();
      if (!taken) return pending;
      taken.done(await this.local(taken.job));
    }
  }

  /** The latest job sent that no worker has started, now claimed by this thread. */
  private take(): { job: RenderJob; done: (r: JobResult) => void } | null {
    for (let next = this.open.pop(); next; next = this.open.pop()) {
      if (this.claim(next.job)) return next;
    }
    return null;
  }

  /** Send what is queued (the build calls this before it waits for a result). */
  flush(): void {
    if (!this.batch.jobs.length) return;
    const batch = this.batch;
    this.batch = { jobs: [], done: [] };
    const open = this.slots.filter((s) => !s.gone);
    if (!open.length) {
      this.renderHere(batch);
      return;
    }
    const slot = open.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextBatch++;
    this.waiting.set(id, { slot, batch });
    slot.busy++;
    slot.worker.postMessage({ batch: id, jobs: batch.jobs });
  }

  close(): Promise<void> {
    this.closing ??= Promise.all(
      this.slots.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.exited) return resolve();
            s.worker.once('exit', () => resolve());
            s.worker.postMessage({ close: true });
            // A worker stuck in a render is not waited for.
            setTimeout(() => void s.worker.terminate(), 5000).unref();
          }),
      ),
    ).then(() => this.rerun);
    return this.closing;
  }
}

function startWorker(): Worker {
  return moduleWorker(import.meta.url, 'render-worker', { resourceLimits: WORKER_LIMITS });
}

/** Where the workers write, as the build's own thread does (place.ts). */
export type ReleaseSetup = Pick<WorkerSetup, 'release' | 'previous' | 'reuse' | 'start'>;

/**
 * Render workers, `size` of them at most (fewer when `workers` says so), when they can be: a build
 * that writes through an injected file system renders in its own thread.
 */
export function launchPool(
  store: StoreReader,
  release: ReleaseSetup,
  clock: Clock,
  opts: BuildOptions,
  pool: { size: number; takeOver: boolean },
  local: (job: RenderJob) => Promise<JobResult>,
): RenderPool | null {
  const workers = Math.min(opts.workers ?? pool.size, pool.size);
  if (workers < 1 || opts.fs) return null;
  const setup = { db: store.db.name, ...release, clock: clock().toISOString(), state: store.snapshots.state() };
  return RenderPool.launch(workers, setup, local, pool.takeOver);
}
