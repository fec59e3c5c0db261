/**
 * How recently a unit was synced successfully, from sync_state. Squads change far more slowly than
 * scores, so a routine sync can leave a roster alone for a while (`fds sync --full` overrides).
 */
import type { DB } from '../store/db.js';
import type { Clock } from '../util/time.js';

export const ROSTER_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A predicate: did `provider` store this team's roster successfully within `maxAgeMs` of now? */
export function rosterFreshness(db: DB, provider: string, clock: Clock, maxAgeMs = ROSTER_MAX_AGE_MS) {
  const stmt = db
    .prepare(
      `SELECT last_success_at FROM sync_state
       WHERE league_slug = ? AND resource = 'roster' AND resource_key = ? AND provider = ?`,
    )
    .pluck();
  return (league: string, teamId: string): boolean => {
    const at = stmt.get(league, teamId, provider) as string | null | undefined;
    if (!at) return false;
    const age = clock().getTime() - Date.parse(at);
    return age >= 0 && age < maxAgeMs;
  };
}
