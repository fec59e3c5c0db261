import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchRecord, StandingsGroupRecord } from '../../src/store/records.js';
import { SUMMARY_SECTIONS } from '../../src/store/records.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { TODAY, dayOf, iso, json, syncDemo } from './helpers.js';
import { storedSections } from '../helpers/store.js';
import type { DemoStore } from './helpers.js';

interface MatchRow {
  league_slug: string;
  id: string;
  kickoff: string;
  scoreboard_date: string;
  state: string;
  status_name: string;
  completed: number;
  season_year: number | null;
  /** The record as stored: packed (schema 12). */
  record_json: Buffer;
}

const LEAGUES = ['sco.1', 'usa.1'];

// The clock is noon on a day both leagues play (helpers.matchdayNoon).
describe('demo season in the store', () => {
  let store: DemoStore;
  let rows: MatchRow[];
  let NOW: string;
  let DAY: string;
  beforeAll(async () => {
    store = await syncDemo({ leagues: LEAGUES });
    NOW = iso(store.now);
    DAY = dayOf(store.now);
    rows = store.db
      .prepare('SELECT *, record AS record_json FROM matches ORDER BY league_slug, kickoff, id')
      .all() as MatchRow[];
  });
  afterAll(() => store.cleanup());

  it('syncs every unit without a failure', () => {
    expect(store.report.failures).toEqual([]);
    expect(store.report.units.ok).toBeGreaterThan(1000);
  });

  it('holds a full double round robin per league', () => {
    for (const league of LEAGUES) {
      const clubs = store.db
        .prepare('SELECT count(*) FROM league_clubs WHERE league_slug = ?')
        .pluck()
        .get(league) as number;
      expect(clubs).toBeGreaterThanOrEqual(18);
      expect(clubs).toBeLessThanOrEqual(20);
      const mine = rows.filter((r) => r.league_slug === league);
      expect(mine).toHaveLength(clubs * (clubs - 1));
      const pairs = new Set(
        mine.map((r) => {
          const m = json<MatchRecord>(r.record_json);
          return `${m.competitors[0]!.id}-${m.competitors[1]!.id}`;
        }),
      );
      expect(pairs.size).toBe(clubs * (clubs - 1));
    }
  });

  it('holds finished, live, scheduled and exactly one postponed match per league', () => {
    for (const league of LEAGUES) {
      const mine = rows.filter((r) => r.league_slug === league);
      const names = new Set(mine.map((r) => r.status_name));
      for (const n of [
        'STATUS_FULL_TIME',
        'STATUS_FIRST_HALF',
        'STATUS_HALFTIME',
        'STATUS_SECOND_HALF',
        'STATUS_SCHEDULED',
      ])
        expect(names).toContain(n);
      const postponed = mine.filter((r) => r.status_name === 'STATUS_POSTPONED');
      expect(postponed).toHaveLength(1);
      const p = json<MatchRecord>(postponed[0]!.record_json);
      expect([postponed[0]!.state, postponed[0]!.completed, p.competitors.map((c) => c.score)]).toEqual([
        'post',
        0,
        [null, null],
      ]);
    }
  });

  it('splits the season at the clock: finished before it, live across it, scheduled after it', () => {
    for (const r of rows.filter((x) => x.status_name !== 'STATUS_POSTPONED')) {
      if (r.state === 'post') expect(r.kickoff < NOW).toBe(true);
      if (r.state === 'pre') expect(r.kickoff > NOW).toBe(true);
      if (r.state === 'in') expect([r.scoreboard_date, r.kickoff < NOW]).toEqual([DAY, true]);
    }
    const pre = rows.filter((r) => r.state === 'pre');
    expect(pre.some((r) => r.scoreboard_date === DAY)).toBe(true);
    expect(pre.some((r) => r.scoreboard_date > DAY)).toBe(true);
    // March: the split season (from July) is well past half-way, the calendar-year one (from January) is not.
    const finished = (league: string) =>
      rows.filter((r) => r.league_slug === league && r.state === 'post' && r.completed === 1).length /
      rows.filter((r) => r.league_slug === league).length;
    expect(finished('sco.1')).toBeGreaterThan(0.6);
    expect(finished('usa.1')).toBeGreaterThan(0.1);
    expect(finished('usa.1')).toBeLessThan(0.4);
  });

  it('gives live matches clocks that fit their status', () => {
    const live = rows.filter((x) => x.state === 'in');
    // Every branch below must meet at least one match, or it checks nothing.
    expect(new Set(live.map((r) => r.status_name))).toEqual(
      new Set(['STATUS_FIRST_HALF', 'STATUS_HALFTIME', 'STATUS_SECOND_HALF']),
    );
    for (const r of live) {
      const s = json<MatchRecord>(r.record_json).status;
      if (s.type.name === 'STATUS_FIRST_HALF') expect([s.period, s.clock > 0 && s.clock <= 2700]).toEqual([1, true]);
      if (s.type.name === 'STATUS_HALFTIME') expect([s.period, s.clock, s.displayClock]).toEqual([1, 2700, 'HT']);
      if (s.type.name === 'STATUS_SECOND_HALF')
        expect([s.period, s.clock > 2700 && s.clock <= 5400]).toEqual([2, true]);
    }
  });

  it('names the season by its start year (calendar-year vs split seasons)', () => {
    const seasonOf = (league: string) =>
      json<{ year: number; displayName: string }>(
        store.db.prepare('SELECT season_json FROM leagues WHERE slug = ?').pluck().get(league) as string,
      );
    expect(seasonOf('usa.1')).toEqual({ year: 2026, displayName: '2026 MLS' });
    expect(seasonOf('sco.1')).toEqual({ year: 2025, displayName: '2025-26 Scottish Premiership' });
    expect(new Set(rows.filter((r) => r.league_slug === 'sco.1').map((r) => r.season_year))).toEqual(new Set([2025]));
  });

  it('stores a summary with every section for every match', () => {
    const summaries = store.db.prepare('SELECT league_slug, match_id FROM match_summaries').all() as Array<{
      league_slug: string;
      match_id: string;
    }>;
    expect(summaries).toHaveLength(rows.length);
    for (const s of summaries) {
      expect(Object.keys(storedSections(store.db, s.league_slug, s.match_id)!)).toEqual([...SUMMARY_SECTIONS]);
    }
  });

  it('stores standings that agree with the finished results (3/1/0)', () => {
    for (const league of LEAGUES) {
      const expected = new Map<
        string,
        {
          gamesPlayed: number;
          wins: number;
          ties: number;
          losses: number;
          pointsFor: number;
          pointsAgainst: number;
          points: number;
        }
      >();
      for (const r of rows.filter((x) => x.league_slug === league && x.state === 'post' && x.completed === 1)) {
        const [h, a] = json<MatchRecord>(r.record_json).competitors as [
          MatchRecord['competitors'][0],
          MatchRecord['competitors'][0],
        ];
        for (const [me, them] of [
          [h, a],
          [a, h],
        ] as const) {
          const e = expected.get(me.id) ?? {
            gamesPlayed: 0,
            wins: 0,
            ties: 0,
            losses: 0,
            pointsFor: 0,
            pointsAgainst: 0,
            points: 0,
          };
          const [f, g] = [Number(me.score), Number(them.score)];
          e.gamesPlayed++;
          e.pointsFor += f;
          e.pointsAgainst += g;
          if (f > g) {
            e.wins++;
            e.points += 3;
          } else if (f === g) {
            e.ties++;
            e.points += 1;
          } else e.losses++;
          expected.set(me.id, e);
        }
      }
      const groups = (
        store.db.prepare('SELECT record_json FROM standings WHERE league_slug = ?').pluck().all(league) as string[]
      ).map((j) => json<StandingsGroupRecord>(j));
      expect(groups).toHaveLength(1);
      const entries = groups[0]!.entries;
      expect(entries).toHaveLength(expected.size);
      entries.forEach((entry, i) => {
        const stat = (name: string) => entry.stats.find((s) => s.name === name)?.value;
        const want = expected.get(entry.team.id)!;
        for (const [name, value] of Object.entries(want))
          expect([entry.team.id, name, stat(name)]).toEqual([entry.team.id, name, value]);
        expect(stat('pointDifferential')).toBe(want.pointsFor - want.pointsAgainst);
        expect([entry.rank, stat('rank')]).toEqual([i + 1, i + 1]);
        if (i > 0)
          expect(stat('points')!).toBeLessThanOrEqual(entries[i - 1]!.stats.find((s) => s.name === 'points')!.value!);
      });
    }
  });

  it('gives every club a roster of 22–26 players with positions and a coach', () => {
    const clubs = store.db.prepare('SELECT club_id FROM league_clubs').pluck().all() as string[];
    expect(clubs.length).toBeGreaterThanOrEqual(LEAGUES.length * 18);
    for (const id of clubs) {
      const players = (
        store.db.prepare('SELECT record_json FROM players WHERE club_id = ?').pluck().all(id) as string[]
      ).map((j) =>
        json<{
          displayName: string;
          jersey: string;
          position: { abbreviation: string };
          age: number;
          citizenship: string;
        }>(j),
      );
      expect(players.length).toBeGreaterThanOrEqual(22);
      expect(players.length).toBeLessThanOrEqual(26);
      expect(new Set(players.map((p) => p.position.abbreviation))).toEqual(new Set(['G', 'D', 'M', 'F']));
      expect(new Set(players.map((p) => p.jersey)).size).toBe(players.length);
      for (const p of players)
        expect(p.age >= 17 && p.age <= 37 && p.citizenship.length > 0 && p.displayName.length > 0).toBe(true);
      const coach = store.db.prepare('SELECT coach_json FROM clubs WHERE id = ?').pluck().get(id) as string | null;
      expect(json<{ displayName: string }>(coach!).displayName).toMatch(/\S+ \S+/);
    }
  });
});

describe('demo provider options', () => {
  it('scales the number of matchdays with --scale', async () => {
    const count = async (scale: number) =>
      (await createDemoProvider({ seed: 1, today: TODAY, scale, weight: 'light' }).eventIds('sco.1', [])).length;
    expect(await count(1)).toBe(18 * 17);
    expect(await count(2)).toBe(2 * 18 * 17);
    expect(await count(0.5)).toBe(17 * 9);
  });

  it('has nothing for unknown leagues, events or clubs, and no play stream before kickoff', async () => {
    const p = createDemoProvider({ seed: 1, today: TODAY, scale: 1, weight: 'light' });
    expect(await p.scoreboardDates('xyz.1')).toEqual([]);
    expect(await p.summary('eng.1', '1')).toBeUndefined();
    expect(await p.roster('eng.1', '1')).toBeUndefined();
    expect(await p.scoreboard('eng.1', '19990101')).toBeUndefined();
    const ids = await p.eventIds('eng.1', []);
    const last = ids.at(-1)!;
    expect(await p.plays('eng.1', last)).toBeUndefined();
    expect(await p.summary('eng.1', last)).toMatchObject({
      header: { competitions: [{ status: { type: { state: 'pre' } } }] },
    });
  });

  it('rejects an invalid clock, seed or scale', () => {
    expect(() => createDemoProvider({ seed: 1, today: '20260230', scale: 1 })).toThrow(/YYYYMMDD/);
    expect(() => createDemoProvider({ seed: 1, now: new Date(Number.NaN), scale: 1 })).toThrow(/instant/);
    expect(() => createDemoProvider({ seed: 1, scale: 1 })).toThrow(/exactly one of now and today/);
    expect(() => createDemoProvider({ seed: 1, today: TODAY, now: new Date(), scale: 1 })).toThrow(/exactly one/);
    expect(() => createDemoProvider({ seed: 1, today: TODAY, scale: 0 })).toThrow(/scale/);
    expect(() => createDemoProvider({ seed: 1.5, today: TODAY, scale: 1 })).toThrow(/seed/);
  });
});
