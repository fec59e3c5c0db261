import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import type { ClubRecord } from '../../src/store/records.js';
import { json, syncDemo } from './helpers.js';
import type { DemoStore } from './helpers.js';

// The one test that syncs all 16 leagues at scale 1: it checks the size the contract promises.
describe('demo sync of all 16 leagues', () => {
  let store: DemoStore;
  let seconds: number;
  beforeAll(async () => {
    const started = performance.now();
    store = await syncDemo({ leagues: [...LEAGUE_SLUGS] });
    seconds = (performance.now() - started) / 1000;
  }, 300_000);
  afterAll(() => store?.cleanup());

  it('fills every league without a failed unit', () => {
    expect(store.report.failures).toEqual([]);
    const perLeague = store.db
      .prepare('SELECT league_slug, count(*) AS n FROM matches GROUP BY league_slug')
      .all() as Array<{ league_slug: string; n: number }>;
    expect(perLeague.map((r) => r.league_slug).sort()).toEqual([...LEAGUE_SLUGS].sort());
  });

  it('holds at least 5,000 matches and 100,000 plays', () => {
    const count = (sql: string) => store.db.prepare(sql).pluck().get() as number;
    expect(count('SELECT count(*) FROM matches')).toBeGreaterThanOrEqual(5_000);
    expect(count('SELECT sum(count) FROM play_streams')).toBeGreaterThanOrEqual(100_000);
    expect(count("SELECT count(*) FROM matches WHERE status_name = 'STATUS_POSTPONED'")).toBe(16);
    console.info(
      `demo sync: ${count('SELECT count(*) FROM matches')} matches, ` +
        `${count('SELECT sum(count) FROM play_streams')} plays in ${seconds.toFixed(1)}s`,
    );
  });

  it('gives 18–20 fictional clubs per league, with ids and names unique across the demo', () => {
    const rows = store.db
      .prepare('SELECT l.league_slug, c.record_json FROM league_clubs l JOIN clubs c ON c.id = l.club_id')
      .all() as Array<{ league_slug: string; record_json: string }>;
    const clubs = rows.map((r) => ({ league: r.league_slug, club: json<ClubRecord>(r.record_json) }));
    for (const slug of LEAGUE_SLUGS) {
      const mine = clubs.filter((c) => c.league === slug);
      expect(mine.length).toBeGreaterThanOrEqual(18);
      expect(mine.length).toBeLessThanOrEqual(20);
      expect(new Set(mine.map((c) => c.club.abbreviation)).size).toBe(mine.length);
    }
    expect(new Set(clubs.map((c) => c.club.id)).size).toBe(clubs.length);
    expect(new Set(clubs.map((c) => c.club.displayName)).size).toBe(clubs.length);
    for (const { club } of clubs) {
      expect(club.id).toMatch(/^9\d{5}$/);
      expect(club.uid).toBe(`s:600~t:${club.id}`);
      expect([club.color, club.alternateColor, club.logo, club.venue?.fullName, club.location].every(Boolean)).toBe(
        true,
      );
    }
    const players = store.db.prepare('SELECT count(*) AS n, count(DISTINCT id) AS d FROM players').get() as {
      n: number;
      d: number;
    };
    expect(players.d).toBe(players.n);
  });
});
