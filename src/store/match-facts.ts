/**
 * Schema 9, a match's facts: the two things a summary reads of its match's record (the provider,
 * whether a competitor has statistics), stored beside it. Read out of the record's text, they took a
 * summary answer a sixth of its time.
 */
import type { DB } from './db.js';
import { remake } from './row-layout.js';

/** The facts over a record's JSON (a column or a bound parameter): the writer stores them with these too. */
export const providerOf = (json: string) => `${json} ->> '$.provider'`;
export const hasStatistics = (json: string) =>
  `EXISTS (SELECT 1 FROM json_each(${json}, '$.competitors') WHERE json_array_length(value, '$.statistics') > 0)`;

/**
 * 9: the facts as columns among the small ones, before the match's event and record (row-layout.ts),
 * so reading them walks no overflow page. The table is made again, and its indexes as they were.
 */
export function matchFacts(db: DB): void {
  const kept = `league_slug, id, kickoff, scoreboard_date, state, status_name, completed, home_id, away_id, season_year,
    hash, last_synced_at, snapshot, home_score, away_score`;
  const large = 'event_holes, event_json, record_json';
  remake(
    db,
    'matches',
    `league_slug     TEXT NOT NULL,
    id              TEXT NOT NULL,
    kickoff         TEXT NOT NULL,  -- normalized ISO-8601 UTC with seconds, sortable as text
    scoreboard_date TEXT NOT NULL,  -- YYYYMMDD of the UTC kickoff
    state           TEXT NOT NULL,  -- pre | in | post | unknown
    status_name     TEXT NOT NULL,
    completed       INTEGER NOT NULL,
    home_id         TEXT,
    away_id         TEXT,
    season_year     INTEGER,
    hash            TEXT NOT NULL,
    last_synced_at  TEXT NOT NULL,
    snapshot        INTEGER NOT NULL DEFAULT 0,
    home_score      ANY,
    away_score      ANY,
    provider        TEXT,           -- the record's provider
    statistics      INTEGER NOT NULL DEFAULT 0, -- 1 when a competitor has statistics
    event_holes     TEXT NOT NULL DEFAULT '[]',
    event_json      BLOB NOT NULL DEFAULT x'',
    record_json     TEXT NOT NULL,  -- MatchRecord
    PRIMARY KEY (league_slug, id)`,
    `${kept}, provider, statistics, ${large}`,
    `${kept}, ${providerOf('record_json')}, ${hasStatistics('record_json')}, ${large}`,
  );
}
