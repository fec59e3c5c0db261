/**
 * Row layout (schema 7): SQLite stores a row's columns in order and spills the tail of a large row
 * into overflow pages, so a small column after a large one costs a walk of that chain on every read.
 * Small columns lead; the largest go last. These tests hold the layout and the migration to it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { expectSameResponses, storeResponses } from '../api/helpers/prerendered.js';
import { demoStore } from '../publish/helpers.js';
import { unpackRecords } from '../helpers/store.js';
import { importantPlays } from '../../src/store/important.js';

/** Per table, the columns that may hold kilobytes: they must come after every other column, in this order. */
const LARGE = { matches: ['event_json', 'record'], play_streams: ['plays'] } as const;

const columnsOf = (db: Database.Database, table: string) =>
  db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];

/** Every row of a table, columns by name (so the layout does not matter), in key order; `important` is new in 7. */
function rowsOf(db: Database.Database, table: keyof typeof LARGE): string[] {
  const key = table === 'matches' ? 'league_slug, id' : 'league_slug, match_id';
  return (db.prepare(`SELECT * FROM ${table} ORDER BY ${key}`).all() as Array<Record<string, unknown>>).map((row) =>
    JSON.stringify(
      Object.keys(row)
        .filter((k) => k !== 'important')
        .sort()
        .map((k) => [k, Buffer.isBuffer(row[k]) ? (row[k] as Buffer).toString('base64') : row[k]]),
    ),
  );
}

/** Streams whose stored important count is not what listing their important plays gives. */
function miscounted(db: Database.Database): string[] {
  const rows = db
    .prepare(`SELECT p.match_id AS id, p.important, p.flags, s.key_event_ids AS keyEvents FROM play_streams p
      LEFT JOIN match_summaries s ON s.league_slug = p.league_slug AND s.match_id = p.match_id`)
    .all() as Array<{ id: string; important: number; flags: string; keyEvents: string | null }>;
  return rows.filter((r) => r.important !== importantPlays(r.flags, r.keyEvents).length).map((r) => r.id);
}

/** Put a table back in the layout schema 6 had: the same columns, the large ones where they were. */
function schema6(db: Database.Database): void {
  unpackRecords(db);
  const matches = `league_slug, id, kickoff, scoreboard_date, state, status_name, completed, home_id, away_id,
    season_year, record_json, hash, last_synced_at, snapshot, event_json, event_holes, home_score, away_score`;
  const streams = 'league_slug, match_id, count, complete, hash, last_synced_at, snapshot, plays, flags, ends';
  db.exec(`
    CREATE TABLE m6 (league_slug TEXT NOT NULL, id TEXT NOT NULL, kickoff TEXT NOT NULL, scoreboard_date TEXT NOT NULL,
      state TEXT NOT NULL, status_name TEXT NOT NULL, completed INTEGER NOT NULL, home_id TEXT, away_id TEXT,
      season_year INTEGER, record_json TEXT NOT NULL, hash TEXT NOT NULL, last_synced_at TEXT NOT NULL,
      snapshot INTEGER NOT NULL DEFAULT 0, event_json BLOB NOT NULL DEFAULT x'', event_holes TEXT NOT NULL DEFAULT '[]',
      home_score ANY, away_score ANY, PRIMARY KEY (league_slug, id)) STRICT;
    INSERT INTO m6 (${matches}) SELECT ${matches} FROM matches;
    DROP TABLE matches;
    ALTER TABLE m6 RENAME TO matches;
    CREATE INDEX matches_by_date  ON matches (league_slug, scoreboard_date, kickoff, id);
    CREATE INDEX matches_by_state ON matches (league_slug, state, kickoff, id);
    CREATE INDEX matches_by_kickoff ON matches (league_slug, kickoff, id);
    CREATE TABLE p6 (league_slug TEXT NOT NULL, match_id TEXT NOT NULL, count INTEGER NOT NULL,
      complete INTEGER NOT NULL, hash TEXT NOT NULL, last_synced_at TEXT NOT NULL, snapshot INTEGER NOT NULL DEFAULT 0,
      plays BLOB, flags TEXT, ends BLOB, PRIMARY KEY (league_slug, match_id)) STRICT;
    INSERT INTO p6 (${streams}) SELECT ${streams} FROM play_streams;
    DROP TABLE play_streams;
    ALTER TABLE p6 RENAME TO play_streams;
  `);
  db.pragma('user_version = 6');
}

describe('the row layout', () => {
  it('puts the large columns of a new store after every other column', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const db = new Database(file, { readonly: true });
    for (const [table, large] of Object.entries(LARGE))
      expect(columnsOf(db, table).slice(-large.length)).toEqual(large);
    db.close();
  });

  it('is migrated to from schema 6 with every row and every response unchanged, and the space given back', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.3 });
    const before = storeResponses(file);
    expect(before.size).toBeGreaterThan(100);
    const db = new Database(file);
    const rows = { matches: rowsOf(db, 'matches'), play_streams: rowsOf(db, 'play_streams') };
    expect(rows.play_streams.length).toBeGreaterThan(10);
    expect(miscounted(db)).toEqual([]);
    schema6(db);
    expect(columnsOf(db, 'matches').at(-1)).toBe('away_score');
    db.close();
    expect(() => StoreReader.open(file)).toThrow(/schema version 6/);

    openStore(file).close();
    const after = new Database(file, { readonly: true });
    for (const [table, large] of Object.entries(LARGE))
      expect(columnsOf(after, table).slice(-large.length)).toEqual(large);
    expect(rowsOf(after, 'matches')).toEqual(rows.matches);
    expect(rowsOf(after, 'play_streams')).toEqual(rows.play_streams);
    expect(after.prepare('SELECT count(*) FROM play_streams WHERE important > 0').pluck().get()).toBeGreaterThan(10);
    expect(miscounted(after)).toEqual([]);
    // A fixtures page's filter is answered from the index alone: the rows it skips are not read.
    const indexed = (name: string) => after.prepare('SELECT name FROM pragma_index_info(?)').pluck().all(name);
    expect(indexed('matches_by_state')).toContain('scoreboard_date');
    expect(indexed('matches_by_kickoff')).toContain('scoreboard_date');
    // Rewriting two tables leaves their old pages free until VACUUM gives them back.
    expect(after.pragma('freelist_count', { simple: true })).toBe(0);
    after.close();
    expectSameResponses(storeResponses(file), before);
  });
});
