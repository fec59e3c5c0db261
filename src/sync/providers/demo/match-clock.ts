/** Where a match stands at the clock, and which of its events have happened. */
import { phaseAt } from './progress.js';
import type { DemoMatch } from './season.js';
import type { MatchEvent, MatchScript } from './timeline.js';
import { eventKey, periodEnd } from './timeline.js';

export interface MatchClock {
  status: 'pre' | 'first' | 'half' | 'second' | 'full';
  period: 0 | 1 | 2;
  /** Match seconds (as in MatchEvent.t) reached so far. */
  t: number;
}

export function clockAt(m: DemoMatch, clockMs: number): MatchClock {
  const phase = phaseAt(m, clockMs);
  if (phase === 'pre' || phase === 'postponed') return { status: 'pre', period: 0, t: 0 };
  if (phase === 'post') return { status: 'full', period: 2, t: periodEnd(m, 2) };
  const e = Math.floor((clockMs - m.kickoffMs) / 1000);
  const p1 = periodEnd(m, 1);
  if (e <= p1) return { status: 'first', period: 1, t: e };
  if (e < p1 + 900) return { status: 'half', period: 1, t: p1 };
  return { status: 'second', period: 2, t: Math.min(2700 + (e - p1 - 900), periodEnd(m, 2) - 1) };
}

/** The events that have happened by the clock. */
export function visibleEvents(script: MatchScript, clock: MatchClock): MatchEvent[] {
  if (clock.status === 'pre') return [];
  if (clock.status === 'full') return script.events;
  const now = eventKey(clock.period, clock.t);
  return script.events.filter((e) => eventKey(e.period, e.t) <= now);
}
