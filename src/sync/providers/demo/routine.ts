/**
 * A routine demo sync (`fds live`, or `fds sync --provider demo --from/--to`): instead of the whole
 * season it pulls the scoreboard days in a window around the clock plus every other day whose board
 * can differ from the one the store took last. Because the calendar and every outcome are fixed, the
 * demo knows exactly when a day's board changes: while one of its matches is under way, and when a
 * club's previous match ends (its next fixture learns its form then). So a routine sync leaves the
 * store as a whole-season sync at the same clock would, at the cost of the few days that moved.
 */
import type { DB } from '../../../store/db.js';
import { lastSuccess, rosterFreshness } from '../../freshness.js';
import { parseYmd } from '../../../util/time.js';
import { lazy } from '../../../util/lazy.js';
import type { Clock } from '../../../util/time.js';
import type { DemoMatch, DemoSeason } from './season.js';

export interface DemoRoutine {
  /** Scoreboard days pulled whatever they hold (YYYYMMDD, inclusive). */
  from: string;
  to: string;
  /** When the store last took this league's board of this day successfully (ms), if ever. */
  boardSyncedAt: (league: string, date: string) => number | undefined;
  /** When the store last took this match's summary successfully (ms), if ever. */
  summarySyncedAt: (league: string, eventId: string) => number | undefined;
  /** Is this club's roster recent enough in the store to leave alone? */
  isRosterFresh: (league: string, teamId: string) => boolean;
}

/**
 * A routine sync against a store: what the store took and when, from its sync_state. `store` is
 * asked for only once the sync runs (a command makes the provider before it opens the store).
 */
export function storeRoutine(store: () => DB, clock: Clock, window: { from: string; to: string }): DemoRoutine {
  const boards = lazy(() => lastSuccess(store(), 'demo', 'scoreboard'));
  const summaries = lazy(() => lastSuccess(store(), 'demo', 'summary'));
  const rosters = lazy(() => rosterFreshness(store(), 'demo', clock));
  return {
    ...window,
    boardSyncedAt: (league, date) => boards()(league, date),
    summarySyncedAt: (league, id) => summaries()(league, id),
    isRosterFresh: (league, teamId) => rosters()(league, teamId),
  };
}

export function checkWindow(from: string, to: string): void {
  if (!parseYmd(from) || !parseYmd(to)) throw new Error(`demo: invalid day window ${from}..${to}`);
  if (from > to) throw new Error(`demo: the day window starts after it ends (${from}..${to})`);
}

/**
 * For each match, when each club's form going into it becomes known: the end of the club's last
 * match that is over by this kickoff (progress.ts, resultsBefore). -Infinity: known from the start.
 */
function formKnownAt(s: DemoSeason): Map<string, [number, number]> {
  const readyOf = (clubId: string, m: DemoMatch) => {
    let at = Number.NEGATIVE_INFINITY;
    for (const r of s.results.get(clubId) ?? []) if (r.endMs <= m.kickoffMs && r.endMs > at) at = r.endMs;
    return at;
  };
  return new Map(s.matches.map((m) => [m.id, [readyOf(m.home.id, m), readyOf(m.away.id, m)]]));
}

/** What of a season can have changed between the store's copy of it and the clock. */
export function routineChanges(s: DemoSeason, routine: DemoRoutine, clockMs: number) {
  let ready: Map<string, [number, number]> | undefined;
  /** Can the match's record or summary differ from what the store took at `sinceMs`? */
  const moved = (m: DemoMatch, sinceMs: number | undefined) => {
    // Never stored, or stored at a later clock than this one (the clock went back): take it again.
    if (sinceMs === undefined || sinceMs > clockMs) return true;
    if (m.postponed) return false;
    if (m.kickoffMs <= clockMs && m.endMs > sinceMs) return true;
    ready ??= formKnownAt(s);
    return ready.get(m.id)!.some((at) => at > sinceMs && at <= clockMs);
  };
  const league = s.ref.slug;
  return {
    /** The window's days, and every other day with a match that moved on since the store took its board. */
    days(): string[] {
      return s.days.filter((day) => {
        if (day >= routine.from && day <= routine.to) return true;
        const since = routine.boardSyncedAt(league, day);
        return since === undefined || since > clockMs || s.byDay.get(day)!.some((m) => moved(m, since));
      });
    },
    /** Of the matches on the boards taken, those whose summary moved on since the store took it. */
    events(boardEventIds: readonly string[]): string[] {
      return boardEventIds.filter((id) => {
        const m = s.byId.get(id);
        return !m || moved(m, routine.summarySyncedAt(league, id));
      });
    },
  };
}
