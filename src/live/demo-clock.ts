/**
 * The demo clock of `fds live`: it runs in real time from a matchday's first kickoff, so a person
 * who starts the loop sees matches kick off within minutes rather than waiting for the weekend.
 */
import { currentMatchdayStart, demoKickoffs } from '../sync/providers/demo/index.js';
import type { Clock } from '../util/time.js';

export interface LiveClockOptions {
  seed: number;
  scale: number;
  leagues: readonly string[];
  /** The reference instant: the clock starts at it, or at the start of the matchday under way then or next. */
  start: Date;
  fromMatchday: boolean;
  /** Monotonic milliseconds (performance.now by default): wall-clock steps must not move the demo. */
  elapsed?: () => number;
}

export function liveClock(opts: LiveClockOptions): Clock {
  const ref = opts.start.getTime();
  const origin = opts.fromMatchday ? currentMatchdayStart(opts.seed, opts.scale, ref, opts.leagues) : ref;
  const elapsed = opts.elapsed ?? (() => performance.now());
  const t0 = elapsed();
  return () => new Date(origin + (elapsed() - t0));
}

const DAY = 86_400_000;

/** The league whose next kickoff after `atMs` (or the one just played) comes first: the scoreboard to watch. */
export function watchLeague(seed: number, scale: number, atMs: number, leagues: readonly string[]): string {
  let best = leagues[0]!;
  let soonest = Number.POSITIVE_INFINITY;
  for (const league of leagues) {
    const next = demoKickoffs(seed, scale, atMs - 2 * 3_600_000, atMs + 7 * DAY, [league])[0];
    if (next !== undefined && next < soonest) {
      soonest = next;
      best = league;
    }
  }
  return best;
}
