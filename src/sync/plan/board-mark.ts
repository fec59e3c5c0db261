/**
 * What of a match's board entry makes its summary worth asking for again: the kickoff, the score,
 * the status and period, and the goals and cards (details). The running clock and the live
 * statistics move on every board and are left out, or every poll of a match in play would look
 * like news.
 */
import type { MatchRecord } from '../../store/records.js';

export function boardMark(r: MatchRecord): string {
  return JSON.stringify([
    r.date,
    r.status.type.name,
    r.status.period,
    r.competitors.map((c) => [c.score, c.shootoutScore ?? null]),
    r.details,
  ]);
}
