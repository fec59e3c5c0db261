/**
 * Summary section spans (schema 8): where each section lies in a summary's stored JSON, kept beside
 * it so a render slices sections out instead of scanning the summary. They must always say what a
 * scan says, in a new store, after the migration, and after a summary is written again.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { packSpans, unpackBytes, unpackJson } from '../../src/store/blob.js';
import { beginSnapshot } from '../../src/store/snapshots.js';
import { StoreWriter } from '../../src/store/writer.js';
import { expectMigrated, expectSameResponses, isSummary, storeResponses } from '../api/helpers/prerendered.js';
import { demoStore } from '../publish/helpers.js';

/** Every summary whose stored spans are not what scanning its sections gives (or that has none). */
function wrongSpans(db: Database.Database): string[] {
  const rows = db
    .prepare('SELECT match_id AS id, sections, section_spans AS spans FROM match_summaries')
    .all() as Array<{
    id: string;
    sections: Buffer;
    spans: string | null;
  }>;
  expect(rows.length).toBeGreaterThan(10);
  return rows.filter((r) => r.spans !== packSpans(unpackBytes(r.sections))).map((r) => r.id);
}

/** Every pre-rendered response that reads a summary, by URL. */
const summaries = (file: string) => storeResponses(file, isSummary);

describe("a summary's section spans", () => {
  it('are stored with every summary a sync writes, as a scan of its sections finds them', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const db = new Database(file, { readonly: true });
    expect(wrongSpans(db)).toEqual([]);
    db.close();
  });

  it('follow a summary that is written again with other sections', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const db = openStore(file);
    const row = db
      .prepare('SELECT league_slug AS league, match_id AS id, sections FROM match_summaries LIMIT 1')
      .get() as {
      league: string;
      id: string;
      sections: Buffer;
    };
    const sections = JSON.parse(unpackJson(row.sections));
    const longer = {
      ...sections,
      gameInfo: { venue: { fullName: 'A much longer name than any the demo gives'.repeat(9) } },
    };
    db.transaction(() =>
      new StoreWriter(db, beginSnapshot(db)).upsertSummary(row.league, row.id, longer, [], '2026-03-22T15:05:00Z'),
    )();
    expect(wrongSpans(db)).toEqual([]);
    db.close();
  });

  it('are what a store from schema 7 is migrated to, with every summary response unchanged', async () => {
    expectMigrated({
      file: await demoStore({ leagues: ['eng.1'], scale: 0.2 }),
      version: 7,
      undo: (db) => db.exec('ALTER TABLE match_summaries DROP COLUMN section_spans'),
      pick: isSummary,
      atLeast: 20,
      check: (db) => expect(wrongSpans(db)).toEqual([]),
    });
  });

  it('give the same responses as scanning, for a row that has none', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const withSpans = summaries(file);
    const db = new Database(file);
    db.exec('UPDATE match_summaries SET section_spans = NULL');
    db.close();
    expectSameResponses(summaries(file), withSpans);
  });
});
