/**
 * Reach (CONTRACT §5.2): which pre-rendered requests the CDN's literal rules reach first, and the
 * hot set every build must reach. The order is declared per route in the route table (`reach`):
 * league-level requests first, then per-match requests by their match's closeness to the snapshot
 * time — live matches, then yesterday's, today's and tomorrow's (UTC days around the snapshot), then
 * outward a day at a time — each request's shortest spelling before its other spellings. Days are
 * the snapshot's, not the wall clock's, so the same store always gives the same rules.
 *
 * A `match` route names its match by the `league` path parameter and the `eventId` path parameter
 * or, for the `/summary?event=ID` spelling, the `event` query parameter.
 */
import type { StoreReader } from '../store/read/reader.js';
import { parseYmd } from '../util/time.js';
import type { RequestForm } from './plan.js';

/** Pre-rendered requests (each in its shortest spelling) and how many of them the CDN reaches from files. */
export interface ReachCount {
  requests: number;
  reached: number;
  hot: number;
  hotReached: number;
}

export const noReach = (): ReachCount => ({ requests: 0, reached: 0, hot: 0, hotReached: 0 });

const DAY_MS = 86_400_000;
/** Where a request of a match the store does not know (or a match-less one) goes: after every dated match. */
const FAR = 1_000_000;

interface Timing {
  live: boolean;
  /** Whole UTC days between the match's day and the snapshot's. */
  distance: number;
}

export class ReachPolicy {
  private readonly day: number;
  private memo: { key: string; timing: Timing | null } | null = null;

  /** `at`: the snapshot time the build renders at. */
  constructor(
    private readonly store: StoreReader,
    at: Date,
  ) {
    this.day = Math.floor(at.getTime() / DAY_MS);
  }

  private distanceTo(day: string): number {
    const d = parseYmd(day);
    return d ? Math.abs(Math.floor(d.getTime() / DAY_MS) - this.day) : FAR;
  }

  /** Yesterday, today or tomorrow, in UTC days around the snapshot. */
  readonly nearDay = (day: string): boolean => this.distanceTo(day) <= 1;

  private timing(form: RequestForm): Timing | null {
    const league = form.params.league;
    const id = form.params.eventId ?? form.query.find(([k]) => k === 'event')?.[1];
    if (!league || !id) return null;
    const key = `${league}\0${id}`;
    // Plans and manifests list a match's requests together: remembering the last match is enough.
    if (this.memo?.key === key) return this.memo.timing;
    // The stored scoreboard day is the kickoff's UTC day (CONTRACT §2.4), so no record is parsed.
    const row = this.store.matches.dayOf(league, id);
    const timing = row ? { live: row.state === 'in', distance: this.distanceTo(row.day) } : null;
    this.memo = { key, timing };
    return timing;
  }

  /** THE hot set: is this request, in its shortest spelling, one every build must reach from files? */
  isHot(form: RequestForm): boolean {
    const reach = form.route.reach;
    if (!reach?.hot?.(Object.fromEntries(form.query), this.nearDay)) return false;
    if (reach.level === 'league') return true;
    const t = this.timing(form);
    return t !== null && (t.live || t.distance <= 1);
  }

  /**
   * When a literal spelling is admitted: lower first. `shortest`: it is a request's shortest
   * spelling (`hot`: of a hot request). Hot requests come first so that they always fit.
   */
  priority(form: RequestForm, shortest: boolean, hot: boolean): number {
    const level = form.route.reach?.level ?? 'match';
    if (hot) return level === 'league' ? 0 : 1;
    if (level === 'league') return shortest ? 2 : 3;
    const t = this.timing(form);
    const closeness = t === null ? FAR : t.live ? 0 : Math.max(1, t.distance);
    return 4 + 2 * closeness + (shortest ? 0 : 1);
  }
}
