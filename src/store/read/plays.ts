/**
 * Play-by-play, paged in SQL by sequence. The important filter is the stored `flagged` column
 * (goals, cards, substitutions, penalties, own goals) or membership in the summary's key events.
 */
import type { DB } from '../db.js';
import type { PlayRecord } from '../records.js';

const KEY_EVENT = `id IN (SELECT value FROM json_each(coalesce(
  (SELECT key_event_ids FROM match_summaries WHERE league_slug = @league AND match_id = @match), '[]')))`;
const IMPORTANT = `(flagged = 1 OR ${KEY_EVENT})`;

export class PlayQueries {
  private readonly s;

  constructor(db: DB) {
    this.s = {
      count: db.prepare('SELECT COUNT(*) FROM plays WHERE league_slug = @league AND match_id = @match').pluck(),
      countImportant: db
        .prepare(`SELECT COUNT(*) FROM plays WHERE league_slug = @league AND match_id = @match AND ${IMPORTANT}`)
        .pluck(),
      page: db
        .prepare(`SELECT record_json FROM plays WHERE league_slug = @league AND match_id = @match
        ORDER BY sequence LIMIT @limit OFFSET @offset`)
        .pluck(),
      pageImportant: db
        .prepare(`SELECT record_json FROM plays WHERE league_slug = @league AND match_id = @match AND ${IMPORTANT}
        ORDER BY sequence LIMIT @limit OFFSET @offset`)
        .pluck(),
      any: db.prepare('SELECT EXISTS (SELECT 1 FROM plays WHERE league_slug = ? AND match_id = ?)').pluck(),
    };
  }

  count(league: string, match: string, important: boolean): number {
    return (important ? this.s.countImportant : this.s.count).get({ league, match }) as number;
  }

  page(league: string, match: string, important: boolean, limit: number, offset: number): PlayRecord[] {
    const rows = (important ? this.s.pageImportant : this.s.page).all({ league, match, limit, offset }) as string[];
    return rows.map((json) => JSON.parse(json) as PlayRecord);
  }

  exists(league: string, match: string): boolean {
    return this.s.any.get(league, match) === 1;
  }
}
