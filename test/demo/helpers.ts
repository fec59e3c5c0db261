/** Shared setup for the demo tests: a demo sync into a throwaway SQLite store. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/db.js';
import type { DB } from '../../src/store/db.js';
import { runSync } from '../../src/sync/run-sync.js';
import type { SyncReport } from '../../src/sync/run-sync.js';
import { createDemoProvider, demoKickoffs, demoReferenceInstant } from '../../src/sync/providers/demo/index.js';
import { addDays, parseYmd, ymd } from '../../src/util/time.js';
import { storedRecord } from '../helpers/store.js';

/** Where the tests look for a matchday; the calendar decides which days near it are matchdays. */
export const TODAY = '20260321';

const MINUTE = 60_000;

/**
 * Noon of the first day on or after `from` on which every named league has its early block of three
 * kickoffs (10:30, 11:05, 11:30 UTC) — so at noon each has a match in the second half, one at
 * half-time and one in the first half.
 */
export function matchdayNoon(leagues: readonly string[], from = TODAY, seed = 1, scale = 1): Date {
  for (let day = parseYmd(from)!; ; day = addDays(day, 1)) {
    const at = (h: number, m: number) => day.getTime() + (h * 60 + m) * MINUTE;
    const block = (league: string) => demoKickoffs(seed, scale, at(10, 30), at(11, 31), [league]).length === 3;
    if (leagues.every(block)) return new Date(at(12, 0));
    if (day.getTime() - parseYmd(from)!.getTime() > 366 * 86_400_000)
      throw new Error(`no common matchday for ${leagues.join(', ')} after ${from}`);
  }
}

export const iso = (d: Date | number) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const dayOf = (d: Date | number) => ymd(new Date(d));

export interface DemoStore {
  db: DB;
  file: string;
  now: Date;
  report: SyncReport;
  cleanup: () => void;
}

/** Sync into an existing store with the demo clock at `now`, stamping the sync with that clock as the CLI does. */
export function syncAt(db: DB, leagues: readonly string[], now: Date, seed = 1, scale = 1): Promise<SyncReport> {
  return runSync(db, createDemoProvider({ seed, now, scale, weight: 'light' }), {
    leagues,
    concurrency: 8,
    clock: () => now,
  });
}

/** A demo sync into a fresh store at `now` (or noon of `today`); by default a matchday noon of the leagues. */
export async function syncDemo(opts: {
  leagues: string[];
  seed?: number;
  now?: Date;
  today?: string;
  scale?: number;
}): Promise<DemoStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-demo-'));
  const file = path.join(dir, 'store.sqlite');
  const seed = opts.seed ?? 1;
  const scale = opts.scale ?? 1;
  const now =
    opts.now ?? (opts.today ? demoReferenceInstant(opts.today) : matchdayNoon(opts.leagues, TODAY, seed, scale));
  const db = openStore(file);
  const report = await syncAt(db, opts.leagues, now, seed, scale);
  return {
    db,
    file,
    now,
    report,
    cleanup: () => {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stored JSON, parsed: a text, or a match record as the store packs it (schema 12). */
export const json = <T>(stored: string | Buffer): T => storedRecord<T>(stored);
