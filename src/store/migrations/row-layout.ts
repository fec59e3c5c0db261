/**
 * Schema 7, the row layout (migrations.ts runs it in order): the migration that rebuilds the two
 * tables whose rows hold large columns, and the indexes that answer what reads little of many rows.
 */
import type { DB } from '../sqlite.js';
import { importantCount } from '../important.js';
import { columnsOf, eachRow } from './table-rows.js';

/**
 * 7: large columns last. SQLite lays a row's columns out in order and spills what does not fit on
 * its page into a chain of overflow pages, so reading a column after a large one walks that one's
 * chain: the change feed's scores came after a match's record and its event, the counts' play flags
 * after the play stream. Small columns now lead; a match's event (scoreboards and fixtures read it)
 * comes before its record. The fixtures indexes also hold the scoreboard day their filter tests, so
 * the rows a page skips are never read; two more indexes answer what reads little of many matches
 * (the clubs seen in them; their states and scores); and each stream keeps its important count
 * (important.ts) in an index beside its count, so a build counts every match's plays without reading a row.
 */
export function rowLayout(db: DB): void {
  rebuild(
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
    event_holes     TEXT NOT NULL DEFAULT '[]',
    event_json      BLOB NOT NULL DEFAULT x'',
    record_json     TEXT NOT NULL,  -- MatchRecord
    PRIMARY KEY (league_slug, id)`,
    `league_slug, id, kickoff, scoreboard_date, state, status_name, completed, home_id, away_id, season_year, hash,
    last_synced_at, snapshot, home_score, away_score, event_holes, event_json, record_json`,
  );
  db.exec(`
  CREATE INDEX matches_by_date  ON matches (league_slug, scoreboard_date, kickoff, id);
  CREATE INDEX matches_by_state ON matches (league_slug, state, kickoff, id, scoreboard_date);
  CREATE INDEX matches_by_kickoff ON matches (league_slug, kickoff, id, scoreboard_date);
  -- What reads many matches but little of each, from an index alone: the clubs seen in a league's
  -- matches (its club list, its coverage), and each match's state and scores (the change feed).
  CREATE INDEX matches_by_clubs ON matches (league_slug, home_id, away_id);
  CREATE INDEX matches_scores ON matches (league_slug, id, state, home_score, away_score);
  `);
  rebuild(
    db,
    'play_streams',
    `league_slug    TEXT NOT NULL,
    match_id       TEXT NOT NULL,
    count          INTEGER NOT NULL,
    important      INTEGER NOT NULL DEFAULT 0, -- plays that are flagged or key events (important.ts)
    complete       INTEGER NOT NULL, -- every page of the provider's stream was stored
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL,
    snapshot       INTEGER NOT NULL DEFAULT 0,
    flags          TEXT,
    ends           BLOB,
    plays          BLOB,
    PRIMARY KEY (league_slug, match_id)`,
    'league_slug, match_id, count, complete, hash, last_synced_at, snapshot, flags, ends, plays',
  );
  db.exec('CREATE INDEX play_counts ON play_streams (league_slug, match_id, count, important)');
  const keyEvents = db
    .prepare('SELECT key_event_ids FROM match_summaries WHERE league_slug = ? AND match_id = ?')
    .pluck();
  const set = db.prepare('UPDATE play_streams SET important = ? WHERE rowid = ?');
  type Row = { rowid: number; league_slug: string; match_id: string; flags: string | null };
  eachRow<Row>(db, 'play_streams', 'league_slug, match_id, flags', (r) => {
    if (!r.flags) return;
    const ids = (keyEvents.get(r.league_slug, r.match_id) as string | undefined) ?? null;
    set.run(importantCount(r.flags, ids), r.rowid);
  });
}

/**
 * A table made again with `definition` (its columns in their new order), its rows copied over into
 * `columns` from `values` (by default the same columns, those it had before), the old one dropped with its indexes.
 */
function rebuild(db: DB, table: string, definition: string, columns: string, values = columns): void {
  db.exec(`
  CREATE TABLE ${table}_rebuilt (
    ${definition}
  ) STRICT;
  INSERT INTO ${table}_rebuilt (${columns}) SELECT ${values} FROM ${table} ORDER BY rowid;
  DROP TABLE ${table};
  ALTER TABLE ${table}_rebuilt RENAME TO ${table};
  `);
}

/** A column a migration puts into a table: its definition, and the expression over the old row that fills it. */
export interface AddedColumn {
  definition: string;
  value: string;
  comment?: string;
}

/**
 * `table` made again with the `columns` it lacks put in just before its column `before`, so that new
 * small columns still come ahead of the large ones; every other column, the rows and the indexes as
 * they were. The definition is the one the schema holds, which `rebuild` wrote one column to a line.
 */
export function insertColumns(db: DB, table: string, before: string, columns: readonly AddedColumn[]): void {
  const kept = columnsOf(db, table);
  const nameOf = (c: AddedColumn) => c.definition.trim().split(/\s+/)[0]!;
  // A store marked older than it is (as tests make one) may have them already.
  const added = columns.filter((c) => !kept.includes(nameOf(c)));
  if (!added.length) return;
  const sql = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
    .pluck()
    .get(table) as string;
  const lines = sql.slice(sql.indexOf('(') + 1, sql.lastIndexOf(')')).split('\n');
  const at = lines.findIndex((l) => l.trim().split(/\s+/)[0] === before);
  if (at < 0) throw new Error(`migration: no line of ${table}'s definition starts with its column ${before}`);
  lines.splice(at, 0, ...added.map((c) => `    ${c.definition},${c.comment ? ` -- ${c.comment}` : ''}`));
  const indexes = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
    .pluck()
    .all(table) as string[];
  const names = added.map(nameOf);
  rebuild(
    db,
    table,
    lines.join('\n'),
    [...kept, ...names].join(', '),
    [...kept, ...added.map((c) => c.value)].join(', '),
  );
  for (const index of indexes) db.exec(index);
}
