/**
 * The render worker beside the build's own thread (render-pool.ts): jobs go out before the worker
 * has loaded; while the build waits for a result it renders jobs the worker has not started; a
 * worker that sees another state of the store renders nothing. Every job is rendered once, and the
 * release is the one a build in one thread gives.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planEntries, planOf } from '../../src/publish/plan.js';
import type { PlanItem } from '../../src/publish/plan.js';
import { RenderPool, hasPrestarted, prestartRenderWorker, storeState } from '../../src/publish/render-pool.js';
import { jobOf } from '../../src/publish/render-job.js';
import type { JobResult, RenderJob } from '../../src/publish/render-job.js';
import { openStore } from '../../src/store/db.js';
import { beginSnapshot, endSnapshot } from '../../src/store/snapshots.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { matchdayNoon, syncAt } from '../demo/helpers.js';
import { ROOT, tempDir } from '../helpers/store.js';
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

function launch(reader: StoreReader, release: string, state: string, local: (job: RenderJob) => Promise<JobResult>) {
  fs.mkdirSync(release, { recursive: true });
  const clock = new Date(reader.meta().snapshotAt!).toISOString();
  const setup = { db, release, previous: null, reuse: false, start: 'empty' as const, clock, state };
  return RenderPool.launch(1, setup, local, true);
}

describe('a render worker beside the build', { timeout: 120_000 }, () => {
  it('renders nothing when it sees another state of the store: the build renders each job it sent, once', async () => {
    const reader = StoreReader.open(db);
    const release = path.join(dir, 'stale');
    const { given, local } = localRenders();
    const pool = launch(reader, release, 'another state', local);
    try {
      const jobs = jobsOf(reader, 80);
      const pending = jobs.map((job) => pool.run(job));
      // Settled as the build settles them, in order, after the worker has had time to load.
      await new Promise((r) => setTimeout(r, 3000));
      const results: JobResult[] = [];
      for (const p of pending) results.push(await pool.result(p));
      await pool.close();
      expect(results.map((r) => (r.ok ? null : r.error))).toEqual(jobs.map((j) => `here: ${j.file}`));
      expect(given.sort()).toEqual(jobs.map((j) => j.file).sort());
      expect(pool.size).toBe(0);
      expect(filesUnder(release)).toEqual([]);
    } finally {
      reader.close();
    }
  });

  it('has the build take over the jobs it waits for while the worker loads, and the worker render none of them again', async () => {
    const reader = StoreReader.open(db);
    reader.db.exec('BEGIN');
    const release = path.join(dir, 'loading');
    const { given, local } = localRenders();
    const pool = launch(reader, release, storeState(reader), local);
    try {
      const jobs = jobsOf(reader, 80);
      const pending = jobs.map((job) => pool.run(job));
      const results: JobResult[] = [];
      for (const p of pending) results.push(await pool.result(p));
      // The worker loads after all and would render what it was sent, but every job is taken.
      for (let i = 0; i < 100 && pool.size === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(pool.size).toBe(1);
      await pool.close();
      expect(given.sort()).toEqual(jobs.map((j) => j.file).sort());
      expect(results.every((r) => !r.ok && r.error.startsWith('here: '))).toBe(true);
      expect(filesUnder(release)).toEqual([]);
    } finally {
      reader.close();
    }
  });

  it('renders, once it has loaded (started before the pool, which takes it), what the build does not take over, and writes each such file', async () => {
    const reader = StoreReader.open(db);
    reader.db.exec('BEGIN');
    const release = path.join(dir, 'loaded');
    // Slower than the worker, as the build's thread is with its plan to walk.
    const { given, local } = localRenders(20);
    // Started before the pool, as `fds build` starts one with the command; the pool takes it.
    prestartRenderWorker();
    expect(hasPrestarted()).toBe(true);
    const pool = launch(reader, release, storeState(reader), local);
    expect(hasPrestarted()).toBe(false);
    try {
      for (let i = 0; i < 200 && pool.size === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(pool.size).toBe(1);
      const jobs = jobsOf(reader, 80);
      const pending = jobs.map((job) => pool.run(job));
      const results: JobResult[] = [];
      for (const p of pending) results.push(await pool.result(p));
      await pool.close();
      const byWorker = jobs.filter((_, i) => results[i]!.ok).map((j) => j.file);
      // Each job rendered by exactly one of the two: the worker's written, the build's given to it.
      expect([...byWorker, ...given].sort()).toEqual(jobs.map((j) => j.file).sort());
      expect(byWorker.length).toBeGreaterThan(0);
      expect(filesUnder(release).sort()).toEqual(byWorker.sort());
    } finally {
      reader.close();
    }
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

  it('started before a build that then takes none does not keep the process alive', () => {
    const started = performance.now();
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./src/publish/render-pool.ts').then((m) => m.prestartRenderWorker())"],
      { cwd: ROOT, encoding: 'utf8', timeout: 30_000 },
    );
    expect(res.status, res.stderr).toBe(0);
    // It ends as soon as its own work does, not when the worker would (it waits for a setup forever).
    expect(performance.now() - started).toBeLessThan(25_000);
  });

  it("tells a connection from one that sees a sync's rows, its confirmation or a pruning, and not from one that sees a sync begin", () => {
    const file = path.join(dir, 'state.sqlite');
    fs.copyFileSync(db, file);
    const stateNow = () => {
      const reader = StoreReader.open(file);
      try {
        return storeState(reader);
      } finally {
        reader.close();
      }
    };
    const writer = openStore(file);
    try {
      const before = stateNow();
      const id = beginSnapshot(writer);
      expect(stateNow()).toBe(before);
      writer.prepare("INSERT INTO changes VALUES (?, 'match', 'eng.1', 'x')").run(id);
      const logged = stateNow();
      expect(logged).not.toBe(before);
      writer.prepare("INSERT INTO changes VALUES (?, 'match', 'eng.1', 'y')").run(id);
      const more = stateNow();
      expect(new Set([before, logged, more]).size).toBe(3);
      endSnapshot(writer, id, '2030-01-01T00:00:00Z', true);
      const confirmed = stateNow();
      expect(new Set([before, logged, more, confirmed]).size).toBe(4);
      writer.prepare('DELETE FROM changes WHERE snapshot < ?').run(id);
      expect(new Set([before, logged, more, confirmed, stateNow()]).size).toBe(5);
    } finally {
      writer.close();
    }
  });
});
