/** Standings groups per league and season, in the provider's group order. */
import type { DB } from '../db.js';
import type { StandingsGroupRecord } from '../records.js';

export interface StandingsGroupRow {
  group: StandingsGroupRecord;
  lastSyncedAt: string;
}

export class StandingsQueries {
  private readonly s;

  constructor(db: DB) {
    this.s = {
      seasons: db.prepare('SELECT DISTINCT season FROM standings WHERE league_slug = ? ORDER BY season').pluck(),
      groups: db.prepare(
        `SELECT record_json, last_synced_at FROM standings WHERE league_slug = ? AND season = ?
         ORDER BY ordinal, group_id`,
      ),
    };
  }

  /** Stored seasons (four-digit years), ascending. */
  seasons(league: string): string[] {
    return this.s.seasons.all(league) as string[];
  }

  groups(league: string, season: string): StandingsGroupRow[] {
    return (this.s.groups.all(league, season) as Array<{ record_json: string; last_synced_at: string }>).map((r) => ({
      group: JSON.parse(r.record_json) as StandingsGroupRecord,
      lastSyncedAt: r.last_synced_at,
    }));
  }
}
