/**
 * A match's summary facts (schema 9): the provider and whether a competitor has statistics, stored
 * beside the record, so a summary reads them without parsing the record. They
 * must always say what the record says: in a new store, after a match is written again, and after
 * the migration.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import type { MatchRecord } from '../../src/store/records.js';
import { beginSnapshot } from '../../src/store/snapshots.js';
import { StoreWriter } from '../../src/store/writer.js';
import { expectMigrated, isSummary } from '../api/helpers/prerendered.js';
import { demoStore } from '../publish/helpers.js';
import { storedRecord } from '../helpers/store.js';

interface Row {
  league: string;
  id: string;
  record: Buffer;
  provider: string | null;
  statistics: number;
}

const rowsOf = (db: Database.Database) =>
  db.prepare('SELECT league_slug AS league, id, record, provider, statistics FROM matches').all() as Row[];

/** The facts as the record, parsed, tells them. */
function factsOf(record: Buffer) {
  const r = storedRecord<{ provider?: string; competitors?: Array<{ statistics?: unknown[] }> }>(record);
  return {
    provider: r.provider ?? null,
    statistics: (r.competitors ?? []).some((c) => Array.isArray(c.statistics) && c.statistics.length > 0) ? 1 : 0,
  };
}

/** Every match whose stored facts are not what its record says. */
function wrongFacts(db: Database.Database): string[] {
  const rows = rowsOf(db);
  expect(rows.length).toBeGreaterThan(10);
  return rows
    .filter(
      (r) => JSON.stringify({ provider: r.provider, statistics: r.statistics }) !== JSON.stringify(factsOf(r.record)),
    )
    .map((r) => r.id);
}

describe("a match's summary facts", () => {
  it('are stored with every match a sync writes, as its record tells them, with and without statistics', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const db = new Database(file, { readonly: true });
    expect(wrongFacts(db)).toEqual([]);
    const kinds = new Set(rowsOf(db).map((r) => r.statistics));
    expect(kinds).toEqual(new Set([0, 1]));
    db.close();
  });

  it('follow a match that is written again with statistics and another provider', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const db = openStore(file);
    const row = db.prepare('SELECT * FROM matches WHERE statistics = 0 LIMIT 1').get() as {
      league_slug: string;
      id: string;
      kickoff: string;
      scoreboard_date: string;
      record: Buffer;
    };
    const record = storedRecord<MatchRecord & { provider: string }>(row.record);
    const changed = {
      ...record,
      provider: 'files',
      competitors: record.competitors.map((c, i) =>
        i === 0 ? { ...c, statistics: [{ name: 'possessionPct', displayValue: '55' }] } : c,
      ),
    } as MatchRecord;
    db.transaction(() =>
      new StoreWriter(db, beginSnapshot(db)).upsertMatch(
        row.league_slug,
        { record: changed, kickoff: row.kickoff, scoreboardDate: row.scoreboard_date },
        '2026-03-22T15:05:00Z',
      ),
    )();
    const after = db.prepare('SELECT provider, statistics FROM matches WHERE league_slug = ? AND id = ?');
    expect(after.get(row.league_slug, row.id)).toEqual({ provider: 'files', statistics: 1 });
    expect(wrongFacts(db)).toEqual([]);
    db.close();
  });

  it('are what a store from schema 8 is migrated to, with every summary response unchanged', async () => {
    expectMigrated({
      file: await demoStore({ leagues: ['eng.1'], scale: 0.2 }),
      version: 8,
      undo: (db) => {
        db.exec('ALTER TABLE matches DROP COLUMN provider');
        db.exec('ALTER TABLE matches DROP COLUMN statistics');
      },
      pick: isSummary,
      atLeast: 20,
      check: (db) => expect(wrongFacts(db)).toEqual([]),
    });
  });
});
