/**
 * A render worker of `fds build`: its own read-only connection to the store, in one read
 * transaction taken when its setup comes (the build checks it sees the same state as its own),
 * rendering batches of jobs and writing their files into the new release. The setup is the first
 * message it gets (render-pool.ts).
 */
import { parentPort } from 'node:worker_threads';
import { StoreReader } from '../../store/read/reader.js';
import { smallPageCache } from '../../store/db.js';
import { FilePlacer, inThread } from '../place/place.js';
import nodeFs from 'node:fs';
import type { JobResult, RenderJob } from './render-job.js';
import { runJob } from './render-job.js';
import { CLAIMED_BY_WORKER } from './render-pool.js';
import type { WorkerMessage, WorkerSetup } from './render-pool.js';

interface Rendering {
  store: StoreReader;
  /** Seeing another state of the store than the build, it renders nothing (render-pool.ts). */
  usable: boolean;
  clock: () => Date;
  placer: FilePlacer;
  claims: Int32Array | null;
}

function begin(setup: WorkerSetup): Rendering {
  const store = StoreReader.open(setup.db);
  // Every thread's connection has its own page cache, while the pages the renders share stay in the
  // operating system's cache anyway.
  smallPageCache(store.db);
  store.db.exec('BEGIN');
  const at = new Date(setup.clock);
  return {
    store,
    usable: store.snapshots.state() === setup.state,
    clock: () => at,
    placer: new FilePlacer(setup.release, setup.previous, setup.reuse, inThread(nodeFs), setup.start),
    claims: setup.claims && new Int32Array(setup.claims),
  };
}

/**
 * Jobs a worker keeps under way. Its file writes are made in its own thread (place.ts `inThread`),
 * but a job may still wait on a directory being made, and each job under way holds its body:
 * rendering every job the build has sent at once would hold hundreds of large fixtures pages. A job
 * waits for a slot.
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

/** A job's result; null when the build's own thread took it over before it was started here. */
async function run(r: Rendering, job: RenderJob): Promise<JobResult | null> {
  await slot();
  const { claims } = r;
  if (claims && job.seq !== undefined && Atomics.compareExchange(claims, job.seq, 0, CLAIMED_BY_WORKER) !== 0) {
    release();
    return null;
  }
  try {
    return await runJob(job, r.store, r.clock, r.placer);
  } catch (err) {
    return { ok: false, error: `${job.path}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    release();
  }
}

const say = (m: WorkerMessage) => parentPort!.postMessage(m);
let rendering: Rendering | null = null;
// One listener for every message, so none can arrive while there is none: the setup comes first.
parentPort!.on('message', (msg: { setup: WorkerSetup } | { batch: number; jobs: RenderJob[] } | { close: true }) => {
  if ('setup' in msg) {
    rendering = begin(msg.setup);
    return say({ ready: rendering.usable });
  }
  if ('close' in msg) {
    rendering?.store.close();
    parentPort!.close();
    return;
  }
  const r = rendering!;
  if (!r.usable) return say({ batch: msg.batch, stale: true });
  void Promise.all(msg.jobs.map((job) => run(r, job))).then((results) => say({ batch: msg.batch, results }));
});
