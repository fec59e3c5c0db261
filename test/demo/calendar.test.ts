import { describe, expect, it } from 'vitest';
import { LEAGUES } from '../../src/reference/leagues.js';
import { buildCalendar, seasonWindowAt } from '../../src/sync/providers/demo/calendar.js';
import type { LeagueCalendar } from '../../src/sync/providers/demo/calendar.js';
import { createDemoProvider, demoKickoffs, nextMatchdayStart } from '../../src/sync/providers/demo/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MATCH = 2 * HOUR;

const cache = new Map<string, LeagueCalendar>();
function calendarAt(index: number, ms: number, scale = 1, seed = 1): LeagueCalendar {
  const year = seasonWindowAt(LEAGUES[index]!, index, ms).year;
  const key = `${index}/${year}/${scale}/${seed}`;
  if (!cache.has(key)) cache.set(key, buildCalendar(seed, LEAGUES[index]!, index, year, scale));
  return cache.get(key)!;
}

const weekday = (ms: number) => ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(ms).getUTCDay()]!;

describe('the demo calendar', () => {
  it('gives three in four leagues, every day of the year, finished matches and a matchday within three weeks', () => {
    let fewest = 16;
    for (let t = Date.UTC(2026, 0, 1, 12); t < Date.UTC(2027, 0, 1); t += DAY) {
      const busy = LEAGUES.filter((_, index) => {
        const kickoffs = calendarAt(index, t).matches.map((m) => m.kickoffMs);
        const next = Math.min(...kickoffs.filter((k) => k > t));
        return kickoffs.some((k) => k + MATCH < t) && next - t <= 21 * DAY;
      }).length;
      fewest = Math.min(fewest, busy);
    }
    expect(fewest).toBeGreaterThanOrEqual(12);
  });

  it('turns split seasons over in July and calendar-year seasons on 1 January', () => {
    const years = (iso: string) =>
      LEAGUES.map((ref, i) => [ref.slug, seasonWindowAt(ref, i, Date.parse(iso)).year]).filter(
        ([slug]) => slug === 'eng.1' || slug === 'usa.1',
      );
    expect(years('2026-06-30T23:59:59Z')).toEqual([
      ['eng.1', 2025],
      ['usa.1', 2026],
    ]);
    expect(years('2026-07-01T00:00:00Z')).toEqual([
      ['eng.1', 2026],
      ['usa.1', 2026],
    ]);
    expect(years('2027-01-01T00:00:00Z')).toEqual([
      ['eng.1', 2026],
      ['usa.1', 2027],
    ]);
  });

  it('plays a double round robin on weekends, with the early block on Saturday, breaking on the same weekends', () => {
    const at = Date.parse('2026-03-21T12:00:00Z');
    const weekends = new Map<string, Set<number>>();
    LEAGUES.forEach((ref, index) => {
      const c = calendarAt(index, at);
      const clubs = 2 * (c.matches.length / c.matchdays);
      expect(c.matchdays).toBe(2 * (clubs - 1));
      const pairs = new Set(c.matches.map((m) => `${m.home}-${m.away}`));
      expect(pairs.size).toBe(clubs * (clubs - 1));
      for (let k = 0; k < c.matchdays; k++) {
        const day = c.matches.filter((m) => m.matchday === k);
        expect(new Set(day.flatMap((m) => [m.home, m.away])).size).toBe(clubs);
        expect(new Set(day.map((m) => weekday(m.kickoffMs)))).toEqual(new Set(['Fri', 'Sat', 'Sun']));
        const early = day.filter((m) => weekday(m.kickoffMs) === 'Sat' && new Date(m.kickoffMs).getUTCHours() < 12);
        expect(early).toHaveLength(3);
        const friday = Math.floor(Math.min(...day.map((m) => m.kickoffMs)) / DAY);
        if (!weekends.has(ref.slug)) weekends.set(ref.slug, new Set());
        weekends.get(ref.slug)!.add(friday);
      }
    });
    // International-break style: the leagues with fewer matchdays rest whenever the longer ones do.
    const eng = weekends.get('eng.1')!;
    const sco = weekends.get('sco.1')!;
    const overlap = [...sco].filter((d) => d > Date.parse('2025-08-01') / DAY && d < Date.parse('2026-06-01') / DAY);
    expect(overlap.every((d) => eng.has(d))).toBe(true);
  });

  it('fits every scale into the season, adding midweek rounds when there are more matchdays than weekends', () => {
    const at = Date.parse('2026-03-21T12:00:00Z');
    for (const scale of [0.1, 0.5, 1, 2, 4, 10]) {
      const c = calendarAt(4, at, scale);
      const kickoffs = c.matches.map((m) => m.kickoffMs);
      expect(Math.min(...kickoffs)).toBeGreaterThanOrEqual(c.window.startMs);
      expect(Math.max(...kickoffs) + MATCH).toBeLessThan(c.window.endMs);
      expect(c.matches).toHaveLength(10 * Math.round(38 * scale));
      if (scale >= 10) continue;
      // While there are fewer matchdays than days, a club's matches never overlap.
      for (let club = 0; club < 20; club++) {
        const own = c.matches
          .filter((m) => m.home === club || m.away === club)
          .map((m) => m.kickoffMs)
          .sort((a, b) => a - b);
        own.slice(1).forEach((k, i) => {
          expect(k - own[i]!).toBeGreaterThan(MATCH);
        });
      }
    }
    const days = (scale: number) => new Set(calendarAt(4, at, scale).matches.map((m) => weekday(m.kickoffMs)));
    expect(days(1)).toEqual(new Set(['Fri', 'Sat', 'Sun']));
    expect(days(2)).toEqual(new Set(['Fri', 'Sat', 'Sun', 'Tue', 'Wed']));
  });

  it('depends on the seed and season, never on the day it is asked', () => {
    const a = buildCalendar(1, LEAGUES[4]!, 4, 2025, 1);
    expect(buildCalendar(1, LEAGUES[4]!, 4, 2025, 1)).toEqual(a);
    expect(buildCalendar(2, LEAGUES[4]!, 4, 2025, 1).matches).not.toEqual(a.matches);
    const other = buildCalendar(1, LEAGUES[4]!, 4, 2026, 1);
    expect(other.matches.map((m) => m.id).filter((id) => a.matches.some((x) => x.id === id))).toEqual([]);
    expect(a.matches.filter((m) => m.postponed)).toHaveLength(1);
  });

  it('tells a live loop where the next matchday starts, and a match kicks off there', async () => {
    const wednesday = Date.parse('2026-03-18T12:00:00Z');
    const start = nextMatchdayStart(1, 1, wednesday);
    expect(weekday(start)).toBe('Fri');
    expect(demoKickoffs(1, 1, wednesday, start)).toEqual([]);
    expect(demoKickoffs(1, 1, start, start + 1)).toEqual([start]);
    expect(nextMatchdayStart(1, 1, start)).toBe(start);
    const engStart = nextMatchdayStart(1, 1, wednesday, ['eng.1']);
    expect(engStart).toBeGreaterThanOrEqual(start);
    const provider = createDemoProvider({ seed: 1, now: new Date(engStart + 60_000), scale: 1, weight: 'light' });
    const day = new Date(engStart).toISOString().slice(0, 10).replaceAll('-', '');
    const board = (await provider.scoreboard('eng.1', day)) as {
      events: Array<{ date: string; status: { type: { state: string } } }>;
    };
    const kicked = board.events.filter((e) => Date.parse(e.date) === engStart);
    expect(kicked.length).toBeGreaterThan(0);
    expect(kicked.every((e) => e.status.type.state === 'in')).toBe(true);
  });
});
