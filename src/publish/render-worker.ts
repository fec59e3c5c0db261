/**
 * A render worker of `fds build`: its own read-only connection to the store, in one read
 * transaction taken when it starts (the build checks it sees the same state as its own), rendering
 * batches of jobs and writing their files into the new release.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { StoreReader } from '../store/read/reader.js';
import { FilePlacer, inThread } from './place.js';
import nodeFs from 'node:fs';
import type { JobResult, RenderJob } from './render-job.js';
import { runJob } from './render-job.js';
import { CLAIMED_BY_WORKER, storeState } from './render-pool.js';
import type { WorkerMessage, WorkerSetup } from './render-pool.js';

const setup = workerData as WorkerSetup;
const store = StoreReader.open(setup.db);
// A small page cache: every thread's connection has its own (16 MB by default), while the pages the
// renders share stay in the operating system's cache anyway.
store.db.pragma('cache_size = -2000');
store.db.exec('BEGIN');
// Seeing another state of the store than the build, it renders nothing (render-pool.ts).
const usable = storeState(store) === setup.state;
const at = new Date(setup.clock);
const clock = () => at;
const placer = new FilePlacer(setup.release, setup.previous, setup.reuse, inThread(nodeFs), setup.start);

/**
 * Jobs a worker keeps under way. Its file writes are made in its own thread (place.ts `inThread`),
 * but a job may still wait on a directory being made, and each job under way holds its body:
 * rendering every job the build has sent at once held hundreds of fixtures pages (~600 KB each) at
 * scale 4. A job waits for a slot.
 */
const WRITES = 8;
let writing = 0;
const waiting: Array<() => void> = [];

/** Take a slot now, or wait for one that a finished job hands over. */
function slot(): Promise<void> {
  if (writing < WRITES) {
    writing++;
    return Promise.resolve();
  }
  return new Promise((r) => waiting.push(r));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else writing--;
}

const claims = setup.claims && new Int32Array(setup.claims);

/** A job's result; null when the build's own thread took it over before it was started here. */
async function run(job: RenderJob): Promise<JobResult | null> {
  await slot();
  if (claims && job.seq !== undefined && Atomics.compareExchange(claims, job.seq, 0, CLAIMED_BY_WORKER) !== 0) {
    release();
    return null;
  }
  try {
    return await runJob(job, store, clock, placer);
  } catch (err) {
    return { ok: false, error: `${job.path}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    release();
  }
}

const say = (m: WorkerMessage) => parentPort!.postMessage(m);
say({ ready: usable });
parentPort!.on('message', (msg: { batch: number; jobs: RenderJob[] } | { close: true }) => {
  if ('close' in msg) {
    store.close();
    parentPort!.close();
    return;
  }
  if (!usable) return say({ batch: msg.batch, stale: true });
  void Promise.all(msg.jobs.map(run)).then((results) => say({ batch: msg.batch, results }));
});
