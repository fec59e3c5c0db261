/**
 * The loop's cadence with a planned provider (ESPN): the live cycle while a league is hot (or the
 * sync stopped before saying), else the idle one, cut short to wake at the next hot start
 * (docs/cli.md, "fds live").
 */
import type { ProviderNote } from '../sync/provider.js';

export function nextCycleIn(note: ProviderNote | undefined, everyMs: number, idleMs: number, now = Date.now()): number {
  if (!note || note.hot.length) return everyMs;
  const nextHot = note.nextHotAt ? Date.parse(note.nextHotAt) - now : Number.POSITIVE_INFINITY;
  return Math.max(Math.min(everyMs, idleMs), Math.min(idleMs, nextHot));
}
