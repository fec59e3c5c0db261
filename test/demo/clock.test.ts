/**
 * The demo clock only moves through a fixed calendar. A later sync of the same store rewrites exactly the
 * matches whose progress changed, each club's next fixture (which learns its form going in once the
 * club's previous match is over) and the standings; every other stored record stays byte-identical.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import type { DB } from '../../src/store/db.js';
import type { MatchRecord } from '../../src/store/records.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { iso, json, syncAt, syncDemo } from './helpers.js';
import { storedPlays } from '../helpers/store.js';
import type { DemoStore } from './helpers.js';

const LEAGUES = ['eng.1', 'usa.1'];
const MINUTE = 60_000;
const DAY = 86_400_000;

/** Primary key columns of every content table (sync_state is bookkeeping about runs, not data). */
const TABLES: Record<string, string[]> = {
  leagues: ['slug'],
  clubs: ['id'],
  league_clubs: ['league_slug', 'club_id'],
  players: ['club_id', 'id'],
  rosters: ['club_id'],
  matches: ['league_slug', 'id'],
  match_summaries: ['league_slug', 'match_id'],
  play_streams: ['league_slug', 'match_id'],
  standings: ['league_slug', 'season', 'group_id'],
};

type Row = Record<string, unknown>;

function table(db: DB, name: string): Map<string, Row> {
  const keys = TABLES[name]!;
  const rows = db.prepare(`SELECT * FROM ${name}`).all() as Row[];
  return new Map(rows.map((r) => [keys.map((k) => r[k]).join('|'), r]));
}

/** Keys of the rows that differ in any column, or exist on one side only. */
function changedKeys(before: Map<string, Row>, after: Map<string, Row>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => JSON.stringify(before.get(k)) !== JSON.stringify(after.get(k))).sort();
}

interface MatchRow {
  league_slug: string;
  id: string;
  kickoff: string;
  state: string;
  status_name: string;
  completed: number;
  record: MatchRecord;
}

const matchKey = (m: { league_slug: string; id: string }) => `${m.league_slug}|${m.id}`;

function matches(db: DB): Map<string, MatchRow> {
  const rows = db.prepare('SELECT * FROM matches ORDER BY kickoff, id').all() as Array<
    Omit<MatchRow, 'record'> & { record: Buffer }
  >;
  return new Map(rows.map((r) => [matchKey(r), { ...r, record: json<MatchRecord>(r.record) }]));
}

const finished = (m: MatchRow) => m.state === 'post' && m.completed === 1;
const postponed = (m: MatchRow) => m.status_name === 'STATUS_POSTPONED';
const clubsOf = (m: MatchRow) => m.record.competitors.map((c) => c.id);

/** The club's next fixture after a match, by kickoff (the postponed one never comes). */
function nextFixture(all: MatchRow[], club: string, after: MatchRow): MatchRow | undefined {
  return all.find(
    (m) =>
      m.league_slug === after.league_slug && !postponed(m) && m.kickoff > after.kickoff && clubsOf(m).includes(club),
  );
}

/** A copy of the store synced again at a later clock, next to the matches before and after. */
async function advance(base: DemoStore, later: Date) {
  const file = path.join(path.dirname(base.file), `at-${later.getTime()}.sqlite`);
  await base.db.backup(file);
  const db = openStore(file);
  const report = await syncAt(db, LEAGUES, later);
  return { db, report, later };
}

describe('advancing the demo clock', { timeout: 180_000 }, () => {
  let base: DemoStore;
  let dayLater: Awaited<ReturnType<typeof advance>>;
  let minuteLater: Awaited<ReturnType<typeof advance>>;
  beforeAll(async () => {
    base = await syncDemo({ leagues: LEAGUES });
    dayLater = await advance(base, new Date(base.now.getTime() + DAY));
    minuteLater = await advance(base, new Date(base.now.getTime() + MINUTE));
  });
  afterAll(() => {
    dayLater?.db.close();
    minuteLater?.db.close();
    base?.cleanup();
  });

  it('a day later rewrites exactly the matches that moved on and the next fixtures that learned their form', () => {
    const before = matches(base.db);
    const after = matches(dayLater.db);
    const until = iso(dayLater.later);
    // Everything that was not over and kicked off by the new clock has progressed.
    const moved = [...before.values()].filter((m) => !postponed(m) && !finished(m) && m.kickoff <= until);
    const justFinished = moved.filter((m) => finished(after.get(matchKey(m))!));
    const movedKeys = new Set(moved.map(matchKey));
    const learned = new Map<string, MatchRow>();
    for (const m of justFinished) {
      for (const club of clubsOf(m)) {
        const next = nextFixture([...after.values()], club, m);
        if (next && !movedKeys.has(matchKey(next))) learned.set(matchKey(next), next);
      }
    }
    const expected = [...movedKeys, ...learned.keys()].sort();
    console.info(
      `a day later: ${moved.length} matches progressed (${justFinished.length} finished), ` +
        `${learned.size} next fixtures learned their form, of ${before.size} matches`,
    );
    expect(justFinished.length).toBeGreaterThanOrEqual(6);
    expect(learned.size).toBeGreaterThan(0);
    expect(changedKeys(table(base.db, 'matches'), table(dayLater.db, 'matches'))).toEqual(expected);
    expect(changedKeys(table(base.db, 'match_summaries'), table(dayLater.db, 'match_summaries'))).toEqual(expected);
    for (const [key, m] of learned) {
      const form = (r: MatchRow) => r.record.competitors.map((c) => c.form);
      expect(form(before.get(key)!)).toContain(null);
      expect(form(m)).not.toEqual(form(before.get(key)!));
    }
    // Play streams: only matches in play change, and every match that finished has its full-time whistle.
    const streams = changedKeys(table(base.db, 'play_streams'), table(dayLater.db, 'play_streams'));
    for (const key of streams) expect(movedKeys.has(key), key).toBe(true);
    for (const m of justFinished) expect(streams).toContain(matchKey(m));
    // What changed is stamped with the new clock.
    for (const key of expected) expect(table(dayLater.db, 'matches').get(key)!.last_synced_at).toBe(until);
  });

  it('a minute later rewrites only the matches in play, not the one at half-time', () => {
    const before = matches(base.db);
    const live = [...before.values()].filter((m) => m.state === 'in');
    const ticking = live.filter((m) => m.status_name !== 'STATUS_HALFTIME').map(matchKey);
    expect(live).toHaveLength(3 * LEAGUES.length);
    expect(ticking).toHaveLength(2 * LEAGUES.length);
    expect(changedKeys(table(base.db, 'matches'), table(minuteLater.db, 'matches'))).toEqual(ticking.sort());
    expect(changedKeys(table(base.db, 'match_summaries'), table(minuteLater.db, 'match_summaries'))).toEqual(
      ticking.sort(),
    );
    for (const key of changedKeys(table(base.db, 'play_streams'), table(minuteLater.db, 'play_streams')))
      expect(ticking).toContain(key);
  });

  it('keeps clubs, players, rosters and league info byte-identical', () => {
    for (const later of [dayLater, minuteLater]) {
      for (const name of ['clubs', 'league_clubs', 'players', 'rosters'])
        expect([name, changedKeys(table(base.db, name), table(later.db, name))]).toEqual([name, []]);
      const leagues = (db: DB) =>
        (db.prepare('SELECT * FROM leagues ORDER BY slug').all() as Row[]).map(({ last_synced_at, ...rest }) => rest);
      expect(leagues(later.db)).toEqual(leagues(base.db));
      const stamp = later.db.prepare("SELECT value FROM store_meta WHERE key = 'snapshot_at'").pluck().get();
      expect(stamp).toBe(iso(later.later));
    }
  });

  it('rewrites the standings only of leagues in which a match finished', () => {
    expect(changedKeys(table(base.db, 'standings'), table(dayLater.db, 'standings'))).toEqual(
      LEAGUES.map((l) => `${l}|${l === 'usa.1' ? 2026 : 2025}|1`),
    );
    expect(changedKeys(table(base.db, 'standings'), table(minuteLater.db, 'standings'))).toEqual([]);
  });

  it("gives a match its clubs' form going into it, known once each club's previous match is over", () => {
    const all = [...matches(base.db).values()];
    let checked = 0;
    for (const m of all.filter((x) => !postponed(x))) {
      m.record.competitors.forEach((c) => {
        const earlier = all.filter(
          (x) => x.league_slug === m.league_slug && x.kickoff < m.kickoff && !postponed(x) && clubsOf(x).includes(c.id),
        );
        if (!earlier.every(finished)) {
          expect(c.form, `${m.id} ${c.id}`).toBeNull();
          return;
        }
        const results = earlier.map((x) => {
          const [mine, theirs] = x.record.competitors[0]!.id === c.id ? [0, 1] : [1, 0];
          const [f, a] = [Number(x.record.competitors[mine]!.score), Number(x.record.competitors[theirs]!.score)];
          return f > a ? 'W' : f === a ? 'D' : 'L';
        });
        expect(c.form, `${m.id} ${c.id}`).toBe(results.slice(-5).join(''));
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('shows a live match with the score and plays up to the minute of the clock', async () => {
    const final = matches(dayLater.db);
    const earliest = [...matches(base.db).values()].find((m) => m.league_slug === 'eng.1' && m.state === 'in')!;
    const playsOf = (db: DB) =>
      storedPlays<{ wallclock: string; homeScore: number; awayScore: number }>(db, 'eng.1', earliest.id);
    const full = playsOf(dayLater.db);
    expect(finished(final.get(matchKey(earliest))!)).toBe(true);
    const kickoff = Date.parse(earliest.kickoff);
    const seen = new Set<string>();
    for (const minutes of [20, 50, 75]) {
      const at = new Date(kickoff + minutes * MINUTE);
      const store = await syncDemo({ leagues: ['eng.1'], now: at });
      try {
        const m = matches(store.db).get(matchKey(earliest))!;
        const shown = playsOf(store.db);
        seen.add(m.status_name);
        expect(m.state).toBe('in');
        expect(shown).toEqual(full.filter((p) => p.wallclock <= iso(at)));
        expect(shown).toEqual(full.slice(0, shown.length));
        const last = shown.at(-1)!;
        expect(m.record.competitors.map((c) => c.score)).toEqual([String(last.homeScore), String(last.awayScore)]);
      } finally {
        store.cleanup();
      }
    }
    expect([...seen].sort()).toEqual(['STATUS_FIRST_HALF', 'STATUS_HALFTIME', 'STATUS_SECOND_HALF']);
  });

  it('keeps the postponed match postponed from the first day of the season to the last', async () => {
    const [p] = [...matches(base.db).values()].filter((m) => m.league_slug === 'eng.1' && postponed(m));
    expect(p).toBeDefined();
    type Summary = { header: { competitions: Array<{ date: string; status: { type: { name: string } } }> } };
    for (const at of ['2025-07-01T00:00:00Z', '2025-12-31T23:59:00Z', '2026-06-30T23:59:00Z']) {
      const provider = createDemoProvider({ seed: 1, now: new Date(at), scale: 1, weight: 'light' });
      const s = (await provider.summary('eng.1', p!.id)) as Summary;
      expect([at, s.header.competitions[0]!.status.type.name]).toEqual([at, 'STATUS_POSTPONED']);
      expect(`${s.header.competitions[0]!.date.slice(0, 16)}`).toBe(p!.kickoff.slice(0, 16));
    }
  });

  it("adds the next season's matches under new ids after the turnover, leaving the old rows alone", async () => {
    const next = await advance(base, new Date('2026-07-20T12:00:00Z'));
    try {
      expect(next.report.failures).toEqual([]);
      const before = table(base.db, 'matches');
      const after = table(next.db, 'matches');
      // eng.1 turned over on 1 July; usa.1's calendar-year season simply goes on.
      const eng = (rows: Map<string, Row>) => [...rows.values()].filter((r) => r.league_slug === 'eng.1');
      expect(new Set(eng(after).map((r) => r.season_year))).toEqual(new Set([2025, 2026]));
      expect(eng(after)).toHaveLength(2 * eng(before).length);
      for (const row of eng(before)) expect(after.get(`eng.1|${row.id}`)).toEqual(row);
    } finally {
      next.db.close();
    }
  });
});
