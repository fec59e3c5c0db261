/**
 * Integration: the real ESPN responses recorded in ../shared/fixtures/espn, synced through the
 * files provider. Expectations are read straight from the raw JSON, independently of the mapping.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/sync/run-sync.js';
import { FilesProvider } from '../../src/sync/providers/files.js';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import { SHARED_ESPN, dumpContent, readJson, storedRecord, storedSections, tempStore } from '../helpers/store.js';

const present = fs.existsSync(SHARED_ESPN);
if (!present) console.warn(`skipping the recorded-ESPN integration test: ${SHARED_ESPN} is absent`);

interface RawCompetitor {
  homeAway: string;
  score?: unknown;
  team: { id: string };
}
interface RawEvent {
  id: string;
  competitions: Array<{
    competitors: RawCompetitor[];
    status: { type: { name: string; state: string; completed: boolean } };
  }>;
}

function expectedMatches(): Map<
  string,
  { league: string; home: string; away: string; scores: Array<string | null>; status: string }
> {
  const out = new Map<
    string,
    { league: string; home: string; away: string; scores: Array<string | null>; status: string }
  >();
  for (const league of fs.readdirSync(SHARED_ESPN)) {
    if (!LEAGUE_SLUGS.includes(league)) continue;
    const dir = path.join(SHARED_ESPN, league, 'scoreboard');
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) {
      for (const e of readJson<{ events: RawEvent[] }>(path.join(dir, f)).events) {
        const c = e.competitions[0]!;
        const home = c.competitors.find((x) => x.homeAway === 'home')!;
        const away = c.competitors.find((x) => x.homeAway === 'away')!;
        const t = c.status.type;
        const scored = t.state === 'in' || (t.state === 'post' && t.completed);
        out.set(`${league}/${e.id}`, {
          league,
          home: home.team.id,
          away: away.team.id,
          scores: [home, away].map((x) => (scored ? String(x.score) : null)),
          status: t.name,
        });
      }
    }
  }
  return out;
}

describe.skipIf(!present)('sync of the recorded ESPN responses in ../shared', () => {
  it('stores every match of the 16 leagues once, with its ids, teams, scores and status', async () => {
    const { db } = tempStore();
    const report = await runSync(db, new FilesProvider(SHARED_ESPN), {
      leagues: LEAGUE_SLUGS,
      concurrency: 4,
      clock: () => new Date('2026-11-01T00:00:00Z'),
    });
    expect(report.failures).toEqual([]);

    const expected = expectedMatches();
    expect(expected.size).toBeGreaterThan(20);
    const rows = db
      .prepare('SELECT league_slug, id, home_id, away_id, status_name, record FROM matches')
      .all() as Array<{
      league_slug: string;
      id: string;
      home_id: string;
      away_id: string;
      status_name: string;
      record: Buffer;
    }>;
    // Summaries of matches on no recorded board still create the match (ita.1 554204 is on one).
    const fromBoards = rows.filter((r) => expected.has(`${r.league_slug}/${r.id}`));
    expect(fromBoards).toHaveLength(expected.size);
    for (const r of fromBoards) {
      const want = expected.get(`${r.league_slug}/${r.id}`)!;
      const rec = storedRecord<{ competitors: Array<{ score: string | null }> }>(r.record);
      expect(
        { home: r.home_id, away: r.away_id, status: r.status_name, scores: rec.competitors.map((c) => c.score) },
        r.id,
      ).toEqual({
        home: want.home,
        away: want.away,
        status: want.status,
        scores: want.scores,
      });
    }
    const leagues = new Set(rows.map((r) => r.league_slug));
    expect([...leagues].every((l) => LEAGUE_SLUGS.includes(l))).toBe(true);
    expect(report.ignored).toEqual(expect.arrayContaining(['fifa.world/', 'concacaf.leagues.cup/', 'extra/']));
  });

  it('stores the recorded plays, roster, teams and standings', async () => {
    const { db } = tempStore();
    await runSync(db, new FilesProvider(SHARED_ESPN), {
      leagues: LEAGUE_SLUGS,
      concurrency: 4,
      clock: () => new Date('2026-11-01T00:00:00Z'),
    });
    expect(db.prepare("SELECT count, complete FROM play_streams WHERE match_id = '740722'").get()).toEqual({
      count: 175,
      complete: 1,
    });
    // Page 1 of 2 only: stored, and known to be incomplete.
    expect(db.prepare("SELECT count, complete FROM play_streams WHERE match_id = '401877018'").get()).toEqual({
      count: 1000,
      complete: 0,
    });
    expect(db.prepare("SELECT count(*) FROM players WHERE club_id = '227'").pluck().get()).toBe(35);
    expect(db.prepare("SELECT count(*) FROM league_clubs WHERE league_slug = 'bra.1'").pluck().get()).toBe(20);
    const table = db
      .prepare("SELECT record_json FROM standings WHERE league_slug = 'eng.1' AND season = '2020'")
      .pluck()
      .get() as string;
    const group = JSON.parse(table) as { entries: Array<{ rank: number; team: { displayName: string } }> };
    expect(group.entries).toHaveLength(20);
    expect(group.entries[0]).toMatchObject({ rank: 1, team: { displayName: 'Manchester City' } });
    const summary = storedSections(db, 'ita.1', '554204')!;
    expect(Object.keys(summary)).toEqual(
      expect.arrayContaining(['header', 'boxscore', 'keyEvents', 'rosters', 'gameInfo', 'commentary']),
    );
  });

  it('is idempotent on real data', async () => {
    const { db } = tempStore();
    const opts = { leagues: LEAGUE_SLUGS, concurrency: 4, clock: () => new Date('2026-11-01T00:00:00Z') };
    await runSync(db, new FilesProvider(SHARED_ESPN), opts);
    const before = dumpContent(db);
    const again = await runSync(db, new FilesProvider(SHARED_ESPN), {
      ...opts,
      clock: () => new Date('2026-11-02T00:00:00Z'),
    });
    expect(again.written).toBe(0);
    expect(dumpContent(db)).toEqual(before);
  });
});
