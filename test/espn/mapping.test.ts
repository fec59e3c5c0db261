import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapScoreboard, mapSummary } from '../../src/espn/map-events.js';
import { mapPlays } from '../../src/espn/map-plays.js';
import { isFlagged } from '../../src/store/records.js';
import type { PlayContext } from '../../src/espn/map-plays.js';
import { mapRoster, mapStandings, mapTeams } from '../../src/espn/map-clubs.js';
import { normalizeScore } from '../../src/espn/map-common.js';
import { RECORDED, readJson } from '../helpers/store.js';

const fx = (rel: string) => readJson(path.join(RECORDED, rel));

describe('scoreboard mapping', () => {
  const board = mapScoreboard(fx('eng.1/scoreboard/20260321.json'), 'files');
  const byId = new Map(board.matches.map((m) => [m.record.id, m.record]));

  it('orders competitors home then away by homeAway, not by array position', () => {
    const m = byId.get('9001')!;
    expect(m.competitors.map((c) => [c.homeAway, c.team.id])).toEqual([
      ['home', '1001'],
      ['away', '1002'],
    ]);
    expect(m.competitors.map((c) => c.score)).toEqual(['2', '1']);
  });

  it('has no score before kickoff or for a postponed match, although ESPN writes "0"', () => {
    expect(byId.get('9002')!.competitors.map((c) => c.score)).toEqual([null, null]);
    const postponed = byId.get('9003')!;
    expect(postponed.status.type).toMatchObject({ name: 'STATUS_POSTPONED', state: 'post', completed: false });
    expect(postponed.competitors.map((c) => c.score)).toEqual([null, null]);
  });

  it('derives the UTC scoreboard date and a sortable kickoff', () => {
    const m = board.matches.find((x) => x.record.id === '9002')!;
    expect(m.kickoff).toBe('2026-03-21T17:30:00Z');
    expect(m.scoreboardDate).toBe('20260321');
    expect(m.record.date).toBe('2026-03-21T17:30Z');
  });

  it('reads the league id and season from the board', () => {
    expect(board.league).toEqual({
      espnId: '700',
      season: { year: 2025, displayName: '2025-26 English Premier League' },
    });
  });

  it('gives board statistics a numeric value taken from their displayValue', () => {
    expect(byId.get('9001')!.competitors[0]!.statistics).toContainEqual({
      name: 'possessionPct',
      abbreviation: 'PP',
      displayValue: '54.5',
      value: 54.5,
    });
  });

  it('rejects a board whose event lacks its competitors', () => {
    const bad = fx('eng.1/scoreboard/20260321.json') as {
      events: Array<{ competitions: Array<{ competitors: unknown[] }> }>;
    };
    bad.events[1]!.competitions[0]!.competitors = [];
    expect(() => mapScoreboard(bad, 'files')).toThrow(/events\[1\]/);
  });

  it('keeps shootout scores and advance flags', () => {
    const board2 = fx('eng.1/scoreboard/20260321.json') as {
      events: Array<{ competitions: Array<{ competitors: Array<Record<string, unknown>> }> }>;
    };
    Object.assign(board2.events[0]!.competitions[0]!.competitors[0]!, { shootoutScore: 4, advance: true });
    const m = mapScoreboard(board2, 'files').matches[0]!.record;
    const c = m.competitors.find((x) => x.id === board2.events[0]!.competitions[0]!.competitors[0]!.id)!;
    expect(c).toMatchObject({ shootoutScore: '4', advance: true });
  });
});

describe('score normalization', () => {
  it('reads string, number and schedule-object scores alike', () => {
    expect(normalizeScore('3')).toBe('3');
    expect(normalizeScore(3)).toBe('3');
    expect(normalizeScore({ value: 3, displayValue: '3' })).toBe('3');
    expect(normalizeScore({ value: 2 })).toBe('2');
    expect(normalizeScore(undefined)).toBeNull();
    expect(normalizeScore('')).toBeNull();
  });
});

describe('summary mapping', () => {
  const s = mapSummary(fx('eng.1/summary/9001.json'), 'files');

  it('keeps the provider sections and drops the ones the API does not serve', () => {
    expect(Object.keys(s.sections).sort()).toEqual(
      [
        'boxscore',
        'broadcasts',
        'commentary',
        'format',
        'gameInfo',
        'header',
        'keyEvents',
        'news',
        'odds',
        'rosters',
        'videos',
      ].sort(),
    );
    expect(s.sections).not.toHaveProperty('headToHeadGames');
    expect(s.sections).not.toHaveProperty('meta');
  });

  it('lists the key event ids and describes the match from its header', () => {
    expect(s.keyEventIds).toEqual(['70001', '70004']);
    expect(s.match.record.competitors.map((c) => [c.team.id, c.score])).toEqual([
      ['1001', '2'],
      ['1002', '1'],
    ]);
    expect(s.match.record.venue).toEqual({
      id: '77',
      fullName: 'Harbour Ground',
      address: { city: 'Harbour', country: 'England' },
    });
  });

  it('rejects a summary without a header', () => {
    expect(() => mapSummary({ boxscore: {} }, 'files')).toThrow();
  });
});

describe('plays mapping', () => {
  const ctx: PlayContext = {
    team: (id) =>
      ({
        '1001': { displayName: 'Harbour Town', abbreviation: 'HAR' },
        '1002': { displayName: 'Millbrook United', abbreviation: 'MIL' },
      })[id],
    athlete: (id) =>
      ({
        '5001': { displayName: 'Ada Stone', jersey: '9', teamId: '1001' },
        '5002': { displayName: 'Ben Marsh', jersey: '14', teamId: '1001' },
      })[id],
  };
  const pages = ['eng.1/plays/9001-2.json', 'eng.1/plays/9001-3.json', 'eng.1/plays/9001-1.json'].map(fx);
  const { plays, complete } = mapPlays(pages, ctx);

  it('puts pages in stream order whatever order they arrive in, with 1-based sequences', () => {
    expect(plays.map((p) => p.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(plays.map((p) => p.id)).toEqual(['70000', '70001', '70002', '70003', '70004', '70005', '70006', '70007']);
    expect(complete).toBe(true);
  });

  it('reports an incomplete stream when a page is missing', () => {
    expect(mapPlays(pages.slice(0, 2), ctx).complete).toBe(false);
  });

  it('resolves $ref links to ids and names, never leaving a URL', () => {
    const goal = plays.find((p) => p.id === '70001')!;
    expect(goal.team).toEqual({ id: '1001', displayName: 'Harbour Town', abbreviation: 'HAR' });
    expect(goal.participants).toEqual([
      { type: 'scorer', athlete: { id: '5001', displayName: 'Ada Stone' }, team: { id: '1001' } },
    ]);
    expect(JSON.stringify(plays)).not.toContain('$ref');
    expect(JSON.stringify(plays)).not.toContain('http');
  });

  it('keeps both players of a substitution, incoming first', () => {
    const sub = plays.find((p) => p.substitution)!;
    expect(sub.participants.map((p) => [p.type, p.athlete.id, p.athlete.displayName])).toEqual([
      ['subbed-in', '5002', 'Ben Marsh'],
      ['subbed-out', '5001', 'Ada Stone'],
    ]);
  });

  it('leaves a name null when the store does not know the athlete', () => {
    const og = plays.find((p) => p.ownGoal)!;
    expect(og.participants[0]!.athlete).toEqual({ id: '7001', displayName: null });
  });

  it('flags goals, own goals, penalties, cards and substitutions but not fouls', () => {
    expect(plays.filter(isFlagged).map((p) => p.id)).toEqual(['70001', '70003', '70005', '70006', '70007']);
  });

  it('rejects a page whose items are not a list', () => {
    expect(() => mapPlays([{ count: 1, pageIndex: 1, pageSize: 1, pageCount: 1, items: {} }], ctx)).toThrow();
  });
});

describe('roster, teams and standings mapping', () => {
  it('maps players with jersey as a string and the coach', () => {
    const r = mapRoster(fx('eng.1/roster/1001.json'), '1001');
    expect(r.players.map((p) => [p.id, p.jersey, p.position?.abbreviation ?? null])).toEqual([
      ['5001', '9', 'F'],
      ['5002', null, 'M'],
      ['7001', '4', 'D'],
    ]);
    expect(r.coach).toEqual({
      id: 'c1',
      displayName: 'Eve Harbour',
      firstName: 'Eve',
      lastName: 'Harbour',
      experience: 3,
    });
  });

  it('refuses a roster payload for another team', () => {
    expect(() => mapRoster(fx('eng.1/roster/1001.json'), '1002')).toThrow(/team 1001/);
  });

  it('sorts standings entries by rank and reads the season from the payload', () => {
    const s = mapStandings(fx('eng.1/standings/2025.json'), null);
    expect(s.season).toBe(2025);
    expect(s.groups[0]!.entries.map((e) => [e.rank, e.team.id])).toEqual([
      [1, '1001'],
      [2, '1002'],
    ]);
    expect(s.groups[0]!.entries[0]!.stats.find((x) => x.name === 'pointDifferential')).toEqual({
      name: 'pointDifferential',
      abbreviation: 'GD',
      displayValue: '+3',
      value: 3,
    });
  });

  it('maps a league team list', () => {
    const t = mapTeams({
      sports: [
        {
          leagues: [
            {
              id: '700',
              teams: [{ team: { id: '1', displayName: 'One', logos: [{ href: 'l.png', rel: ['full', 'default'] }] } }],
            },
          ],
        },
      ],
    });
    expect(t.clubs[0]).toMatchObject({ id: '1', displayName: 'One', name: 'One', logo: 'l.png', isActive: true });
  });
});
