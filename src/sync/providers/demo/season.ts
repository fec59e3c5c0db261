/**
 * One league's demo season: clubs, the fixed calendar (see calendar.ts) and the outcome of every
 * match. Nothing here depends on the clock; progress.ts decides what of it has happened by then.
 * This is the cheap part of the demo and is computed once per league; payloads are generated from
 * it on request.
 */
import type { LeagueRef } from '../../../reference/leagues.js';
import { ymd } from '../../../util/time.js';
import { buildCalendar } from './calendar.js';
import { buildClubs } from './clubs.js';
import type { DemoClub, LeagueClubs } from './clubs.js';
import { rngFor } from './random.js';

export interface DemoMatch {
  id: string;
  matchday: number;
  home: DemoClub;
  away: DemoClub;
  kickoffMs: number;
  /** When the final whistle goes: kickoff plus both halves, their stoppage and the break. */
  endMs: number;
  /** ESPN's own format: UTC, minutes precision. */
  date: string;
  /** YYYYMMDD of the UTC kickoff. */
  day: string;
  /** The season's one postponed match: it never kicks off. */
  postponed: boolean;
  /** Stoppage minutes of each half; they decide how long the match runs. */
  a1: number;
  a2: number;
  /** Full-time goals [home, away]; a live match shows only the plays up to the clock. */
  goals: [number, number];
}

export interface SeasonInfo {
  year: number;
  displayName: string;
  type: number;
  slug: string;
  startMs: number;
  endMs: number;
}

export interface ClubResult {
  match: DemoMatch;
  kickoffMs: number;
  endMs: number;
  result: 'W' | 'D' | 'L';
}

export interface DemoSeason extends LeagueClubs {
  ref: LeagueRef;
  index: number;
  seed: number;
  season: SeasonInfo;
  clubById: Map<string, DemoClub>;
  /** In kickoff order. */
  matches: DemoMatch[];
  byId: Map<string, DemoMatch>;
  byDay: Map<string, DemoMatch[]>;
  days: string[];
  /** Every club's results in kickoff order, postponed match left out: outcomes are fixed, the clock reveals them. */
  results: Map<string, ClubResult[]>;
}

export const matchLengthMs = (m: { a1: number; a2: number }) => (45 + m.a1 + 15 + 45 + m.a2) * 60_000;

export function espnDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}Z`;
}

function seasonInfo(ref: LeagueRef, index: number, year: number, startMs: number, endMs: number): SeasonInfo {
  const label = ref.calendarYearSeason ? String(year) : `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
  const displayName = `${label} ${ref.name}`;
  const slug = displayName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return { year, displayName, type: 90000 + index * 100 + (year % 100), slug, startMs, endMs };
}

function fullTimeGoals(seed: number, id: string, home: DemoClub, away: DemoClub): [number, number] {
  const rng = rngFor(seed, 'score', id);
  const ratio = home.strength / away.strength;
  const h = Math.min(7, rng.poisson(1.45 * ratio ** 0.9));
  const a = Math.min(7, rng.poisson(1.15 * (1 / ratio) ** 0.9));
  return [h, a];
}

export function buildSeason(seed: number, ref: LeagueRef, index: number, year: number, scale: number): DemoSeason {
  const calendar = buildCalendar(seed, ref, index, year, scale);
  // Squads (and so ages) are as of the season's start, not of the day the demo is looked at.
  const base = buildClubs(seed, ref, index, calendar.window.startMs);
  const order = rngFor(seed, 'calendar', ref.slug, year).shuffle([...base.clubs]);
  const matches = calendar.matches.map((c): DemoMatch => {
    const home = order[c.home]!;
    const away = order[c.away]!;
    const clockRng = rngFor(seed, 'clock', c.id);
    const a1 = clockRng.int(1, 4);
    const a2 = clockRng.int(2, 7);
    return {
      id: c.id,
      matchday: c.matchday,
      home,
      away,
      kickoffMs: c.kickoffMs,
      endMs: c.kickoffMs + matchLengthMs({ a1, a2 }),
      date: espnDate(c.kickoffMs),
      day: ymd(new Date(c.kickoffMs)),
      postponed: c.postponed,
      a1,
      a2,
      goals: fullTimeGoals(seed, c.id, home, away),
    };
  });
  matches.sort((x, y) => x.kickoffMs - y.kickoffMs || (x.id < y.id ? -1 : 1));

  const byDay = new Map<string, DemoMatch[]>();
  const results = new Map<string, ClubResult[]>(base.clubs.map((c) => [c.id, []]));
  for (const m of matches) {
    const list = byDay.get(m.day) ?? [];
    list.push(m);
    byDay.set(m.day, list);
    if (m.postponed) continue;
    const [hg, ag] = m.goals;
    for (const [club, gf, ga] of [
      [m.home, hg, ag],
      [m.away, ag, hg],
    ] as const) {
      const result = gf > ga ? 'W' : gf === ga ? 'D' : 'L';
      results.get(club.id)!.push({ match: m, kickoffMs: m.kickoffMs, endMs: m.endMs, result });
    }
  }
  return {
    ...base,
    ref,
    index,
    seed,
    season: seasonInfo(ref, index, year, matches[0]!.kickoffMs, matches.at(-1)!.kickoffMs),
    clubById: new Map(base.clubs.map((c) => [c.id, c])),
    matches,
    byId: new Map(matches.map((m) => [m.id, m])),
    byDay,
    days: [...byDay.keys()].sort(),
    results,
  };
}
