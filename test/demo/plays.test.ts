import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchRecord, PlayRecord } from '../../src/store/records.js';
import { json, syncDemo } from './helpers.js';
import { storedPlays, storedSections } from '../helpers/store.js';
import type { DemoStore } from './helpers.js';

interface Stored {
  match: MatchRecord;
  state: string;
  completed: number;
  plays: PlayRecord[];
  keyEventIds: string[];
  keyEvents: Array<{ id: string; type: { type?: string }; participants?: Array<{ athlete: { id: string } }> }>;
}

const LEAGUES = ['eng.1', 'bra.1'];

describe('demo play-by-play in the store', () => {
  let store: DemoStore;
  let matches: Stored[];
  let plays: PlayRecord[];
  beforeAll(async () => {
    store = await syncDemo({ leagues: LEAGUES, seed: 11 });
    const rows = store.db
      .prepare(
        `SELECT m.league_slug, m.record AS record_json, m.state, m.completed, s.key_event_ids FROM matches m
           JOIN match_summaries s ON s.league_slug = m.league_slug AND s.match_id = m.id ORDER BY m.league_slug, m.id`,
      )
      .all() as Array<{
      league_slug: string;
      record_json: Buffer;
      state: string;
      completed: number;
      key_event_ids: string;
    }>;
    matches = rows.map((r) => {
      const match = json<MatchRecord>(r.record_json);
      return {
        match,
        state: r.state,
        completed: r.completed,
        plays: storedPlays<PlayRecord>(store.db, r.league_slug, match.id),
        keyEventIds: json<string[]>(r.key_event_ids),
        keyEvents: storedSections<{ keyEvents: Stored['keyEvents'] }>(store.db, r.league_slug, match.id)!.keyEvents,
      };
    });
    plays = matches.flatMap((m) => m.plays);
  });
  afterAll(() => store.cleanup());

  it('has a stream of roughly 45 or more plays per finished match', () => {
    const finished = matches.filter((m) => m.completed === 1);
    const total = finished.reduce((n, m) => n + m.plays.length, 0);
    expect(total / finished.length).toBeGreaterThanOrEqual(45);
    const complete = store.db.prepare('SELECT count(*) FROM play_streams WHERE complete = 1').pluck().get() as number;
    expect(complete).toBe(matches.filter((m) => m.plays.length > 0).length);
  });

  it('includes every category of play', () => {
    const types = new Set(plays.map((p) => p.type.type));
    for (const t of [
      'kickoff',
      'halftime',
      'start-2nd-half',
      'end-regular-time',
      'goal',
      'yellow-card',
      'red-card',
      'substitution',
      'foul',
      'shot-on-target',
      'shot-off-target',
      'shot-blocked',
      'corner-awarded',
      'offside',
    ]) {
      expect(types, t).toContain(t);
    }
    expect(plays.some((p) => p.ownGoal && p.scoringPlay)).toBe(true);
    expect(plays.some((p) => p.penaltyKick && p.scoringPlay)).toBe(true);
    expect(plays.some((p) => p.redCard)).toBe(true);
    expect(plays.some((p) => p.yellowCard)).toBe(true);
  });

  it('gives each substitution both the incoming and the outgoing player', () => {
    const subs = plays.filter((p) => p.substitution);
    expect(subs.length).toBeGreaterThan(100);
    for (const p of subs) {
      expect(p.participants.map((x) => x.type)).toEqual(['subbed-in', 'subbed-out']);
      const [on, off] = p.participants;
      expect(on!.athlete.id).not.toBe(off!.athlete.id);
      expect([on!.team.id, off!.team.id]).toEqual([p.team!.id, p.team!.id]);
    }
  });

  it('puts a name on every athlete and team a play refers to', () => {
    expect(plays.length).toBeGreaterThan(1000);
    for (const p of plays) {
      for (const a of p.participants) expect(a.athlete.displayName, `${p.id} ${a.athlete.id}`).toBeTruthy();
      for (const a of p.athletesInvolved) expect([a.displayName, a.jersey, a.team.id].every(Boolean), p.id).toBe(true);
      if (p.team) expect(p.team.displayName, p.id).toBeTruthy();
      expect(JSON.stringify(p)).not.toContain('$ref');
    }
  });

  it('keeps goals in plays, final score, scoreboard details and key events in agreement', () => {
    const played = matches.filter((x) => x.plays.length > 0);
    expect(played.length).toBeGreaterThan(10);
    for (const m of played) {
      const [home, away] = m.match.competitors;
      const goals = m.plays.filter((p) => p.scoringPlay);
      const last = m.plays.at(-1)!;
      expect([String(last.homeScore), String(last.awayScore)]).toEqual([home!.score, away!.score]);
      expect(goals.filter((g) => g.team!.id === home!.id).length).toBe(Number(home!.score));
      expect(goals.filter((g) => g.team!.id === away!.id).length).toBe(Number(away!.score));
      const detailGoals = (m.match.details as Array<{ scoringPlay: boolean; team: { id: string } }>).filter(
        (d) => d.scoringPlay,
      );
      expect(detailGoals.map((d) => d.team.id)).toEqual(goals.map((g) => g.team!.id));
      const playIds = new Set(m.plays.map((p) => p.id));
      for (const id of m.keyEventIds) expect(playIds.has(id), id).toBe(true);
      for (const g of goals) expect(m.keyEventIds).toContain(g.id);
      const stat = (c: typeof home, name: string) => c!.statistics.find((s) => s.name === name)?.value;
      expect(stat(home, 'totalGoals')).toBe(Number(home!.score));
      if (m.completed === 1) expect(home!.winner).toBe(Number(home!.score) > Number(away!.score));
    }
  });

  it('credits an own goal to the other side and a penalty to its taker', () => {
    const own = plays.filter((p) => p.ownGoal);
    expect(own.length).toBeGreaterThan(0);
    for (const p of own) expect(p.participants[0]!.team.id).not.toBe(p.team!.id);
    const penalties = plays.filter((x) => x.penaltyKick);
    expect(penalties.length).toBeGreaterThan(0);
    for (const p of penalties) expect(p.participants[0]!.team.id).toBe(p.team!.id);
  });

  it('shows live matches only up to their current minute, and nothing before kickoff', () => {
    const live = matches.filter((m) => m.state === 'in');
    expect(live.length).toBe(2 * 3);
    for (const m of live) {
      const types = m.plays.map((p) => p.type.type);
      const s = m.match.status;
      expect(types).not.toContain('end-regular-time');
      const last = m.plays.at(-1)!;
      if (s.type.name === 'STATUS_FIRST_HALF') {
        expect(types).not.toContain('halftime');
        expect(last.period.number).toBe(1);
        expect(last.clock.value!).toBeLessThanOrEqual(s.clock);
      }
      if (s.type.name === 'STATUS_HALFTIME') expect(types.at(-1)).toBe('halftime');
      if (s.type.name === 'STATUS_SECOND_HALF') {
        expect(types).toContain('start-2nd-half');
        expect(last.clock.value!).toBeLessThanOrEqual(s.clock);
      }
    }
    const notStarted = matches.filter((x) => x.state === 'pre' || (x.completed === 0 && x.state === 'post'));
    expect(notStarted.length).toBeGreaterThan(0);
    for (const m of notStarted) {
      expect(m.plays).toEqual([]);
      expect(m.keyEvents).toEqual([]);
    }
  });

  it('orders each stream by match time with the period markers in place', () => {
    const finished = matches.filter((x) => x.completed === 1).slice(0, 200);
    expect(finished.length).toBeGreaterThan(10);
    for (const m of finished) {
      const types = m.plays.map((p) => p.type.type);
      expect(types[0]).toBe('kickoff');
      expect(types.at(-1)).toBe('end-regular-time');
      const half = types.indexOf('halftime');
      expect(types[half + 1]).toBe('start-2nd-half');
      const keys = m.plays.map((p) => p.period.number * 100_000 + p.clock.value! + (p.addedClock?.value ?? 0));
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
    }
  });
});
