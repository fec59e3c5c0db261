/** Running the ESPN provider against a stand-in, with a transport tuned so faults cost milliseconds. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../../src/store/db.js';
import { getMeta } from '../../src/store/db.js';
import { runSync } from '../../src/sync/run-sync.js';
import type { SyncReport } from '../../src/sync/run-sync.js';
import { EspnProvider } from '../../src/sync/providers/espn.js';
import type { EspnOptions } from '../../src/sync/providers/espn.js';
import { HttpClient } from '../../src/sync/http/fetch-json.js';
import type { HttpOptions } from '../../src/sync/http/fetch-json.js';
import { copyRecorded, dumpContent, readJson } from './store.js';
import { startStandIn } from './espn-standin.js';
import type { StandIn } from './espn-standin.js';

/** Small enough that a stall or a backoff is cheap, large enough that a loaded machine still answers in time. */
export const FAST_HTTP: HttpOptions = {
  timeoutMs: 700,
  retries: 5,
  backoffBaseMs: 5,
  backoffMaxMs: 40,
  retryAfterMaxMs: 3000,
};

export const WINDOW = { from: '20260321', to: '20260322' };

/**
 * The project's recorded eng.1 responses plus a team list built from its boards' competitors: ESPN
 * finds rosters through the league's team list, which the recording lacks.
 */
export function espnFixture(): string {
  const dir = copyRecorded();
  const teams = new Map<string, unknown>();
  for (const f of fs.readdirSync(path.join(dir, 'eng.1/scoreboard'))) {
    const board = readJson<{
      events: Array<{ competitions: Array<{ competitors: Array<{ team: { id: string } }> }> }>;
    }>(path.join(dir, 'eng.1/scoreboard', f));
    for (const e of board.events) for (const c of e.competitions[0]!.competitors) teams.set(c.team.id, c.team);
  }
  const body = {
    sports: [
      {
        id: '600',
        slug: 'soccer',
        leagues: [
          {
            id: '700',
            slug: 'eng.1',
            season: { year: 2025, displayName: '2025-26 English Premier League' },
            teams: [...teams.values()].map((team) => ({ team })),
          },
        ],
      },
    ],
  };
  fs.writeFileSync(path.join(dir, 'eng.1/teams.json'), JSON.stringify(body));
  return dir;
}

export interface EspnRun {
  concurrency?: number;
  leagues?: string[];
  at?: string;
  http?: HttpOptions;
  provider?: Partial<EspnOptions>;
}

export function syncEspn(db: DB, standIn: StandIn, run: EspnRun = {}): Promise<SyncReport> {
  const concurrency = run.concurrency ?? 4;
  const clock = () => new Date(run.at ?? '2026-03-22T15:00:00Z');
  const leagues = run.leagues ?? ['eng.1'];
  const provider = new EspnProvider({
    baseUrl: standIn.url,
    coreUrl: `${standIn.url}/`,
    ...WINDOW,
    leagues,
    store: () => db,
    clock,
    http: new HttpClient({ ...FAST_HTTP, concurrency, ...run.http }),
    ...run.provider,
  });
  return runSync(db, provider, { leagues, concurrency, clock });
}

/** Every stored record, plus the freshness fields a failed run must not move. */
export function storeState(db: DB) {
  return {
    content: dumpContent(db),
    lastSuccessfulSyncAt: getMeta(db, 'last_successful_sync_at'),
    leaguesSyncedAt: db.prepare('SELECT slug, last_synced_at FROM leagues ORDER BY slug').all(),
  };
}

/**
 * One loopback ESPN stand-in for a test file, reset before each test (no faults, no delay).
 * Returns an accessor: the stand-in exists only once beforeAll has run.
 */
export function useStandIn(): () => StandIn {
  let standIn: StandIn | undefined;
  beforeAll(async () => {
    standIn = await startStandIn(espnFixture());
  });
  afterAll(() => standIn?.close());
  beforeEach(() => {
    standIn!.reset();
    standIn!.faults = undefined;
    standIn!.delayMs = 0;
  });
  return () => standIn!;
}
