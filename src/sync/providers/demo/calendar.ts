/**
 * The demo's fixed calendar: when each league's season runs, which weekends (and, at larger
 * scales, midweeks) are matchdays, who plays whom and at what time. It is a function of the
 * seed, the league, the season year and the scale only — the clock merely moves through it —
 * and it needs no clubs, so the kickoff instants can be asked for cheaply (`demoKickoffs`).
 */
import { LEAGUES } from '../../../reference/leagues.js';
import type { LeagueRef } from '../../../reference/leagues.js';
import { clubCount } from './clubs.js';
import { rngFor } from './random.js';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** Kickoff slots (minutes after 00:00 UTC) for a matchday's first and third days. */
const SLOTS = [12 * 60, 13 * 60 + 30, 14 * 60, 15 * 60, 16 * 60 + 30, 17 * 60 + 30, 18 * 60 + 45, 19 * 60, 20 * 60];
/**
 * The first kickoffs of a matchday's second day. At 12:00 UTC that day (the default reference of
 * `--today`) they are three matches in play: second half, half-time and first half.
 */
const LIVE_SLOTS = [10 * 60 + 30, 11 * 60 + 5, 11 * 60 + 30];
const LATER_TODAY = [14 * 60, 16 * 60 + 30, 19 * 60, 20 * 60 + 30, 21 * 60];

export interface SeasonWindow {
  /** The season's start year, which names it (2025 for "2025-26"). */
  year: number;
  startMs: number;
  /** Exclusive: the next season's start. */
  endMs: number;
}

export interface CalendarMatch {
  id: string;
  matchday: number;
  /** Indexes into the season's club order. */
  home: number;
  away: number;
  kickoffMs: number;
  postponed: boolean;
}

export interface LeagueCalendar {
  window: SeasonWindow;
  matchdays: number;
  /** In matchday order, and within a matchday in pairing order (not kickoff order). */
  matches: CalendarMatch[];
}

/**
 * Split seasons turn over in July, on a date staggered by league (1st, 8th, 15th or 22nd), so that
 * at no time of year are most leagues between seasons at once; calendar-year seasons on 1 January.
 */
function turnover(ref: LeagueRef, index: number, year: number): number {
  return ref.calendarYearSeason ? Date.UTC(year, 0, 1) : Date.UTC(year, 6, 1) + 7 * (index % 4) * DAY;
}

/** The season of a league that contains an instant. */
export function seasonWindowAt(ref: LeagueRef, index: number, ms: number): SeasonWindow {
  const y = new Date(ms).getUTCFullYear();
  const year = ms >= turnover(ref, index, y) ? y : y - 1;
  return { year, startMs: turnover(ref, index, year), endMs: turnover(ref, index, year + 1) };
}

/** 0 … count-1 in golden-ratio order: every prefix is spread evenly over the range and contains the shorter ones. */
function spreadOrder(count: number): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (let i = 1; out.length < count && i < 64 * count; i++) {
    const p = Math.floor(((i * 0.6180339887498949) % 1) * count);
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  }
  for (let p = 0; p < count; p++) if (!seen.has(p)) out.push(p);
  return out;
}

interface Slot {
  firstDayMs: number;
  /** Days the matchday's games are spread over. */
  spread: 1 | 2 | 3;
}

/** Week of the year (0–52) of an instant: breaks and midweek rounds are chosen by it, the same for every league. */
const weekOfYear = (ms: number) => Math.floor((ms - Date.UTC(new Date(ms).getUTCFullYear(), 0, 1)) / (7 * DAY));
const WEEK_RANK = (() => {
  const rank: number[] = [];
  spreadOrder(53).forEach((week, i) => {
    rank[week] = i;
  });
  return rank;
})();

/** The `count` days that come first in WEEK_RANK order (ties: earlier first). */
function firstByWeek(days: number[], count: number): Set<number> {
  const ranked = [...days].sort((a, b) => WEEK_RANK[weekOfYear(a)]! - WEEK_RANK[weekOfYear(b)]! || a - b);
  return new Set(ranked.slice(0, count));
}

/**
 * Where the matchdays fall. Weekends (Friday–Sunday) first, the season's first and last weekend
 * always played; the weekends left over are breaks, picked by week of the year, so leagues break
 * together (as for international windows) and a league with fewer matchdays breaks on a superset of
 * the weekends a longer one does. More matchdays than weekends add midweek rounds (Tuesday–Wednesday),
 * picked the same way; more than those, one every day or so.
 */
function matchdaySlots(window: SeasonWindow, count: number): Slot[] {
  const firstFriday = window.startMs + ((5 - new Date(window.startMs).getUTCDay() + 7) % 7) * DAY;
  const weekends: number[] = [];
  for (let d = firstFriday; d + 3 * DAY <= window.endMs; d += 7 * DAY) weekends.push(d);
  const midweeks = weekends.map((d) => d + 4 * DAY).filter((d) => d + 2 * DAY <= window.endMs);
  if (count <= weekends.length) {
    const breaks =
      count >= 2 ? firstByWeek(weekends.slice(1, -1), weekends.length - count) : new Set(weekends.slice(1));
    return weekends.filter((d) => !breaks.has(d)).map((firstDayMs) => ({ firstDayMs, spread: 3 }));
  }
  if (count <= weekends.length + midweeks.length) {
    const chosen = firstByWeek(midweeks, count - weekends.length);
    const slots: Slot[] = [
      ...weekends.map((firstDayMs) => ({ firstDayMs, spread: 3 as const })),
      ...midweeks.filter((d) => chosen.has(d)).map((firstDayMs) => ({ firstDayMs, spread: 2 as const })),
    ];
    return slots.sort((a, b) => a.firstDayMs - b.firstDayMs);
  }
  const days = Math.floor((window.endMs - window.startMs) / DAY) - 3;
  const spread = Math.min(3, Math.max(1, Math.floor(days / count))) as 1 | 2 | 3;
  return Array.from({ length: count }, (_, k) => ({
    firstDayMs: window.startMs + Math.floor((k * days) / count) * DAY,
    spread,
  }));
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

/**
 * One matchday's kickoff, by its place j in the (shuffled) pairing: a few games on the first day,
 * an early block and the afternoon on the second, the rest on the third — or, on shorter
 * matchdays, all of the block's games on the second (or only) day.
 */
function kickoffOf(slot: Slot, j: number, pick: () => number, later: number[]): number {
  const blockDay = slot.firstDayMs + (slot.spread >= 2 ? DAY : 0);
  if (j < 3) return slot.firstDayMs + pick() * MINUTE;
  if (j < 3 + LIVE_SLOTS.length) return blockDay + LIVE_SLOTS[j - 3]! * MINUTE;
  if (j < 8 || slot.spread < 3) return blockDay + (later.shift() ?? 21 * 60) * MINUTE;
  return slot.firstDayMs + 2 * DAY + pick() * MINUTE;
}

/** A match id: season, league and place in the calendar, so no two seasons of the demo share one. */
function matchId(year: number, index: number, seq: number): string {
  return `8${String(year % 100).padStart(2, '0')}${String(index).padStart(2, '0')}${String(seq).padStart(5, '0')}`;
}

export function buildCalendar(
  seed: number,
  ref: LeagueRef,
  index: number,
  year: number,
  scale: number,
): LeagueCalendar {
  const n = clubCount(ref.slug);
  const window: SeasonWindow = { year, startMs: turnover(ref, index, year), endMs: turnover(ref, index, year + 1) };
  const cycle = 2 * (n - 1);
  const matchdays = Math.max(1, Math.round(scale * cycle));
  const slots = matchdaySlots(window, matchdays);
  // One match per league and season is postponed; it stays postponed whatever the clock says.
  const postRng = rngFor(seed, 'postponed', ref.slug, year);
  const postponedDay = Math.min(matchdays - 1, postRng.int(Math.floor(0.3 * matchdays), Math.floor(0.6 * matchdays)));
  const postponedPlace = postRng.int(0, n / 2 - 1);

  const matches: CalendarMatch[] = [];
  for (let k = 0; k < matchdays; k++) {
    const round = k % cycle;
    const pairs = roundPairs(n, round % (n - 1)).map(
      ([h, a]) => (round >= n - 1 ? [a, h] : [h, a]) as [number, number],
    );
    const rng = rngFor(seed, 'matchday', ref.slug, year, k);
    rng.shuffle(pairs);
    const later = [...LATER_TODAY];
    const slot = slots[k]!;
    pairs.forEach(([home, away], j) => {
      matches.push({
        id: matchId(year, index, k * (n / 2) + j + 1),
        matchday: k,
        home,
        away,
        kickoffMs: kickoffOf(slot, j, () => rng.pick(SLOTS), later),
        postponed: k === postponedDay && j === postponedPlace,
      });
    });
  }
  return { window, matchdays, matches };
}

const CALENDARS = new Map<string, LeagueCalendar>();

/** Calendars are small and asked for repeatedly by a live loop; keep the last few. */
function calendarOf(seed: number, index: number, year: number, scale: number): LeagueCalendar {
  const key = `${seed}/${index}/${year}/${scale}`;
  let c = CALENDARS.get(key);
  if (!c) {
    c = buildCalendar(seed, LEAGUES[index]!, index, year, scale);
    if (CALENDARS.size >= 64) CALENDARS.delete(CALENDARS.keys().next().value!);
    CALENDARS.set(key, c);
  }
  return c;
}

const chosen = (leagues: readonly string[] | undefined) =>
  LEAGUES.map((ref, index) => ({ ref, index })).filter(({ ref }) => !leagues || leagues.includes(ref.slug));

/** The demo calendar's kickoff instants in [fromMs, toMs), sorted (all 16 leagues unless named; postponed left out). */
export function demoKickoffs(
  seed: number,
  scale: number,
  fromMs: number,
  toMs: number,
  leagues?: readonly string[],
): number[] {
  const out = new Set<number>();
  for (const { ref, index } of chosen(leagues)) {
    const last = seasonWindowAt(ref, index, Math.max(fromMs, toMs - 1)).year;
    for (let year = seasonWindowAt(ref, index, fromMs).year; year <= last; year++) {
      for (const m of calendarOf(seed, index, year, scale).matches) {
        if (!m.postponed && m.kickoffMs >= fromMs && m.kickoffMs < toMs) out.add(m.kickoffMs);
      }
    }
  }
  return [...out].sort((a, b) => a - b);
}

/** The first kickoff of the earliest matchday (of any league, or of those named) that starts at or after atMs. */
export function nextMatchdayStart(seed: number, scale: number, atMs: number, leagues?: readonly string[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const { ref, index } of chosen(leagues)) {
    const year = seasonWindowAt(ref, index, atMs).year;
    for (const y of [year, year + 1]) {
      const firsts = new Map<number, number>();
      for (const m of calendarOf(seed, index, y, scale).matches) {
        if (!m.postponed) firsts.set(m.matchday, Math.min(firsts.get(m.matchday) ?? m.kickoffMs, m.kickoffMs));
      }
      for (const start of firsts.values()) if (start >= atMs && start < best) best = start;
    }
  }
  return best;
}

/** Longer than any demo match runs, kickoff to final whistle (two halves, the break and stoppage). */
const MATCH_SPAN_MS = 2 * 3_600_000;

/**
 * The first kickoff of the matchday under way at atMs — of the chosen leagues' matchdays that have
 * begun and are not over, the one that began first — or, when none is, of the next one.
 */
export function currentMatchdayStart(seed: number, scale: number, atMs: number, leagues?: readonly string[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const { ref, index } of chosen(leagues)) {
    const year = seasonWindowAt(ref, index, atMs).year;
    for (const y of [year - 1, year]) {
      const span = new Map<number, [number, number]>();
      for (const m of calendarOf(seed, index, y, scale).matches) {
        if (m.postponed) continue;
        const [first, last] = span.get(m.matchday) ?? [m.kickoffMs, m.kickoffMs];
        span.set(m.matchday, [Math.min(first, m.kickoffMs), Math.max(last, m.kickoffMs)]);
      }
      for (const [first, last] of span.values()) {
        if (first <= atMs && atMs < last + MATCH_SPAN_MS && first < best) best = first;
      }
    }
  }
  return Number.isFinite(best) ? best : nextMatchdayStart(seed, scale, atMs, leagues);
}
