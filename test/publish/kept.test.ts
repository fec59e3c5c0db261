/**
 * Kept parts: a fixtures page of finished matches that the day's changes left as it was but for its
 * count is rendered again with its events spliced in from the published file. Whenever a changed
 * match is in or before the page, or the published file is not the one its manifest line describes,
 * the page is rendered from the store; either way the release is the one a full build gives.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentRelease } from '../../src/release/layout.js';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { matchdayNoon, syncAt } from '../demo/helpers.js';
import { deleteMatch, editStore, tempDir } from '../helpers/store.js';
import { buildInto, contentOf, copyOfState, fullBuildOf } from './helpers.js';

const LEAGUES = ['eng.1'];
const DAY = 86_400_000;
const PAGE = '_s/get/soccer/eng.1/fixtures/page-1,status-finished.json';

let dir: string;
/** A store synced at a matchday's noon with its published build, and the same store a day later. */
let base: string;

beforeAll(async () => {
  dir = tempDir('fds-kept-');
  base = path.join(dir, 'base');
  fs.mkdirSync(base);
  const noon = matchdayNoon(LEAGUES);
  const db = openStore(path.join(base, 'store.sqlite'));
  try {
    await syncAt(db, LEAGUES, noon);
    db.close();
    await buildInto(path.join(base, 'store.sqlite'), path.join(base, 'dist'));
    const later = openStore(path.join(base, 'store.sqlite'));
    try {
      await syncAt(later, LEAGUES, new Date(noon.getTime() + DAY));
    } finally {
      later.close();
    }
  } finally {
    if (db.open) db.close();
  }
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const copyOfBase = (name: string) => copyOfState(base, path.join(dir, name));

function firstFinished(db: string): { id: string; day: string } {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare(
        `SELECT id, scoreboard_date AS day FROM matches WHERE league_slug = 'eng.1' AND state = 'post'
         ORDER BY kickoff, id`,
      )
      .get() as { id: string; day: string };
  } finally {
    conn.close();
  }
}

/** An edit of a match's record (its name becomes 'Renamed Derby'), logged as `changes` say. */
function renameMatch(db: string, id: string, changes: Array<[string, string, string]>): void {
  const rename = `UPDATE matches SET record_json = json_set(record_json, '$.name', 'Renamed Derby'), hash = 'changed'
    WHERE league_slug = 'eng.1' AND id = ?`;
  editStore(db, (w) => w.prepare(rename).run(id), changes);
}

/** The body of a published file, split at its events. */
function pageOf(out: string, file = PAGE): { count: number; events: string } {
  const text = fs.readFileSync(path.join(currentRelease(out)!, file), 'utf8');
  return { count: JSON.parse(text).count, events: text.slice(text.indexOf(',"events":[')) };
}

describe('kept parts', () => {
  it("splices in the events of finished fixtures pages that a day's changes left but for their count", async () => {
    const { db, out } = copyOfBase('day');
    const before = pageOf(out);
    const { summary } = await buildInto(db, out);
    expect(summary.mode).toBe('incremental');
    expect(summary.kept).toBeGreaterThan(0);
    const after = pageOf(out);
    // The day finished matches after the first page: its count moved, its events did not.
    expect(after.count).toBeGreaterThan(before.count);
    expect(after.events).toBe(before.events);
    expect(contentOf(out)).toEqual(await fullBuildOf(db));
  });

  it('renders a page from the store when a match it lists changed', async () => {
    const { db, out } = copyOfBase('edited');
    const first = firstFinished(db);
    renameMatch(db, first.id, [
      ['match', 'eng.1', first.id],
      ['day', 'eng.1', first.day],
    ]);
    await buildInto(db, out);
    expect(pageOf(out).events).toContain('Renamed Derby');
    expect(contentOf(out)).toEqual(await fullBuildOf(db));
  });

  it('keeps no part when the change log has a change this code cannot place', async () => {
    const { db, out } = copyOfBase('unknown');
    const first = firstFinished(db);
    // A newer writer's kind of change, and a match edited without a row this code reads.
    renameMatch(db, first.id, [['rewritten', 'eng.1', first.id]]);
    const { summary } = await buildInto(db, out);
    expect(summary.kept).toBe(0);
    expect(pageOf(out).events).toContain('Renamed Derby');
    expect(contentOf(out)).toEqual(await fullBuildOf(db));
  });

  it('renders a page from the store when a match it listed is gone', async () => {
    const { db, out } = copyOfBase('gone');
    const first = firstFinished(db);
    deleteMatch(db, 'eng.1', first.id, first.day);
    await buildInto(db, out);
    expect(pageOf(out).events).not.toContain(`"id":"${first.id}"`);
    expect(contentOf(out)).toEqual(await fullBuildOf(db));
  });

  it('renders a page from the store when the published file is not the one its manifest describes', async () => {
    const { db, out } = copyOfBase('damaged');
    const published = path.join(currentRelease(out)!, PAGE);
    // Same head, one event short: the file is no longer the size its manifest line gives.
    const text = fs.readFileSync(published, 'utf8');
    const cut = text.lastIndexOf(',{"id":');
    fs.rmSync(published);
    fs.writeFileSync(published, `${text.slice(0, cut)}]}`);
    const { summary } = await buildInto(db, out);
    expect(summary.mode).toBe('incremental');
    expect(contentOf(out)).toEqual(await fullBuildOf(db));
  });

  it('tells how many of some matches a filtered list takes, and where the first of them is', () => {
    const store = StoreReader.open(path.join(base, 'store.sqlite'));
    try {
      const filter = { from: null, to: null, state: 'post' as const };
      const finished = store.db
        .prepare("SELECT id FROM matches WHERE league_slug = 'eng.1' AND state = 'post' ORDER BY kickoff, id")
        .pluck()
        .all() as string[];
      const scheduled = store.db
        .prepare("SELECT id FROM matches WHERE league_slug = 'eng.1' AND state = 'pre' LIMIT 3")
        .pluck()
        .all() as string[];
      const some = [finished[42]!, finished[7]!, ...scheduled, 'no-such-match', finished.at(-1)!];
      expect(store.matches.taken('eng.1', filter, some)).toEqual({ taken: 3, first: 7 });
      expect(store.matches.taken('eng.1', filter, scheduled)).toEqual({ taken: 0, first: null });
      expect(store.matches.taken('eng.1', { ...filter, state: null }, scheduled).taken).toBe(3);
    } finally {
      store.close();
    }
  });
});
