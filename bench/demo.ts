/**
 * The demo store every benchmark measures against: one seeded demo sync of all 16 leagues with the
 * demo clock pinned to a reference day, so each run of a benchmark sees the same data. At the demo's
 * default weight (real: ESPN's payload sizes) unless a benchmark asks for another.
 */
import { StoreReader } from '../src/store/read/reader.js';
import fs from 'node:fs';
import path from 'node:path';
import { build } from '../src/netlify/build.js';
import { currentRelease } from '../src/release/layout.js';
import { openStore } from '../src/store/db.js';
import { runSync } from '../src/sync/run-sync.js';
import { createDemoProvider, demoReferenceInstant } from '../src/sync/providers/demo/index.js';
import type { DemoWeight } from '../src/sync/providers/demo/index.js';
import { storeRoutine } from '../src/sync/providers/demo/routine.js';
import { addDays, ymd } from '../src/util/time.js';
import { LEAGUE_SLUGS } from '../src/reference/leagues.js';

/** The demo's reference day in every benchmark. */
export const BENCH_TODAY = '20260321';

export async function syncDemo(
  db: string,
  today: string,
  scale: number,
  weight?: DemoWeight,
): Promise<{ seconds: number; written: number }> {
  const started = performance.now();
  const store = openStore(db);
  try {
    const instant = demoReferenceInstant(today);
    const report = await runSync(store, createDemoProvider({ seed: 1, today, scale, weight }), {
      leagues: LEAGUE_SLUGS,
      concurrency: 8,
      clock: () => instant,
    });
    return { seconds: (performance.now() - started) / 1000, written: report.written };
  } finally {
    store.close();
  }
}

/** A routine sync at `now`, as each cycle of `fds live` makes one: the clock's day ± 1 and what moved on. */
export async function syncDemoRoutine(
  db: string,
  now: Date,
  scale: number,
  weight?: DemoWeight,
): Promise<{ seconds: number; written: number; units: number }> {
  const started = performance.now();
  const store = openStore(db);
  try {
    const clock = () => now;
    const window = { from: ymd(addDays(now, -1)), to: ymd(addDays(now, 1)) };
    const provider = createDemoProvider({
      seed: 1,
      now,
      scale,
      weight,
      routine: storeRoutine(() => store, clock, window),
    });
    const report = await runSync(store, provider, { leagues: LEAGUE_SLUGS, concurrency: 8, clock });
    if (report.failures.length) throw new Error(`routine sync: ${report.failures.length} units failed`);
    const units = report.units.ok + report.units.unavailable;
    return { seconds: (performance.now() - started) / 1000, written: report.written, units };
  } finally {
    store.close();
  }
}

/**
 * A demo store at `db` and a published build of it at `out`, made only when missing — `npm run bench`
 * hands later benchmarks what bench/build.ts left behind, so they do not sync and build again.
 * A store without a build gets a fresh one: a store and a build from different runs would not match.
 */
export async function ensureDemoBuild(db: string, out: string, scale: number, today = BENCH_TODAY): Promise<void> {
  const haveStore = fs.existsSync(db);
  if (haveStore && currentRelease(out)) return;
  if (!haveStore) {
    fs.mkdirSync(path.dirname(path.resolve(db)), { recursive: true });
    process.stderr.write(`syncing a demo store (scale ${scale}) into ${db}…\n`);
    await syncDemo(db, today, scale);
  }
  process.stderr.write(`building ${out}…\n`);
  const store = StoreReader.open(db);
  try {
    await build({ store, out, full: true });
  } finally {
    store.close();
  }
}
