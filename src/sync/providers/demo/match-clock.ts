/** Where a live match stands at the reference instant, and which of its events have happened. */
import type { DemoMatch } from './season.js';
import type { MatchEvent, MatchScript } from './timeline.js';
import { eventKey, periodEnd } from './timeline.js';

/** Where a match stands at the reference instant. */
export interface MatchClock {
  status: 'pre' | 'first' | 'half' | 'second' | 'full';
  period: 0 | 1 | 2;
  /** Match seconds (as in MatchEvent.t) reached so far. */
  t: number;
}

export function clockAt(m: DemoMatch, refMs: number): MatchClock {
  if (m.phase === 'pre' || m.phase === 'postponed') return { status: 'pre', period: 0, t: 0 };
  if (m.phase === 'post') return { status: 'full', period: 2, t: periodEnd(m, 2) };
  const e = Math.floor((refMs - m.kickoffMs) / 1000);
  const p1 = periodEnd(m, 1);
  if (e <= p1) return { status: 'first', period: 1, t: e };
  if (e < p1 + 900) return { status: 'half', period: 1, t: p1 };
  return { status: 'second', period: 2, t: Math.min(2700 + (e - p1 - 900), periodEnd(m, 2) - 1) };
}

/** The events that have happened by the reference instant. */
export function visibleEvents(script: MatchScript, clock: MatchClock): MatchEvent[] {
  if (clock.status === 'pre') return [];
  if (clock.status === 'full') return script.events;
  const now = eventKey(clock.period, clock.t);
  return script.events.filter((e) => eventKey(e.period, e.t) <= now);
}
