/**
 * How recently a unit was synced successfully, from sync_state. Squads change far more slowly than
 * scores, so a routine sync can leave a roster alone for a while (`fds sync --full` overrides); the
 * demo also asks when each scoreboard day was last stored, to fetch only the days that moved on.
 */
import type { DB } from '../store/db.js';
import type { Resource } from '../store/records.js';
import type { Clock } from '../util/time.js';

export const ROSTER_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** A lookup: when did `provider` last store this league's `resource` unit successfully (ms), if ever? */
export function lastSuccess(db: DB, provider: string, resource: Resource) {
  const stmt = db
    .prepare(
      `SELECT last_success_at FROM sync_state
       WHERE league_slug = ? AND resource = ? AND resource_key = ? AND provider = ?`,
    )
    .pluck();
  return (league: string, key: string): number | undefined => {
    const at = stmt.get(league, resource, key, provider) as string | null | undefined;
    if (!at) return undefined;
    const ms = Date.parse(at);
    return Number.isNaN(ms) ? undefined : ms;
  };
}

/** A predicate: did `provider` store this team's roster successfully within `maxAgeMs` of now? */
export function rosterFreshness(db: DB, provider: string, clock: Clock, maxAgeMs = ROSTER_MAX_AGE_MS) {
  const synced = lastSuccess(db, provider, 'roster');
  return (league: string, teamId: string): boolean => {
    const at = synced(league, teamId);
    if (at === undefined) return false;
    const age = clock().getTime() - at;
    return age >= 0 && age < maxAgeMs;
  };
}
