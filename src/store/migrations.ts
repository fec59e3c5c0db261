/**
 * Schema migrations, applied in order; `PRAGMA user_version` holds how many have run. A migration is
 * never edited once released: a change to the schema is a new entry at the end.
 */
import type { DB } from './db.js';
import { packEnds, packJson, packSpans, unpackBytes } from './blob.js';
import { arraySpans } from '../util/json-spans.js';
import type { MatchRecord } from './records.js';
import { eventText } from './shape/event.js';
import { rowLayout } from './row-layout.js';
import { matchFacts } from './match-facts.js';
import { importantStreams } from './important-streams.js';
import { columnsOf, eachRow } from './table-rows.js';

/** SQL, or a step that needs code (compressing what is stored). */
export type Migration = string | ((db: DB) => void);

/**
 * 3: a compact store (CONTRACT §2.4). A summary's sections and a match's whole play stream are each
 * one compressed JSON text; a stream keeps, beside it, each play's id and whether it is flagged, so
 * the important filter and the counts need no decompression of anything else.
 */
function compactStore(db: DB): void {
  db.exec('ALTER TABLE match_summaries ADD COLUMN sections BLOB');
  const summaries = db.prepare(
    'SELECT rowid, sections_json FROM match_summaries WHERE rowid > ? ORDER BY rowid LIMIT 256',
  );
  const setSections = db.prepare('UPDATE match_summaries SET sections = ? WHERE rowid = ?');
  for (let last = 0; ; ) {
    const rows = summaries.all(last) as Array<{ rowid: number; sections_json: string }>;
    if (!rows.length) break;
    for (const r of rows) setSections.run(packJson(r.sections_json), r.rowid);
    last = rows.at(-1)!.rowid;
  }
  db.exec('ALTER TABLE match_summaries DROP COLUMN sections_json');

  db.exec('ALTER TABLE play_streams ADD COLUMN plays BLOB');
  db.exec('ALTER TABLE play_streams ADD COLUMN flags TEXT');
  const streams = db.prepare(
    'SELECT rowid, league_slug, match_id FROM play_streams WHERE rowid > ? ORDER BY rowid LIMIT 256',
  );
  const playsOf = db.prepare(
    'SELECT id, flagged, record_json FROM plays WHERE league_slug = ? AND match_id = ? ORDER BY sequence',
  );
  const setPlays = db.prepare('UPDATE play_streams SET plays = ?, flags = ? WHERE rowid = ?');
  for (let last = 0; ; ) {
    const rows = streams.all(last) as Array<{ rowid: number; league_slug: string; match_id: string }>;
    if (!rows.length) break;
    for (const r of rows) {
      const plays = playsOf.all(r.league_slug, r.match_id) as Array<{
        id: string;
        flagged: number;
        record_json: string;
      }>;
      const text = `[${plays.map((p) => p.record_json).join(',')}]`;
      setPlays.run(packJson(text), JSON.stringify(plays.map((p) => [p.id, p.flagged])), r.rowid);
    }
    last = rows.at(-1)!.rowid;
  }
  db.exec('DROP TABLE plays');
}

/**
 * 4: each match's event as the API lists it, stored beside its record (shape/event.ts), so that
 * scoreboards and fixtures splice stored text. Derived with the code's shape: a change to that shape
 * is a new migration that derives every event again (test/store/event-text.test.ts holds it to that).
 */
export function deriveEvents(db: DB): void {
  if (!columnsOf(db, 'matches').includes('event_json')) {
    db.exec(`ALTER TABLE matches ADD COLUMN event_json BLOB NOT NULL DEFAULT x''`);
    db.exec(`ALTER TABLE matches ADD COLUMN event_holes TEXT NOT NULL DEFAULT '[]'`);
  }
  const set = db.prepare('UPDATE matches SET event_json = ?, event_holes = ? WHERE rowid = ?');
  eachRow<{ rowid: number; record_json: string }>(db, 'matches', 'record_json', (r) => {
    const e = eventText(JSON.parse(r.record_json) as MatchRecord);
    set.run(e.json, e.holes, r.rowid);
  });
}

/** 5: where each play ends in its match's stream (store/blob.ts packEnds), so pages need no scan. */
function playEnds(db: DB): void {
  if (!columnsOf(db, 'play_streams').includes('ends')) db.exec('ALTER TABLE play_streams ADD COLUMN ends BLOB');
  const set = db.prepare('UPDATE play_streams SET ends = ? WHERE rowid = ?');
  eachRow<{ rowid: number; plays: Buffer }>(db, 'play_streams', 'plays', (r) => {
    set.run(packEnds(arraySpans(unpackBytes(r.plays)).map(([start, end]) => end - start)), r.rowid);
  });
}

/** A match's scores as the change feed lists them: the same expression the writer stores them with. */
export const HOME_SCORE = `->> '$.competitors[0].score'`;
export const AWAY_SCORE = `->> '$.competitors[1].score'`;

/**
 * 6: each match's scores beside its record, so the change feed lists thousands of matches without
 * reading their records. Typed ANY: the feed gives a score as the record has it, text or number.
 */
function scoreColumns(db: DB): void {
  if (!columnsOf(db, 'matches').includes('home_score')) {
    db.exec('ALTER TABLE matches ADD COLUMN home_score ANY');
    db.exec('ALTER TABLE matches ADD COLUMN away_score ANY');
  }
  db.exec(`UPDATE matches SET home_score = record_json ${HOME_SCORE}, away_score = record_json ${AWAY_SCORE}`);
}

/**
 * 8: where each of a summary's sections lies in its JSON (blob.ts packSpans), beside it, so a summary
 * is not scanned on every render. After the sections: only what reads them reads it, and they have
 * walked their overflow pages by then.
 */
export function summarySpans(db: DB): void {
  if (!columnsOf(db, 'match_summaries').includes('section_spans')) {
    db.exec('ALTER TABLE match_summaries ADD COLUMN section_spans TEXT');
  }
  const set = db.prepare('UPDATE match_summaries SET section_spans = ? WHERE rowid = ?');
  eachRow<{ rowid: number; sections: Buffer | null }>(db, 'match_summaries', 'sections', (r) => {
    if (r.sections) set.run(packSpans(unpackBytes(r.sections)), r.rowid);
  });
}

export const MIGRATIONS: readonly Migration[] = [
  /* 1: the normalized store */ `
  CREATE TABLE store_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  CREATE TABLE leagues (
    slug           TEXT PRIMARY KEY,
    espn_id        TEXT NOT NULL,
    name           TEXT NOT NULL,
    abbreviation   TEXT NOT NULL,
    country        TEXT NOT NULL,
    kind           TEXT NOT NULL,
    logo           TEXT,
    season_json    TEXT,            -- {year, displayName} of the league's current season, when a payload said so
    last_synced_at TEXT             -- snapshot time of the last sync that changed this league's data
  ) STRICT;

  CREATE TABLE clubs (
    id             TEXT PRIMARY KEY,
    record_json    TEXT NOT NULL,   -- ClubRecord: identity, colours, logo, venue
    coach_json     TEXT,            -- CoachRecord, from the roster payload
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL
  ) STRICT;

  -- A club is in a league's catalogue when that league's /teams (or a roster) listed it.
  CREATE TABLE league_clubs (
    league_slug TEXT NOT NULL,
    club_id     TEXT NOT NULL,
    PRIMARY KEY (league_slug, club_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE players (
    club_id     TEXT NOT NULL,
    id          TEXT NOT NULL,
    ordinal     INTEGER NOT NULL,   -- position in the provider's roster listing
    record_json TEXT NOT NULL,      -- PlayerRecord
    PRIMARY KEY (club_id, id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE rosters (
    club_id        TEXT PRIMARY KEY,
    league_slug    TEXT NOT NULL,
    season_json    TEXT,
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE matches (
    league_slug     TEXT NOT NULL,
    id              TEXT NOT NULL,
    kickoff         TEXT NOT NULL,  -- normalized ISO-8601 UTC with seconds, sortable as text
    scoreboard_date TEXT NOT NULL,  -- YYYYMMDD of the UTC kickoff
    state           TEXT NOT NULL,  -- pre | in | post | unknown
    status_name     TEXT NOT NULL,
    completed       INTEGER NOT NULL,
    home_id         TEXT,
    away_id         TEXT,
    season_year     INTEGER,
    record_json     TEXT NOT NULL,  -- MatchRecord
    hash            TEXT NOT NULL,
    last_synced_at  TEXT NOT NULL,
    PRIMARY KEY (league_slug, id)
  ) STRICT;
  CREATE INDEX matches_by_date  ON matches (league_slug, scoreboard_date, kickoff, id);
  CREATE INDEX matches_by_state ON matches (league_slug, state, kickoff, id);
  CREATE INDEX matches_by_kickoff ON matches (league_slug, kickoff, id);

  CREATE TABLE match_summaries (
    league_slug    TEXT NOT NULL,
    match_id       TEXT NOT NULL,
    sections_json  TEXT NOT NULL,   -- SummarySections: provider-shaped sections, absent ones omitted
    key_event_ids  TEXT NOT NULL,   -- JSON array of keyEvents ids, for the important-plays filter
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL,
    PRIMARY KEY (league_slug, match_id)
  ) STRICT;

  -- A rowid table: play rows are ~1 KB, too large for WITHOUT ROWID to pay off.
  CREATE TABLE plays (
    league_slug TEXT NOT NULL,
    match_id    TEXT NOT NULL,
    sequence    INTEGER NOT NULL,   -- 1-based position in the provider's play stream
    id          TEXT NOT NULL,
    flagged     INTEGER NOT NULL,   -- goal, card, substitution, penalty or own goal
    record_json TEXT NOT NULL,      -- PlayRecord, references already resolved
    UNIQUE (league_slug, match_id, sequence)
  ) STRICT;
  CREATE INDEX plays_flagged ON plays (league_slug, match_id, flagged, sequence);

  CREATE TABLE play_streams (
    league_slug    TEXT NOT NULL,
    match_id       TEXT NOT NULL,
    count          INTEGER NOT NULL,
    complete       INTEGER NOT NULL, -- every page of the provider's stream was stored
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL,
    PRIMARY KEY (league_slug, match_id)
  ) STRICT;

  CREATE TABLE standings (
    league_slug    TEXT NOT NULL,
    season         TEXT NOT NULL,   -- four-digit start year
    group_id       TEXT NOT NULL,
    ordinal        INTEGER NOT NULL,
    record_json    TEXT NOT NULL,   -- StandingsGroupRecord
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL,
    PRIMARY KEY (league_slug, season, group_id)
  ) STRICT;

  CREATE TABLE sync_state (
    league_slug     TEXT NOT NULL,
    resource        TEXT NOT NULL,  -- scoreboard | summary | plays | teams | roster | standings
    resource_key    TEXT NOT NULL,  -- date, event id, team id or season ('' when the resource has one key)
    provider        TEXT NOT NULL,
    last_attempt_at TEXT NOT NULL,
    last_success_at TEXT,
    last_error      TEXT,
    PRIMARY KEY (league_slug, resource, resource_key)
  ) STRICT;
  `,
  /* 2: change tracking (CONTRACT §2.4) */ `
  -- One row per sync that changed data; its id is allocated when the sync starts (at is NULL until
  -- it ends), so the id of a sync that crashed half way is never given to another.
  CREATE TABLE snapshots (
    id INTEGER PRIMARY KEY,
    at TEXT
  ) STRICT;

  -- What each snapshot changed, written in the same transaction as the change itself.
  --   match | summary | plays       league, match id
  --   day                           league, YYYYMMDD (a day whose list of matches changed)
  --   club | roster                 league of the payload, club id
  --   catalogue | league            league, ''
  --   standings                     league, season
  CREATE TABLE changes (
    snapshot    INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    league_slug TEXT NOT NULL,
    key         TEXT NOT NULL,
    PRIMARY KEY (snapshot, kind, league_slug, key)
  ) STRICT, WITHOUT ROWID;

  -- The snapshot that last changed each record (0: before change tracking).
  ALTER TABLE leagues ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE clubs ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE rosters ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE matches ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE match_summaries ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE play_streams ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE standings ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  `,
  compactStore,
  deriveEvents,
  playEnds,
  scoreColumns,
  rowLayout,
  summarySpans,
  matchFacts,
  importantStreams,
];

/** Versions that rewrite whole tables: migrating across one leaves much free space, given back by VACUUM. */
export const REWRITES = [3, 7, 9, 10];

export const SCHEMA_VERSION = MIGRATIONS.length;
