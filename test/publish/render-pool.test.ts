/**
 * The render worker beside the build's own thread (render-pool.ts): jobs go out before the worker
 * has loaded; while the build waits for a result it renders jobs the worker has not started; a
 * worker that sees another state of the store renders nothing. Every job is rendered once, and the
 * release is the one a build in one thread gives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planEntries, planOf } from '../../src/publish/plan/plan.js';
import type { PlanItem } from '../../src/publish/plan/plan.js';
import { RenderPool } from '../../src/publish/render/render-pool.js';
import { jobOf } from '../../src/publish/render/render-job.js';
import type { JobResult, RenderJob } from '../../src/publish/render/render-job.js';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { matchdayNoon, syncAt } from '../demo/helpers.js';
import { tempDir } from '../helpers/store.js';
import { buildInto, contentOf, fullBuildOf } from './helpers.js';

const LEAGUES = ['eng.1'];
const DAY = 86_400_000;

let dir: string;
let db: string;

beforeAll(async () => {
  dir = tempDir('fds-pool-');
  db = path.join(dir, 'store.sqlite');
  const store = openStore(db);
  try {
    await syncAt(store, LEAGUES, matchdayNoon(LEAGUES));
  } finally {
    store.close();
  }
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The first `n` files of the build plan as render jobs. */
function jobsOf(reader: StoreReader, n: number): RenderJob[] {
  const jobs: RenderJob[] = [];
  for (const entry of planEntries(reader)) {
    for (const item of 'items' in entry ? entry.items() : [entry as PlanItem]) {
      jobs.push(jobOf(planOf(item), null, null));
      if (jobs.length === n) return jobs;
    }
  }
  return jobs;
}

/** Files under a directory, relative to it. */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)));
}

/** A stand-in for the build's own thread: it renders nothing (taking `ms` for each), and says which jobs it was given. */
function localRenders(ms = 0) {
  const given: string[] = [];
  const local = async (job: RenderJob): Promise<JobResult> => {
    given.push(job.file);
    if (ms) await new Promise((r) => setTimeout(r, ms));
    return { ok: false, error: `here: ${job.file}` };
  };
  return { given, local };
}

/**
 * A pool of one worker on the test store (`state`: what the build says it sees, by default what it
 * does see, in one read transaction as a build holds it), writing into a release of its own; every
 * job sent is settled in plan order, as the build settles them, and the pool closed after `use`.
 */
async function withPool(
  name: string,
  local: (job: RenderJob) => Promise<JobResult>,
  use: (
    pool: RenderPool,
    settleAll: (
      n: number,
      beforeSettling?: () => Promise<void>,
    ) => Promise<{ jobs: RenderJob[]; results: JobResult[] }>,
  ) => Promise<void>,
  state?: string,
): Promise<string> {
  const reader = StoreReader.open(db);
  reader.db.exec('BEGIN');
  const release = path.join(dir, name);
  fs.mkdirSync(release, { recursive: true });
  const clock = new Date(reader.meta().snapshotAt!).toISOString();
  const setup = { db, release, previous: null, reuse: false, start: 'empty' as const, clock };
  const pool = RenderPool.launch(1, { ...setup, state: state ?? reader.snapshots.state() }, local, true);
  const settleAll = async (n: number, beforeSettling?: () => Promise<void>) => {
    const jobs = jobsOf(reader, n);
    const pending = jobs.map((job) => pool.run(job));
    await beforeSettling?.();
    const results: JobResult[] = [];
    for (const p of pending) results.push(await pool.result(p));
    return { jobs, results };
  };
  try {
    await use(pool, settleAll);
  } finally {
    await pool.close();
    reader.close();
  }
  return release;
}

const filesOf = (jobs: RenderJob[]) => jobs.map((j) => j.file).sort();

describe('a render worker beside the build', { timeout: 120_000 }, () => {
  it('renders nothing when it sees another state of the store: the build renders each job it sent, once', async () => {
    const { given, local } = localRenders();
    let sent: RenderJob[] = [];
    const release = await withPool(
      'stale',
      local,
      async (pool, settleAll) => {
        // Sent before the worker has loaded, settled after it has said it renders nothing: it answers
        // the batches it was sent that it rendered none of them.
        const { jobs, results } = await settleAll(80, () => pool.started);
        expect(pool.size).toBe(0);
        sent = jobs;
        expect(results.map((r) => (r.ok ? null : r.error))).toEqual(jobs.map((j) => `here: ${j.file}`));
      },
      'another state',
    );
    expect(given.sort()).toEqual(filesOf(sent));
    expect(filesUnder(release)).toEqual([]);
  });

  it('renders nothing when it sees another state of the store, though the build took some of its jobs over: each job once', async () => {
    const { given, local } = localRenders();
    let sent: RenderJob[] = [];
    await withPool(
      'stale-taken',
      local,
      async (pool, settleAll) => {
        // Settled while the worker loads: this thread takes jobs over that the worker then answers as not rendered.
        sent = (await settleAll(80)).jobs;
        await pool.started;
      },
      'another state',
    );
    expect(given.sort()).toEqual(filesOf(sent));
  });

  it('has the build take over the jobs it waits for while the worker loads, and the worker render none of them again', async () => {
    const { given, local } = localRenders();
    let sent: RenderJob[] = [];
    const release = await withPool('loading', local, async (pool, settleAll) => {
      const { jobs, results } = await settleAll(80);
      sent = jobs;
      expect(results.every((r) => !r.ok && r.error.startsWith('here: '))).toBe(true);
      // The worker loads after all and is sent every job, but every one is taken.
      await pool.started;
      expect(pool.size).toBe(1);
    });
    expect(given.sort()).toEqual(filesOf(sent));
    expect(filesUnder(release)).toEqual([]);
  });

  it("gives a day's incremental build, rendered with a worker beside its own thread, the tree of a full build", async () => {
    const out = path.join(dir, 'dist');
    await buildInto(db, out);
    const store = openStore(db);
    try {
      await syncAt(store, LEAGUES, new Date(matchdayNoon(LEAGUES).getTime() + DAY));
    } finally {
      store.close();
    }
    const { summary } = await buildInto(db, out, { workers: 2, workerAfter: 1 });
    expect(summary.mode).toBe('incremental');
    expect(summary.workers).toBe(1);
    expect(summary.rendered).toBeGreaterThan(0);
    expect(contentOf(out)).toEqual(await fullBuildOf(db));
  });
});
