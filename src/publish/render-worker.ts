/**
 * A render worker of `fds build`: its own read-only connection to the store, in one read
 * transaction taken when it starts (the build checks it sees the same state as its own), rendering
 * batches of jobs and writing their files into the new release.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { StoreReader } from '../store/read/reader.js';
import { FilePlacer } from './place.js';
import type { RenderJob } from './render-job.js';
import { runJob } from './render-job.js';
import { storeState } from './render-pool.js';
import type { WorkerSetup } from './render-pool.js';

const setup = workerData as WorkerSetup;
const store = StoreReader.open(setup.db);
// A small page cache: every thread's connection has its own (16 MB by default), while the pages the
// renders share stay in the operating system's cache anyway.
store.db.pragma('cache_size = -2000');
store.db.exec('BEGIN');
const state = storeState(store);
const at = new Date(setup.clock);
const clock = () => at;
const placer = new FilePlacer(setup.release, setup.previous, setup.reuse, undefined, setup.recycled);

parentPort!.postMessage({ ready: state });
parentPort!.on('message', (msg: { batch: number; jobs: RenderJob[] } | { close: true }) => {
  if ('close' in msg) {
    store.close();
    parentPort!.close();
    return;
  }
  // Renders are synchronous; the writes they start overlap (file creation is the slow part).
  const results = msg.jobs.map((job) =>
    runJob(job, store, clock, placer).catch((err: unknown) => ({
      ok: false as const,
      error: `${job.path}: ${err instanceof Error ? err.message : String(err)}`,
    })),
  );
  void Promise.all(results).then((r) => parentPort!.postMessage({ batch: msg.batch, results: r }));
});
