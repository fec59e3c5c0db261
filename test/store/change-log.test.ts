/**
 * Change tracking (docs/json-api.md): each sync that changes data is one snapshot, and the change log
 * says exactly what it changed; a sync that changes nothing leaves the id, the times and the log alone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { render } from '../../src/app/render.js';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import { META_LAST_SUCCESS, META_SNAPSHOT_AT, getMeta, openStore } from '../../src/store/db.js';
import type { DB } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { KEPT_SNAPSHOTS, beginSnapshot, endSnapshot } from '../../src/store/snapshots.js';
import { FilesProvider } from '../../src/sync/providers/files.js';
import { runSync } from '../../src/sync/run-sync.js';
import { copyRecorded, editStore, recordSql, tempStore, unpackRecords } from '../helpers/store.js';

const sync = (db: DB, dir: string, at: string) =>
  runSync(db, new FilesProvider(dir), { leagues: LEAGUE_SLUGS, concurrency: 4, clock: () => new Date(at) });

const snapshots = (db: DB) => db.prepare('SELECT id, at FROM snapshots ORDER BY id').all();
const changesOf = (db: DB, id: number) =>
  db
    .prepare('SELECT kind, league_slug AS league, key FROM changes WHERE snapshot = ? ORDER BY kind, key')
    .all(id) as Array<{ kind: string; league: string; key: string }>;

/** Move match 9004's away score on the 2026-03-22 board: one match of one day changes. */
function scoreAway(dir: string, score: string): void {
  const file = path.join(dir, 'eng.1/scoreboard/20260322.json');
  const board = JSON.parse(fs.readFileSync(file, 'utf8'));
  const event = board.events.find((e: { id: string }) => e.id === '9004');
  event.competitions[0].competitors.find((c: { homeAway: string }) => c.homeAway === 'away').score = score;
  fs.writeFileSync(file, JSON.stringify(board));
}

function feed(file: string, query: string) {
  const store = StoreReader.open(file);
  try {
    const res = render(
      { method: 'GET', path: '/get/soccer/changes', rawQuery: query, headers: {} },
      {
        store,
        clock: () => new Date(),
      },
    );
    return { status: res.status, cache: res.headers['Cache-Control'], body: JSON.parse(res.body.toString()) };
  } finally {
    store.close();
  }
}

describe('change tracking', () => {
  it('gives each sync that changes data the next snapshot id and logs every record it changed', async () => {
    const { db } = tempStore();
    const dir = copyRecorded();
    await sync(db, dir, '2026-03-22T15:00:00Z');
    expect(snapshots(db)).toEqual([{ id: 1, at: '2026-03-22T15:00:00Z' }]);
    const kinds = new Set(changesOf(db, 1).map((c) => c.kind));
    expect([...kinds].sort()).toEqual(
      [
        'catalogue',
        'club',
        'day',
        'key-events',
        'league',
        'match',
        'order',
        'plays',
        'roster',
        'standings',
        'state',
        'summary',
      ].sort(),
    );
    expect(db.prepare("SELECT snapshot FROM matches WHERE id = '9004'").pluck().get()).toBe(1);

    scoreAway(dir, '2');
    await sync(db, dir, '2026-03-22T15:05:00Z');
    expect(snapshots(db)).toHaveLength(2);
    expect(changesOf(db, 2)).toEqual([
      { kind: 'day', league: 'eng.1', key: '20260322' },
      { kind: 'match', league: 'eng.1', key: '9004' },
    ]);
    expect(db.prepare("SELECT snapshot FROM matches WHERE id = '9004'").pluck().get()).toBe(2);
    expect(db.prepare("SELECT snapshot FROM matches WHERE id = '9001'").pluck().get()).toBe(1);
    db.close();
  });

  it("logs a match's progress apart from the rest of its record, when its state moves", async () => {
    const { db } = tempStore();
    const dir = copyRecorded();
    await sync(db, dir, '2026-03-22T15:00:00Z');
    const file = path.join(dir, 'eng.1/scoreboard/20260322.json');
    const board = JSON.parse(fs.readFileSync(file, 'utf8'));
    const event = board.events.find((e: { id: string }) => e.id === '9004');
    for (const status of [event.status, event.competitions[0].status]) {
      Object.assign(status.type, { name: 'STATUS_FULL_TIME', state: 'post', completed: true });
    }
    fs.writeFileSync(file, JSON.stringify(board));
    await sync(db, dir, '2026-03-22T17:00:00Z');
    expect(changesOf(db, 2).filter((c) => c.key === '9004')).toContainEqual({
      kind: 'state',
      league: 'eng.1',
      key: '9004',
    });
    db.close();
  });

  it("logs the league's kickoff order when a match's kickoff moves, even within its day", async () => {
    const { db } = tempStore();
    const dir = copyRecorded();
    await sync(db, dir, '2026-03-22T15:00:00Z');
    const order = { kind: 'order', league: 'eng.1', key: '' };
    expect(changesOf(db, 1)).toContainEqual(order);
    const file = path.join(dir, 'eng.1/scoreboard/20260322.json');
    const board = JSON.parse(fs.readFileSync(file, 'utf8'));
    const event = board.events.find((e: { id: string }) => e.id === '9004');
    const later = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString().replace(':00.000Z', 'Z');
    event.date = later(event.date);
    event.competitions[0].date = later(event.competitions[0].date);
    expect(event.date.slice(0, 10)).toBe('2026-03-22');
    fs.writeFileSync(file, JSON.stringify(board));
    await sync(db, dir, '2026-03-22T16:00:00Z');
    expect(changesOf(db, 2)).toContainEqual(order);
    expect(changesOf(db, 2)).toContainEqual({ kind: 'day', league: 'eng.1', key: '20260322' });
    db.close();
  });

  it('leaves the snapshot, the times and the log alone when a sync changes nothing', async () => {
    const { db } = tempStore();
    const dir = copyRecorded();
    await sync(db, dir, '2026-03-22T15:00:00Z');
    const before = {
      snapshots: snapshots(db),
      changes: db.prepare('SELECT count(*) FROM changes').pluck().get(),
      at: getMeta(db, META_SNAPSHOT_AT),
      ok: getMeta(db, META_LAST_SUCCESS),
    };
    const report = await sync(db, dir, '2026-03-22T16:00:00Z');
    expect(report.written).toBe(0);
    expect({
      snapshots: snapshots(db),
      changes: db.prepare('SELECT count(*) FROM changes').pluck().get(),
      at: getMeta(db, META_SNAPSHOT_AT),
      ok: getMeta(db, META_LAST_SUCCESS),
    }).toEqual(before);
    db.close();
  });

  it('logs nothing for a unit that failed, and a later clean sync says it recovered', async () => {
    const { db } = tempStore();
    const dir = copyRecorded();
    await sync(db, dir, '2026-03-22T15:00:00Z');
    scoreAway(dir, '3');
    fs.writeFileSync(path.join(dir, 'eng.1/standings/2025.json'), '{"children": [');
    const failed = await sync(db, dir, '2026-03-22T15:05:00Z');
    expect(failed.units.failed).toBe(1);
    // The good unit's change is a snapshot of its own; the failed one left no trace.
    expect(changesOf(db, 2).map((c) => c.kind)).toEqual(['day', 'match']);
    expect(getMeta(db, META_LAST_SUCCESS)).toBe('2026-03-22T15:00:00Z');

    fs.cpSync(path.join(copyRecorded(), 'eng.1/standings'), path.join(dir, 'eng.1/standings'), { recursive: true });
    const clean = await sync(db, dir, '2026-03-22T15:10:00Z');
    expect(clean.written).toBe(0);
    expect(getMeta(db, META_LAST_SUCCESS)).toBe('2026-03-22T15:10:00Z');
    expect(snapshots(db).at(-1)).toEqual({ id: 3, at: '2026-03-22T15:10:00Z' });
    expect(changesOf(db, 3)).toEqual([]);
    db.close();
  });

  it('never gives the id of a sync that did not finish to another', async () => {
    const { db, file } = tempStore();
    const dir = copyRecorded();
    await sync(db, dir, '2026-03-22T15:00:00Z');
    // A sync that crashed after allocating its id and committing one unit.
    db.prepare('INSERT INTO snapshots (id, at) VALUES (2, NULL)').run();
    db.prepare("INSERT INTO changes VALUES (2, 'match', 'eng.1', '9004')").run();
    scoreAway(dir, '4');
    await sync(db, dir, '2026-03-22T15:05:00Z');
    expect(snapshots(db)).toEqual([
      { id: 1, at: '2026-03-22T15:00:00Z' },
      { id: 2, at: null },
      { id: 3, at: '2026-03-22T15:05:00Z' },
    ]);
    db.close();
    // The feed lists only finished snapshots.
    expect(feed(file, '').body.snapshots.map((s: { id: number }) => s.id)).toEqual([3, 1]);
  });
});

describe("a connection's store state", () => {
  it("tells a connection from one that sees a sync's rows, its confirmation or a pruning, and not from one that sees a sync begin", () => {
    const { db: writer, file } = tempStore();
    const stateNow = () => {
      const reader = StoreReader.open(file);
      try {
        return reader.snapshots.state();
      } finally {
        reader.close();
      }
    };
    try {
      const first = editStore(file, () => {}, [['league', 'eng.1', '']]);
      const before = stateNow();
      const id = beginSnapshot(writer);
      expect(id).toBe(first + 1);
      expect(stateNow()).toBe(before);
      writer.prepare("INSERT INTO changes VALUES (?, 'match', 'eng.1', 'x')").run(id);
      const logged = stateNow();
      writer.prepare("INSERT INTO changes VALUES (?, 'match', 'eng.1', 'y')").run(id);
      const more = stateNow();
      endSnapshot(writer, id, '2030-01-01T00:00:00Z', true);
      const confirmed = stateNow();
      writer.prepare('DELETE FROM changes WHERE snapshot < ?').run(id);
      const pruned = stateNow();
      expect(new Set([before, logged, more, confirmed, pruned]).size).toBe(5);
    } finally {
      writer.close();
    }
  });
});

describe('the change feed', () => {
  it('lists, newest first, what each snapshot after `since` changed, with each match as it is now', async () => {
    const { db, file } = tempStore();
    const dir = copyRecorded();
    await sync(db, dir, '2026-03-22T15:00:00Z');
    scoreAway(dir, '2');
    await sync(db, dir, '2026-03-22T15:05:00Z');
    db.close();
    const { status, cache, body } = feed(file, 'since=1');
    expect(status).toBe(200);
    expect(cache).toBe('public, max-age=4');
    expect(body).toEqual({
      snapshot: { id: 2, at: '2026-03-22T15:05:00Z' },
      truncated: false,
      snapshots: [
        {
          id: 2,
          at: '2026-03-22T15:05:00Z',
          leagues: ['eng.1'],
          matches: [{ league: 'eng.1', id: '9004', state: 'in', homeScore: '0', awayScore: '2' }],
          clubs: [],
          standings: [],
        },
      ],
    });
    expect(feed(file, '').body.snapshots.map((s: { id: number }) => s.id)).toEqual([2, 1]);
    expect(feed(file, 'since=2').body.snapshots).toEqual([]);
    expect(feed(file, 'since=-1')).toMatchObject({ status: 400, body: { error: 'since must be a snapshot id' } });
  });

  it('lists the leagues and matches a snapshot changed, by league then id, one the store no longer has with null values', async () => {
    const { db, file } = tempStore();
    await sync(db, copyRecorded(), '2026-03-22T15:00:00Z');
    const ids = db.prepare("SELECT id FROM matches WHERE league_slug = 'eng.1' ORDER BY id").pluck().all() as string[];
    db.close();
    const [first, second] = [ids[0]!, ids[1]!];
    editStore(file, () => {}, [
      ['match', 'eng.1', second],
      ['summary', 'eng.1', first],
      ['plays', 'eng.1', second],
      ['match', 'esp.1', 'gone'],
    ]);
    const { leagues, matches } = feed(file, '').body.snapshots[0];
    expect(leagues).toEqual(['eng.1', 'esp.1']);
    expect(matches.map((m: { league: string; id: string }) => `${m.league}/${m.id}`)).toEqual([
      `eng.1/${first}`,
      `eng.1/${second}`,
      'esp.1/gone',
    ]);
    expect(matches[2]).toEqual({ league: 'esp.1', id: 'gone', state: null, homeScore: null, awayScore: null });
    expect(Object.keys(matches[0])).toEqual(['league', 'id', 'state', 'homeScore', 'awayScore']);
  });

  it('lists each score as the match record has it, text or number, whether synced or migrated', async () => {
    const { db, file } = tempStore();
    recordSql(db);
    await sync(db, copyRecorded(), '2026-03-22T15:00:00Z');
    // A record whose score is a number: the feed gives a number, as the record has it.
    const id = db.prepare("SELECT id FROM matches WHERE league_slug = 'eng.1' ORDER BY id LIMIT 1").pluck().get();
    const numeric = db.prepare(
      "UPDATE matches SET record = packed_record(json_set(record_text(record), '$.competitors[0].score', 3)) WHERE id = ?",
    );
    const mismatched = () =>
      db
        .prepare(
          `SELECT count(*) FROM matches WHERE home_score IS NOT (record_text(record) ->> '$.competitors[0].score')
           OR away_score IS NOT (record_text(record) ->> '$.competitors[1].score')
           OR typeof(home_score) <> typeof(record_text(record) ->> '$.competitors[0].score')`,
        )
        .pluck()
        .get();
    expect(db.prepare('SELECT count(*) FROM matches WHERE home_score IS NOT NULL').pluck().get()).toBeGreaterThan(0);
    expect(mismatched()).toBe(0);
    numeric.run(id);
    expect(mismatched()).toBe(1);
    // Migration 6 derives the columns from the records, as the writer stores them.
    unpackRecords(db);
    db.exec('DROP INDEX matches_scores'); // new in schema 7, which the migration rebuilds
    db.exec('ALTER TABLE matches DROP COLUMN home_score');
    db.exec('ALTER TABLE matches DROP COLUMN away_score');
    db.pragma('user_version = 5');
    db.close();
    openStore(file).close();
    const again = openStore(file);
    const row = again.prepare('SELECT home_score FROM matches WHERE id = ?').get(id) as { home_score: unknown };
    expect(row.home_score).toBe(3);
    again.close();
    const listed = feed(file, '').body.snapshots[0].matches.find((m: { id: string }) => m.id === id);
    expect(listed.homeScore).toBe(3);
  });

  it('says it is truncated when `since` is older than the log keeps, and starts at the oldest kept', async () => {
    const { db, file } = tempStore();
    await sync(db, copyRecorded(), '2026-03-22T15:00:00Z');
    db.close();
    for (let i = 0; i < KEPT_SNAPSHOTS + 5; i++) editStore(file, () => {}, [['league', 'eng.1', '']]);
    const { body } = feed(file, 'since=1');
    expect(body.truncated).toBe(true);
    expect(body.snapshots).toHaveLength(KEPT_SNAPSHOTS);
    expect(body.snapshots.at(-1).id).toBe(body.snapshot.id - KEPT_SNAPSHOTS + 1);
    expect(feed(file, `since=${body.snapshot.id - 3}`).body).toMatchObject({ truncated: false });
  });
});
