/** Shared setup for the demo tests: a demo sync into a throwaway SQLite store. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/db.js';
import type { DB } from '../../src/store/db.js';
import { runSync } from '../../src/sync/run-sync.js';
import type { SyncReport } from '../../src/sync/run-sync.js';
import { createDemoProvider, demoReferenceInstant } from '../../src/sync/providers/demo/index.js';

export const TODAY = '20260321';

export interface DemoStore {
  db: DB;
  file: string;
  report: SyncReport;
  cleanup: () => void;
}

export async function syncDemo(opts: {
  leagues: string[];
  seed?: number;
  today?: string;
  scale?: number;
}): Promise<DemoStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-demo-'));
  const file = path.join(dir, 'store.sqlite');
  const today = opts.today ?? TODAY;
  const db = openStore(file);
  const instant = demoReferenceInstant(today);
  const report = await runSync(db, createDemoProvider({ seed: opts.seed ?? 1, today, scale: opts.scale ?? 1 }), {
    leagues: opts.leagues,
    concurrency: 8,
    clock: () => instant,
  });
  return {
    db,
    file,
    report,
    cleanup: () => {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const json = <T>(text: string): T => JSON.parse(text) as T;
