/**
 * Each play stream's important plays, stored beside it as a stream of their own (schema 10): an
 * important page is a slice of it. It must always hold exactly the plays that listing the important
 * ones of the full stream gives: in a new store, when the summary's key events change, and after
 * the migration.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { spanAt, unpackJson } from '../../src/store/blob.js';
import { flagsJsonOf, importantPlays } from '../../src/store/important.js';
import { beginSnapshot } from '../../src/store/snapshots.js';
import { StoreWriter } from '../../src/store/writer.js';
import { expectMigrated } from '../api/helpers/prerendered.js';
import { demoStore } from '../publish/helpers.js';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import { FilesProvider } from '../../src/sync/providers/files.js';
import { runSync } from '../../src/sync/run-sync.js';
import { copyRecorded, tempStore } from '../helpers/store.js';

interface Row {
  league: string;
  id: string;
  count: number;
  important: number;
  flags: string;
  keyEvents: string | null;
  plays: Buffer;
  importantPlays: Buffer | null;
  importantEnds: Buffer | null;
}

const rowsOf = (db: Database.Database) =>
  db
    .prepare(`SELECT p.league_slug AS league, p.match_id AS id, p.count, p.important, p.flags, p.plays,
        p.important_plays AS importantPlays, p.important_ends AS importantEnds, s.key_event_ids AS keyEvents
      FROM play_streams p LEFT JOIN match_summaries s ON s.league_slug = p.league_slug AND s.match_id = p.match_id`)
    .all() as Row[];

/** Whether a row's important stream, its ends and its count are those of its important plays. */
function holdsItsImportantPlays(r: Row): boolean {
  if (!r.importantPlays || !r.importantEnds) return false;
  const every = JSON.parse(unpackJson(r.plays)) as unknown[];
  const expected = importantPlays(r.flags, r.keyEvents).map((i) => every[i]);
  const text = unpackJson(r.importantPlays);
  const bytes = Buffer.from(text, 'utf8');
  const byEnds = expected.map((_, i) => {
    const span = spanAt(r.importantEnds!, i);
    return span && JSON.parse(bytes.subarray(span[0], span[1]).toString('utf8'));
  });
  return (
    r.important === expected.length &&
    r.importantEnds.length === 4 * expected.length &&
    JSON.stringify(JSON.parse(text)) === JSON.stringify(expected) &&
    JSON.stringify(byEnds) === JSON.stringify(expected)
  );
}

/** Every stream whose stored important plays are not its important plays (of at least `mixed` with some of each). */
function wrongStreams(db: Database.Database, mixed = 5): string[] {
  const rows = rowsOf(db);
  expect(rows.filter((r) => r.important > 0 && r.important < r.count).length).toBeGreaterThanOrEqual(mixed);
  return rows.filter((r) => !holdsItsImportantPlays(r)).map((r) => r.id);
}

describe("a stream's important plays", () => {
  it('are stored with every stream a sync writes', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const db = new Database(file, { readonly: true });
    expect(wrongStreams(db)).toEqual([]);
    db.close();
  });

  it('are stored with every stream a sync of recorded ESPN responses writes', async () => {
    const { db } = tempStore();
    await runSync(db, new FilesProvider(copyRecorded()), {
      leagues: LEAGUE_SLUGS,
      concurrency: 4,
      clock: () => new Date('2026-03-22T15:00:00Z'),
    });
    expect(wrongStreams(db, 1)).toEqual([]);
  });

  it("follow the summary's key events when they change and the plays do not", async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.1 });
    const db = openStore(file);
    const row = rowsOf(db).find((r) => r.keyEvents !== null && r.important < r.count)!;
    const flags = JSON.parse(flagsJsonOf(row.flags)) as Array<[string, number]>;
    const ids = JSON.parse(row.keyEvents!) as string[];
    const unflagged = flags.find(([id, f]) => f === 0 && !ids.includes(id))![0];
    const stored = db
      .prepare('SELECT sections FROM match_summaries WHERE league_slug = ? AND match_id = ?')
      .pluck()
      .get(row.league, row.id) as Buffer;
    const sections = JSON.parse(unpackJson(stored));
    const summary = (keyEvents: string[]) =>
      db.transaction(() =>
        new StoreWriter(db, beginSnapshot(db)).upsertSummary(
          row.league,
          row.id,
          { ...sections, keyEvents: [...(sections.keyEvents ?? []), { id: keyEvents.join() }] },
          keyEvents,
          '2026-03-22T15:05:00Z',
        ),
      )();
    // One reader throughout, as a server keeps one: nothing it read before may outlive the stored stream.
    const store = new StoreReader(db);
    const page = () => store.read(() => store.plays.page(row.league, row.id, true, 1000, 0));
    const before = page();
    summary([...ids, unflagged]);
    expect(wrongStreams(db)).toEqual([]);
    expect(page().count).toBe(before.count + 1);
    expect(page().plays.toString()).toContain(`"id":"${unflagged}"`);
    summary([]);
    expect(wrongStreams(db)).toEqual([]);
    db.close();
  });

  it('are what a store from schema 9 is migrated to, with every plays response unchanged', async () => {
    expectMigrated({
      file: await demoStore({ leagues: ['eng.1'], scale: 0.2 }),
      version: 9,
      undo: (db) => {
        db.exec('ALTER TABLE play_streams DROP COLUMN important_plays');
        db.exec('ALTER TABLE play_streams DROP COLUMN important_ends');
        db.exec('UPDATE play_streams SET important = 0');
      },
      pick: (url) => /\/plays(\?|$)/.test(url),
      atLeast: 20,
      check: (db) => expect(wrongStreams(db)).toEqual([]),
    });
  });
});
