/**
 * What the store knows about its own syncs, beyond the snapshot times in store_meta: the units the
 * most recent sync tried and which of them failed. Every unit a sync tries is stamped with that
 * sync's start time, so the latest start time in sync_state picks out exactly the last run.
 */
import type { DB } from '../db.js';

export interface LastSync {
  /** When the most recent sync started (null: no sync has run). */
  startedAt: string | null;
  /** Units it tried, and how many of them failed. */
  units: number;
  failed: number;
  /** Leagues with a failed unit, sorted. */
  failedLeagues: string[];
}

export class SyncQueries {
  private readonly s;

  constructor(db: DB) {
    this.s = {
      last: db.prepare(`
        SELECT last_attempt_at AS startedAt, COUNT(*) AS units,
               COALESCE(SUM(last_error IS NOT NULL), 0) AS failed,
               json_group_array(DISTINCT CASE WHEN last_error IS NOT NULL THEN league_slug END) AS leagues
        FROM sync_state WHERE last_attempt_at = (SELECT MAX(last_attempt_at) FROM sync_state)
        GROUP BY last_attempt_at`),
    };
  }

  last(): LastSync {
    const row = this.s.last.get() as { startedAt: string; units: number; failed: number; leagues: string } | undefined;
    if (!row) return { startedAt: null, units: 0, failed: 0, failedLeagues: [] };
    const leagues = (JSON.parse(row.leagues) as Array<string | null>).filter((l): l is string => l !== null);
    return { startedAt: row.startedAt, units: row.units, failed: row.failed, failedLeagues: leagues.sort() };
  }
}
