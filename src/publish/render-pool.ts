/**
 * Render workers for `fds build`, so a build uses every core: jobs go out in batches to the least
 * busy worker and come back as promises the build awaits in plan order, so the manifest and the
 * rules are written exactly as a single-threaded build writes them.
 */
import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../util/worker.js';
import type { StoreReader } from '../store/read/reader.js';
import type { JobResult, RenderJob } from './render-job.js';
import type { ReleaseStart } from './recycle.js';
import os from 'node:os';
import type { Clock } from '../util/time.js';
import type { BuildOptions } from './build.js';

export interface WorkerSetup {
  db: string;
  release: string;
  previous: string | null;
  reuse: boolean;
  /** What the release started as (recycle.ts). */
  start: ReleaseStart;
  /** The build's clock, an instant (responses render with the store's snapshot time). */
  clock: string;
}

/**
 * What state of the store a connection sees: every change to data comes with change-log rows, so
 * two connections that count the same rows read the same data.
 */
export function storeState(store: StoreReader): string {
  return String(store.db.prepare("SELECT count(*) || ':' || coalesce(max(snapshot), 0) FROM changes").pluck().get());
}

const BATCH = 32;
/**
 * A render holds one response at a time; without a cap V8 lets each worker's heap grow lazily to
 * hundreds of megabytes, and the build's peak memory with it.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

interface Slot {
  worker: Worker;
  busy: number;
}

export class RenderPool {
  private readonly slots: Slot[] = [];
  private readonly waiting = new Map<number, Array<(r: JobResult) => void>>();
  private batch: { jobs: RenderJob[]; done: Array<(r: JobResult) => void> } = { jobs: [], done: [] };
  private nextBatch = 0;
  private failure: Error | null = null;

  private constructor() {}

  get size(): number {
    return this.slots.length;
  }

  /** Start `size` workers; null when they do not see the store as `state` (a sync committed meanwhile). */
  static async start(size: number, setup: WorkerSetup, state: string): Promise<RenderPool | null> {
    const pool = new RenderPool();
    const ready: Array<Promise<string>> = [];
    for (let i = 0; i < size; i++) {
      const worker = moduleWorker(import.meta.url, 'render-worker', {
        workerData: setup,
        resourceLimits: WORKER_LIMITS,
      });
      const slot = { worker, busy: 0 };
      pool.slots.push(slot);
      ready.push(
        new Promise((resolve, reject) => {
          worker.once('error', reject);
          worker.once('message', (m: { ready: string }) => resolve(m.ready));
        }),
      );
      worker.on('message', (m: { batch?: number; results?: JobResult[] }) => {
        if (m.batch === undefined || !m.results) return;
        slot.busy--;
        const done = pool.waiting.get(m.batch)!;
        pool.waiting.delete(m.batch);
        for (const [j, r] of m.results.entries()) done[j]!(r);
      });
      worker.on('error', (err) => {
        pool.failure = err;
        for (const done of pool.waiting.values()) for (const d of done) d({ ok: false, error: err.message });
        pool.waiting.clear();
      });
    }
    try {
      const states = await Promise.all(ready);
      if (states.every((s) => s === state)) return pool;
    } catch (err) {
      // A worker that cannot start: the build renders in its own thread instead.
      if (process.env.FDS_DEBUG) console.error('render workers did not start:', err);
    }
    await pool.close();
    return null;
  }

  run(job: RenderJob): Promise<JobResult> {
    if (this.failure) return Promise.resolve({ ok: false, error: this.failure.message });
    const result = new Promise<JobResult>((resolve) => {
      this.batch.jobs.push(job);
      this.batch.done.push(resolve);
    });
    if (this.batch.jobs.length >= BATCH) this.flush();
    return result;
  }

  /** Send what is queued (the build calls this before it waits for a result). */
  flush(): void {
    if (!this.batch.jobs.length) return;
    const slot = this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.nextBatch++;
    this.waiting.set(id, this.batch.done);
    slot.busy++;
    slot.worker.postMessage({ batch: id, jobs: this.batch.jobs });
    this.batch = { jobs: [], done: [] };
  }

  async close(): Promise<void> {
    await Promise.all(
      this.slots.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.worker.once('exit', () => resolve());
            s.worker.postMessage({ close: true });
            // A worker stuck in a render is not waited for.
            setTimeout(() => void s.worker.terminate(), 5000).unref();
          }),
      ),
    );
  }
}

/**
 * Render workers when they are worth starting (`workers`, default: one per core) and can be: a
 * build that writes through an injected file system renders in its own thread.
 */
export async function startPool(
  store: StoreReader,
  release: string,
  previous: string | null,
  reuse: boolean,
  start: ReleaseStart,
  clock: Clock,
  opts: BuildOptions,
): Promise<RenderPool | null> {
  const workers = opts.workers ?? os.availableParallelism();
  if (workers < 1 || opts.fs) return null;
  const setup = { db: store.db.name, release, previous, reuse, start, clock: clock().toISOString() };
  return RenderPool.start(workers, setup, storeState(store));
}
