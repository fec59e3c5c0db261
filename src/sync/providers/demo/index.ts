/**
 * The deterministic demo provider: a synthetic ESPN. It answers with ESPN-shaped payloads that go
 * through the same mapping as real data. The season of a league that contains the clock (clubs,
 * calendar, results) is computed on first use; each payload is generated when it is asked for.
 * The season follows from (seed, season, scale); the clock only decides how far it has got.
 * No wall clock, no Math.random.
 */
import { LEAGUES } from '../../../reference/leagues.js';
import type { LeagueRef } from '../../../reference/leagues.js';
import { parseYmd } from '../../../util/time.js';
import type { ListingProvider } from '../../provider.js';
import { scoreboardPayload } from './payloads-board.js';
import type { MatchView } from './payloads-board.js';
import { rosterPayload, standingsPayload, teamsPayload } from './payloads-clubs.js';
import { playsPages } from './payloads-plays.js';
import { summaryPayload } from './payloads-summary.js';
import { seasonWindowAt } from './calendar.js';
import { atClock } from './progress.js';
import type { LeagueSeason } from './progress.js';
import { buildSeason } from './season.js';
import type { DemoMatch } from './season.js';
import { clockAt, visibleEvents } from './match-clock.js';
import { buildScript } from './timeline.js';
import { realBoardEvent } from './real-board.js';
import { realPlaysPages } from './real-plays.js';
import { realSummary } from './real-summary.js';
import type { MatchScript } from './timeline.js';
import { checkWindow, routineChanges } from './routine.js';
import type { DemoRoutine } from './routine.js';

export type { DemoRoutine } from './routine.js';

/** For `fds live`: the demo calendar's kickoff instants, to start a clock at a matchday's first kickoff. */
export { currentMatchdayStart, demoKickoffs, nextMatchdayStart } from './calendar.js';

export interface DemoOptions {
  seed: number;
  /** The clock: how far the seasons have got. Give this or `today`. */
  now?: Date;
  /** The clock as a date, YYYYMMDD, meaning 12:00 UTC that day. */
  today?: string;
  /** Size multiplier (> 0): the number of matchdays scales with it. */
  scale: number;
  /**
   * A routine sync (routine.ts): only the days that moved on since the store took them, settled
   * matches and fresh rosters left alone. Without it, the whole season is pulled and refreshed.
   */
  routine?: DemoRoutine;
  /**
   * Only the matches of these days (YYYYMMDD, inclusive) get their summaries and plays pulled;
   * everything else (boards, clubs, tables) is pulled whole. `fds start` takes a season this way
   * first, to serve its boards and the matches around the clock at once, then the rest (cli/start.ts).
   * Not with `routine`.
   */
  matchDays?: { from: string; to: string };
  /**
   * Payload weight (issue #50): `real` (the default) gives the payloads ESPN's sizes and proportions
   * (real-summary.ts, real-board.ts, real-plays.ts); `light` is the demo's compact payloads.
   */
  weight?: DemoWeight;
}

export type DemoWeight = 'real' | 'light';
export const DEMO_WEIGHTS: readonly DemoWeight[] = ['real', 'light'];
export const DEFAULT_DEMO_WEIGHT: DemoWeight = 'real';

/** The clock `--today YYYYMMDD` stands for: noon UTC that day. */
export function demoReferenceInstant(today: string): Date {
  const day = parseYmd(today);
  if (!day) throw new Error(`demo: today must be a valid YYYYMMDD date, got ${JSON.stringify(today)}`);
  return new Date(day.getTime() + 12 * 3_600_000);
}

/**
 * A payload is generated on a turn of the event loop of its own: the sync maps and stores each one
 * as it comes, instead of the generator running ahead through the microtask queue with hundreds of
 * payloads held in memory.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Summary and plays of one match are asked for back to back; keep a few scripts rather than rebuild. */
const SCRIPT_CACHE = 512;

export function createDemoProvider(opts: DemoOptions): ListingProvider {
  if (!Number.isSafeInteger(opts.seed)) throw new Error(`demo: seed must be an integer, got ${opts.seed}`);
  if (!(Number.isFinite(opts.scale) && opts.scale > 0))
    throw new Error(`demo: scale must be a number > 0, got ${opts.scale}`);
  if ((opts.now === undefined) === (opts.today === undefined))
    throw new Error('demo: give the clock as exactly one of now and today');
  const clockMs = opts.now ? opts.now.getTime() : demoReferenceInstant(opts.today!).getTime();
  if (!Number.isFinite(clockMs)) throw new Error('demo: now must be a valid instant');
  const routine = opts.routine;
  const weight = opts.weight ?? DEFAULT_DEMO_WEIGHT;
  if (!DEMO_WEIGHTS.includes(weight))
    throw new Error(`demo: weight must be real or light, got ${JSON.stringify(weight)}`);
  const real = weight === 'real';
  if (routine) checkWindow(routine.from, routine.to);
  const matchDays = opts.matchDays;
  if (matchDays) {
    if (routine) throw new Error('demo: matchDays is for a whole-season sync, not a routine one');
    checkWindow(matchDays.from, matchDays.to);
  }
  const seasons = new Map<string, LeagueSeason>();
  const scripts = new Map<string, MatchScript>();

  const leagueIndex = new Map<string, [LeagueRef, number]>(LEAGUES.map((ref, i) => [ref.slug, [ref, i]]));
  const season = (league: string): LeagueSeason | undefined => {
    let s = seasons.get(league);
    if (!s) {
      const found = leagueIndex.get(league);
      if (!found) return undefined;
      const [ref, index] = found;
      const year = seasonWindowAt(ref, index, clockMs).year;
      s = atClock(buildSeason(opts.seed, ref, index, year, opts.scale), clockMs);
      seasons.set(league, s);
    }
    return s;
  };

  const view = (s: LeagueSeason, m: DemoMatch): MatchView => {
    const clock = clockAt(m, clockMs);
    if (clock.status === 'pre') return { m, clock, script: null, events: [] };
    let script = scripts.get(m.id);
    if (!script) {
      script = buildScript(s, m);
      if (scripts.size >= SCRIPT_CACHE) scripts.delete(scripts.keys().next().value!);
      scripts.set(m.id, script);
    }
    return { m, clock, script, events: visibleEvents(script, clock) };
  };

  const match = (league: string, eventId: string) => {
    const s = season(league);
    const m = s?.byId.get(eventId);
    return s && m ? { s, m } : undefined;
  };

  return {
    name: 'demo',
    refetchFinished: !routine,
    async scoreboardDates(league) {
      const s = season(league);
      if (!s) return [];
      return routine ? routineChanges(s, routine, clockMs).days() : [...s.days];
    },
    async scoreboard(league, date) {
      const s = season(league);
      const matches = s?.byDay.get(date);
      if (!s || !matches) return undefined;
      const views = matches.map((m) => view(s, m));
      const board = scoreboardPayload(s, date, views);
      if (!real) return board;
      return { ...board, events: board.events.map((e, i) => realBoardEvent(s, views[i]!, e)) };
    },
    async eventIds(league, boardEventIds) {
      const s = season(league);
      if (!s) return [];
      // A routine sync looks only at the matches on the boards it took that moved on.
      if (routine) return routineChanges(s, routine, clockMs).events(boardEventIds).sort();
      if (matchDays) {
        const days = s.days.filter((d) => d >= matchDays.from && d <= matchDays.to);
        return days.flatMap((d) => s.byDay.get(d)!.map((m) => m.id)).sort();
      }
      return s.matches.map((m) => m.id).sort();
    },
    async summary(league, eventId) {
      await turn();
      const found = match(league, eventId);
      if (!found) return undefined;
      const v = view(found.s, found.m);
      const light = summaryPayload(found.s, v);
      return real ? realSummary(found.s, v, light) : light;
    },
    async plays(league, eventId) {
      await turn();
      const found = match(league, eventId);
      if (!found) return undefined;
      const v = view(found.s, found.m);
      // Nothing has happened before kickoff (or in a postponed match): there is no stream.
      if (!v.script) return undefined;
      return real ? realPlaysPages(found.s, v, clockMs) : playsPages(found.s, v);
    },
    async teams(league) {
      const s = season(league);
      return s ? teamsPayload(s) : undefined;
    },
    async rosterTeamIds(league) {
      const ids = (season(league)?.clubs ?? []).map((c) => c.id);
      return routine ? ids.filter((id) => !routine.isRosterFresh(league, id)) : ids;
    },
    async roster(league, teamId) {
      const s = season(league);
      const club = s?.clubById.get(teamId);
      return s && club ? rosterPayload(s, club) : undefined;
    },
    async standingsSeasons(league) {
      return season(league) ? [null] : [];
    },
    async standings(league, seasonYear) {
      const s = season(league);
      if (!s || (seasonYear !== null && seasonYear !== s.season.year)) return undefined;
      return standingsPayload(s);
    },
  };
}
