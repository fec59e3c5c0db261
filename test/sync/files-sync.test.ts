import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/sync/run-sync.js';
import { FilesProvider } from '../../src/sync/providers/files.js';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import type { DB } from '../../src/store/db.js';
import { RECORDED, copyRecorded, dumpContent, storedPlays, tempStore } from '../helpers/store.js';

const clock = (iso: string) => () => new Date(iso);

function sync(db: DB, dir: string, at = '2026-03-22T15:00:00Z') {
  return runSync(db, new FilesProvider(dir), { leagues: LEAGUE_SLUGS, concurrency: 4, clock: clock(at) });
}

describe('sync from recorded files', () => {
  it('stores every match, the summary, the plays, the roster with its coach, and the standings', async () => {
    const { db } = tempStore();
    const report = await sync(db, RECORDED);
    expect(report.units.failed).toBe(0);
    const matches = db
      .prepare("SELECT id, state, status_name FROM matches WHERE league_slug = 'eng.1' ORDER BY id")
      .all();
    expect(matches).toEqual([
      { id: '9001', state: 'post', status_name: 'STATUS_FULL_TIME' },
      { id: '9002', state: 'pre', status_name: 'STATUS_SCHEDULED' },
      { id: '9003', state: 'post', status_name: 'STATUS_POSTPONED' },
      { id: '9004', state: 'in', status_name: 'STATUS_SECOND_HALF' },
    ]);
    expect(storedPlays(db, 'eng.1', '9001')).toHaveLength(8);
    expect(db.prepare('SELECT complete FROM play_streams WHERE match_id = ?').pluck().get('9001')).toBe(1);
    expect(
      JSON.parse(db.prepare("SELECT coach_json FROM clubs WHERE id = '1001'").pluck().get() as string),
    ).toMatchObject({ displayName: 'Eve Harbour' });
    expect(db.prepare("SELECT count(*) FROM players WHERE club_id = '1001'").pluck().get()).toBe(3);
    expect(db.prepare("SELECT season, group_id FROM standings WHERE league_slug = 'eng.1'").all()).toEqual([
      { season: '2025', group_id: '1' },
    ]);
    expect(db.prepare("SELECT season_json FROM leagues WHERE slug = 'eng.1'").pluck().get()).toBe(
      '{"year":2025,"displayName":"2025-26 English Premier League"}',
    );
  });

  it('names the athletes of core plays from the match lineup and the club roster', async () => {
    const { db } = tempStore();
    await sync(db, RECORDED);
    const og = storedPlays(db, 'eng.1', '9001').find((p) => p.id === '70005') as any;
    // 7001 is not in the lineup but is in Harbour Town's roster.
    expect(og.participants[0].athlete).toEqual({ id: '7001', displayName: 'Dan Holt' });
    expect(og.team).toEqual({ id: '1002', displayName: 'Millbrook United', abbreviation: 'MIL' });
  });

  it('ignores leagues outside the 16 and files outside the layout, and says so', async () => {
    const { db } = tempStore();
    const report = await sync(db, RECORDED);
    expect(report.ignored).toEqual(expect.arrayContaining(['fifa.world/', 'eng.1/README.txt']));
    expect(db.prepare("SELECT count(*) FROM matches WHERE id = '9999'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM leagues WHERE slug = 'fifa.world'").pluck().get()).toBe(0);
  });

  it('changes nothing when the same files are synced twice', async () => {
    const { db } = tempStore();
    await sync(db, RECORDED, '2026-03-22T15:00:00Z');
    const before = dumpContent(db);
    const again = await sync(db, RECORDED, '2026-03-22T16:00:00Z');
    expect(again.written).toBe(0);
    expect(again.units.ok).toBeGreaterThan(0);
    const after = dumpContent(db);
    // Only the run bookkeeping moves; every record and its freshness stay as they were.
    expect(after).toEqual(before);
    expect(after.store_meta).toContain(JSON.stringify({ key: 'snapshot_at', value: '2026-03-22T15:00:00Z' }));
  });

  it(
    "keeps every other unit and the damaged unit's stored data when " + 'one file is corrupt, and reports the failure',
    async () => {
      const { db } = tempStore();
      await sync(db, RECORDED);
      const storedLive = db.prepare("SELECT record FROM matches WHERE id = '9004'").pluck().get();

      const dir = copyRecorded();
      // The live board is rewritten with a new score but cut off half-way through.
      const file = path.join(dir, 'eng.1/scoreboard/20260322.json');
      const text = fs.readFileSync(file, 'utf8').replace('"score": "1"', '"score": "2"');
      fs.writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
      // …and another unit changes, to prove it is still stored.
      const rosterFile = path.join(dir, 'eng.1/roster/1001.json');
      fs.writeFileSync(rosterFile, fs.readFileSync(rosterFile, 'utf8').replace('"Ada Stone"', '"Ada Stone-Marsh"'));

      const report = await sync(db, dir, '2026-03-22T16:00:00Z');
      expect(report.units.failed).toBe(1);
      expect(report.failures[0]).toMatchObject({ league: 'eng.1', resource: 'scoreboard', key: '20260322' });
      expect(report.failures[0]!.error).toMatch(/not valid JSON/);
      expect(db.prepare("SELECT record FROM matches WHERE id = '9004'").pluck().get()).toEqual(storedLive);
      expect(db.prepare("SELECT count(*) FROM players WHERE record_json LIKE '%Ada Stone-Marsh%'").pluck().get()).toBe(
        1,
      );
      const state = db
        .prepare(
          `SELECT last_error, last_success_at FROM sync_state
           WHERE resource = 'scoreboard' AND resource_key = '20260322'`,
        )
        .get() as {
        last_error: string;
        last_success_at: string;
      };
      expect(state.last_error).toMatch(/not valid JSON/);
      expect(state.last_success_at).toBe('2026-03-22T15:00:00Z');
      expect(db.prepare("SELECT value FROM store_meta WHERE key = 'last_successful_sync_at'").pluck().get()).toBe(
        '2026-03-22T15:00:00Z',
      );
    },
  );

  it('does not let an invalid payload or an empty one erase what is stored', async () => {
    const { db } = tempStore();
    await sync(db, RECORDED);
    const dir = copyRecorded();
    fs.writeFileSync(path.join(dir, 'eng.1/summary/9001.json'), JSON.stringify({ boxscore: {} }));
    fs.writeFileSync(path.join(dir, 'eng.1/roster/1001.json'), JSON.stringify({ athletes: [] }));
    for (const p of [1, 2, 3]) fs.rmSync(path.join(dir, `eng.1/plays/9001-${p}.json`));
    fs.writeFileSync(
      path.join(dir, 'eng.1/plays/9001.json'),
      JSON.stringify({ count: 0, pageIndex: 0, pageSize: 1000, pageCount: 0, items: [] }),
    );
    const report = await sync(db, dir);
    expect(report.failures.map((f) => f.resource)).toEqual(['summary']);
    expect(db.prepare("SELECT count(*) FROM match_summaries WHERE match_id = '9001'").pluck().get()).toBe(1);
    expect(db.prepare("SELECT count(*) FROM players WHERE club_id = '1001'").pluck().get()).toBe(3);
    expect(storedPlays(db, 'eng.1', '9001')).toHaveLength(8);
  });

  it("moves a league's lastSyncedAt and the snapshot time only when its data changed", async () => {
    const { db } = tempStore();
    await sync(db, RECORDED, '2026-03-22T15:00:00Z');
    const dir = copyRecorded();
    const file = path.join(dir, 'eng.1/scoreboard/20260322.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"58\'"', '"59\'"'));
    await sync(db, dir, '2026-03-22T15:01:00Z');
    expect(db.prepare("SELECT last_synced_at FROM leagues WHERE slug = 'eng.1'").pluck().get()).toBe(
      '2026-03-22T15:01:00Z',
    );
    expect(db.prepare("SELECT last_synced_at FROM leagues WHERE slug = 'esp.1'").pluck().get()).toBeNull();
    expect(db.prepare("SELECT value FROM store_meta WHERE key = 'snapshot_at'").pluck().get()).toBe(
      '2026-03-22T15:01:00Z',
    );
  });
});
