import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/store/db.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { TODAY, dayOf, matchdayNoon, syncAt, syncDemo } from './helpers.js';
import type { DemoStore } from './helpers.js';

/** Every table except sync_state, each in a total order, as plain rows. */
function dump(db: DB): Record<string, unknown[]> {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_master
       WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'sync_state' ORDER BY name`,
    )
    .pluck()
    .all() as string[];
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const cols = (db.prepare(`PRAGMA table_info(${t})`).all() as Array<{ name: string }>).map((c) => `"${c.name}"`);
    out[t] = db
      .prepare(`SELECT * FROM "${t}" ORDER BY ${cols.join(', ')}`)
      .raw()
      .all();
  }
  return out;
}

// Each of these runs whole syncs; a busy 2-core machine needs more than the default minute.
describe('demo provider determinism', { timeout: 180_000 }, () => {
  const stores: DemoStore[] = [];
  afterAll(() => {
    for (const s of stores) s.cleanup();
  });
  const leagues = ['sco.1', 'usa.1'];
  // Half a season per league keeps the repeated syncs quick; the layout rules are the same.

  it('two syncs with the same seed and clock produce identical stores', async () => {
    const a = await syncDemo({ leagues, seed: 7, scale: 0.5 });
    const b = await syncDemo({ leagues, seed: 7, scale: 0.5 });
    stores.push(a, b);
    expect(a.report.units.failed).toBe(0);
    const da = dump(a.db);
    expect(da.matches!.length).toBeGreaterThan(250);
    expect(da.play_streams!.length).toBeGreaterThan(150);
    expect(dump(b.db)).toEqual(da);
  });

  it('a different seed produces different content', async () => {
    const a = stores[0] ?? (await syncDemo({ leagues, seed: 7, scale: 0.5 }));
    const c = await syncDemo({ leagues, seed: 8, scale: 0.5 });
    stores.push(c);
    const da = dump(a.db);
    const dc = dump(c.db);
    expect(dc.matches).not.toEqual(da.matches);
    expect(dc.clubs).not.toEqual(da.clubs);
    expect(dc.play_streams).not.toEqual(da.play_streams);
  });

  it('depends on neither Math.random nor the wall clock', async () => {
    const random = vi.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('Math.random called');
    });
    const now = matchdayNoon(['eng.1'], TODAY, 3);
    const sample = async () => {
      const p = createDemoProvider({ seed: 3, now, scale: 1, weight: 'light' });
      const days = await p.scoreboardDates('eng.1');
      const ids = (await p.eventIds('eng.1', [])).filter((_, i) => i % 23 === 0);
      return {
        board: await p.scoreboard('eng.1', days.find((d) => d === dayOf(now))!),
        summaries: await Promise.all(ids.map((id) => p.summary('eng.1', id))),
        plays: await Promise.all(ids.map((id) => p.plays('eng.1', id))),
        roster: await p.roster('eng.1', (await p.rosterTeamIds('eng.1', []))[0]!),
        standings: await p.standings('eng.1', null),
      };
    };
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2001-01-01T00:00:00Z'));
      const early = await sample();
      vi.setSystemTime(new Date('2040-06-15T18:30:00Z'));
      const late = await sample();
      expect(early.plays.some((p) => p !== undefined)).toBe(true);
      expect(early.board).toBeDefined();
      expect(late).toEqual(early);
    } finally {
      vi.useRealTimers();
      random.mockRestore();
    }
  });

  it('generates the same payload whatever order it is asked in', async () => {
    const p1 = createDemoProvider({ seed: 5, today: TODAY, scale: 1, weight: 'light' });
    const p2 = createDemoProvider({ seed: 5, today: TODAY, scale: 1, weight: 'light' });
    const ids = await p1.eventIds('ita.1', []);
    const probe = ids.filter((_, i) => i % 61 === 0);
    expect(probe.length).toBeGreaterThan(2);
    // p2 is warmed up with other requests first; p1 answers cold.
    for (const id of ids.slice(0, 30)) await p2.plays('ita.1', id);
    await p2.standings('ita.1', null);
    for (const id of probe) {
      expect(await p2.summary('ita.1', id)).toEqual(await p1.summary('ita.1', id));
      expect(await p2.plays('ita.1', id)).toEqual(await p1.plays('ita.1', id));
    }
  });

  it('writes nothing when the same seed and clock are synced again', async () => {
    const a = stores[0] ?? (await syncDemo({ leagues, seed: 7, scale: 0.5 }));
    const before = dump(a.db);
    const again = await syncAt(a.db, leagues, a.now, 7, 0.5);
    expect(again.failures).toEqual([]);
    expect(again.written).toBe(0);
    expect(dump(a.db)).toEqual(before);
  });
});
