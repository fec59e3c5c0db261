/**
 * One league's demo season: clubs, a double round-robin calendar laid out around the reference
 * instant, every finished result, the table and each club's form. This is the cheap part of the
 * demo and is computed once per league; payloads are generated from it on request.
 */
import type { LeagueRef } from '../../../reference/leagues.js';
import { buildClubs } from './clubs.js';
import type { DemoClub, LeagueClubs } from './clubs.js';
import { rngFor } from './random.js';
import { ymd } from '../../../util/time.js';

export type Phase = 'post' | 'in' | 'pre' | 'postponed';

export interface DemoMatch {
  id: string;
  matchday: number;
  home: DemoClub;
  away: DemoClub;
  kickoffMs: number;
  /** ESPN's own format: UTC, minutes precision. */
  date: string;
  /** YYYYMMDD of the UTC kickoff. */
  day: string;
  phase: Phase;
  /** Stoppage minutes of each half; they decide how long the match runs. */
  a1: number;
  a2: number;
  /** Full-time goals [home, away]; for a live match, what it will end as (only plays up to now are shown). */
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

export interface TableRow {
  club: DemoClub;
  gp: number;
  w: number;
  d: number;
  l: number;
  gf: number;
  ga: number;
  pts: number;
  rank: number;
}

export interface ClubResult {
  match: DemoMatch;
  kickoffMs: number;
  result: 'W' | 'D' | 'L';
}

export interface LeagueSeason extends LeagueClubs {
  ref: LeagueRef;
  index: number;
  seed: number;
  refMs: number;
  season: SeasonInfo;
  clubById: Map<string, DemoClub>;
  matches: DemoMatch[];
  byId: Map<string, DemoMatch>;
  byDay: Map<string, DemoMatch[]>;
  days: string[];
  table: TableRow[];
  results: Map<string, ClubResult[]>;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Kickoff slots (minutes after 00:00 UTC) for matches on days other than the reference day. */
const SLOTS = [12 * 60, 13 * 60 + 30, 14 * 60, 15 * 60, 16 * 60 + 30, 17 * 60 + 30, 18 * 60 + 45, 19 * 60, 20 * 60];
/**
 * A matchday's second day. On the reference day (reference instant 12:00Z) these are three
 * matches in play — second half, half-time and first half respectively — then kickoffs to come.
 */
const LIVE_SLOTS = [10 * 60 + 30, 11 * 60 + 5, 11 * 60 + 30];
const LATER_TODAY = [14 * 60, 16 * 60 + 30, 19 * 60, 20 * 60 + 30, 21 * 60];

export const matchLengthMs = (m: { a1: number; a2: number }) => (45 + m.a1 + 15 + 45 + m.a2) * MINUTE;

export function espnDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}Z`;
}

function seasonInfo(ref: LeagueRef, index: number, refMs: number, startMs: number, endMs: number): SeasonInfo {
  const d = new Date(refMs);
  const y = d.getUTCFullYear();
  // The season that is current on the reference day; split seasons turn over in July.
  const year = ref.calendarYearSeason ? y : d.getUTCMonth() >= 6 ? y : y - 1;
  const label = ref.calendarYearSeason ? String(year) : `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
  const displayName = `${label} ${ref.name}`;
  const slug = displayName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return { year, displayName, type: 90000 + index * 100 + (year % 100), slug, startMs, endMs };
}

/** Circle-method round robin: round r of n clubs (n even) as [home, away] index pairs. */
function roundPairs(n: number, r: number): Array<[number, number]> {
  const rotating = Array.from({ length: n - 1 }, (_, i) => i + 1);
  const shift = r % (n - 1);
  const order = [0, ...rotating.slice(shift), ...rotating.slice(0, shift)];
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < n / 2; i++) {
    const a = order[i]!;
    const b = order[n - 1 - i]!;
    // Alternate who hosts so no club is at home (or away) for long runs.
    const swap = i === 0 ? r % 2 === 1 : i % 2 === 1;
    pairs.push(swap ? [b, a] : [a, b]);
  }
  return pairs;
}

function fullTimeGoals(seed: number, id: string, home: DemoClub, away: DemoClub): [number, number] {
  const rng = rngFor(seed, 'score', id);
  const ratio = home.strength / away.strength;
  const h = Math.min(7, rng.poisson(1.45 * ratio ** 0.9));
  const a = Math.min(7, rng.poisson(1.15 * (1 / ratio) ** 0.9));
  return [h, a];
}

export function buildSeason(seed: number, ref: LeagueRef, index: number, refMs: number, scale: number): LeagueSeason {
  const base = buildClubs(seed, ref, index, refMs);
  const rng = rngFor(seed, 'calendar', ref.slug);
  const n = base.clubs.length;
  const order = rng.shuffle([...base.clubs]);
  const cycle = 2 * (n - 1);
  const matchdays = Math.max(1, Math.round(scale * cycle));
  // Longer seasons (scale > 1) play midweek too, so the calendar does not stretch over years.
  const interval = scale <= 1 ? 7 : Math.max(2, Math.round(7 / scale));
  const spread = Math.min(3, interval);
  const todayMs = refMs - 12 * 60 * MINUTE;
  // The current matchday sits 55–75% into the season and moves on by one for every `interval`
  // days the reference date advances, so the calendar stays put from one week to the next (a
  // re-sync a week later plays one more matchday instead of re-drawing the season).
  const first = Math.round(0.55 * matchdays);
  const span = Math.max(1, Math.round(0.2 * matchdays) + 1);
  const period = Math.floor(todayMs / DAY / interval) + rng.int(0, span - 1);
  const current = Math.min(matchdays - 1, first + (period % span));

  const matches: DemoMatch[] = [];
  for (let k = 0; k < matchdays; k++) {
    const round = k % cycle;
    const pairs = roundPairs(n, round % (n - 1)).map(
      ([h, a]) => (round >= n - 1 ? [a, h] : [h, a]) as [number, number],
    );
    const firstDay = todayMs + ((k - current) * interval - 1) * DAY;
    const mdRng = rngFor(seed, 'matchday', ref.slug, k);
    mdRng.shuffle(pairs);
    const later = [...LATER_TODAY];
    pairs.forEach(([h, a], j) => {
      // Every matchday has the same shape (a few games on its first day, an early block and the
      // afternoon on its second, the rest on its third), so a matchday keeps its kickoffs when
      // it stops being the current one.
      let kickoffMs: number;
      if (j < 3) {
        kickoffMs = firstDay + mdRng.pick(SLOTS) * MINUTE;
      } else if (j < 3 + LIVE_SLOTS.length) {
        kickoffMs = firstDay + DAY + LIVE_SLOTS[j - 3]! * MINUTE;
      } else if (j < 8 || spread < 3) {
        kickoffMs = firstDay + DAY + (later.shift() ?? 21 * 60) * MINUTE;
      } else {
        kickoffMs = firstDay + 2 * DAY + mdRng.pick(SLOTS) * MINUTE;
      }
      const id = String(800_000_000 + index * 1_000_000 + k * (n / 2) + j + 1);
      const home = order[h]!;
      const away = order[a]!;
      const clockRng = rngFor(seed, 'clock', id);
      matches.push({
        id,
        matchday: k,
        home,
        away,
        kickoffMs,
        date: espnDate(kickoffMs),
        day: ymd(new Date(kickoffMs)),
        phase: 'pre',
        a1: clockRng.int(1, 4),
        a2: clockRng.int(2, 7),
        goals: fullTimeGoals(seed, id, home, away),
      });
    });
  }
  matches.sort((x, y) => x.kickoffMs - y.kickoffMs || (x.id < y.id ? -1 : 1));
  for (const m of matches) {
    m.phase = m.kickoffMs + matchLengthMs(m) <= refMs ? 'post' : m.kickoffMs <= refMs ? 'in' : 'pre';
  }
  // Exactly one postponed match, from the matchday just before the earliest possible current one,
  // so it stays the same match week after week (or, in a season too short for that, one played
  // the day before).
  const from = first > 0 ? first - 1 : current;
  const candidates = matches.filter((m) => m.phase === 'post' && m.matchday === from);
  const postponed = candidates.length ? rng.pick(candidates) : undefined;
  if (postponed) postponed.phase = 'postponed';

  const season = seasonInfo(ref, index, refMs, matches[0]!.kickoffMs, matches.at(-1)!.kickoffMs);
  const byDay = new Map<string, DemoMatch[]>();
  for (const m of matches) {
    const list = byDay.get(m.day) ?? [];
    list.push(m);
    byDay.set(m.day, list);
  }
  const { table, results } = tabulate(base.clubs, matches);
  return {
    ...base,
    ref,
    index,
    seed,
    refMs,
    season,
    clubById: new Map(base.clubs.map((c) => [c.id, c])),
    matches,
    byId: new Map(matches.map((m) => [m.id, m])),
    byDay,
    days: [...byDay.keys()].sort(),
    table,
    results,
  };
}

/** The table from finished matches only (3/1/0), and every club's results in kickoff order. */
function tabulate(clubs: DemoClub[], matches: DemoMatch[]): { table: TableRow[]; results: Map<string, ClubResult[]> } {
  const rows = new Map(
    clubs.map((club) => [club.id, { club, gp: 0, w: 0, d: 0, l: 0, gf: 0, ga: 0, pts: 0, rank: 0 }]),
  );
  const results = new Map<string, ClubResult[]>(clubs.map((c) => [c.id, []]));
  for (const m of matches) {
    if (m.phase !== 'post') continue;
    const [hg, ag] = m.goals;
    for (const [club, gf, ga] of [
      [m.home, hg, ag],
      [m.away, ag, hg],
    ] as const) {
      const row = rows.get(club.id)!;
      row.gp++;
      row.gf += gf;
      row.ga += ga;
      const result = gf > ga ? 'W' : gf === ga ? 'D' : 'L';
      if (result === 'W') row.w++;
      else if (result === 'D') row.d++;
      else row.l++;
      row.pts += result === 'W' ? 3 : result === 'D' ? 1 : 0;
      results.get(club.id)!.push({ match: m, kickoffMs: m.kickoffMs, result });
    }
  }
  const table = [...rows.values()].sort(
    (a, b) =>
      b.pts - a.pts ||
      b.gf - b.ga - (a.gf - a.ga) ||
      b.gf - a.gf ||
      b.w - a.w ||
      (a.club.displayName < b.club.displayName ? -1 : 1),
  );
  table.forEach((row, i) => {
    row.rank = i + 1;
  });
  return { table, results };
}

/** The club's last five finished results before an instant, oldest first ("WDLWW"). */
export function formBefore(season: LeagueSeason, clubId: string, beforeMs: number): ClubResult[] {
  const all = season.results.get(clubId) ?? [];
  return all.filter((r) => r.kickoffMs < beforeMs).slice(-5);
}

export function formString(results: ClubResult[]): string {
  return results.map((r) => r.result).join('');
}
