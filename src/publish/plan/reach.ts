/**
 * Reach (docs/publishing.md, "Reach and the rule budget"): which pre-rendered requests the CDN's
 * literal rules reach first, and the hot set every build must reach. The order is declared per
 * route in the route table (`reach`): league-level requests first, then per-match requests by their
 * match's closeness to the snapshot time — live matches, then yesterday's, today's and tomorrow's
 * (UTC days around the snapshot), then outward a day at a time — each request's shortest spelling
 * before its other spellings. Days are the snapshot's, not the wall clock's, so the same store
 * always gives the same rules.
 *
 * A `match` route names its match by the `league` path parameter and the `eventId` path parameter
 * or, for the `/summary?event=ID` spelling, the `event` query parameter.
 */
import type { StoreReader } from '../../store/read/reader.js';
import { parseYmd } from '../../util/time.js';
import type { RequestForm } from './plan.js';
import { ROUTES_BY_NAME } from '../../app/routes.js';

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

/**
 * What a pre-rendered request's heat and admission priority depend on besides the snapshot day.
 * A build keeps it with each spooled rule candidate (rule-spool.ts), so the next build can carry an
 * untouched file's candidates over, recomputing only what the day moves, without planning the file.
 */
export interface Standing {
  level: 'league' | 'match';
  /** The route's hot test on the request's query: '0' never, '1' always, or a day: hot when that day is near. */
  hotq: string;
  /** The match a match-level request names ('' when it names none) … */
  league: string;
  id: string;
  /** … its kickoff's UTC day as the store had it ('' when the store does not know the match), and whether it was live. */
  day: string;
  live: boolean;
}

/** A hot test that depends on something other than one day's nearness: such a candidate is never carried over. */
export const UNCARRIED = '?';

/**
 * The route's hot test as data: asked once with every day near and once with none, it either does
 * not depend on the day, or (for the tests the route table has) on the nearness of the one day it asks about.
 */
function hotByQuery(form: RequestForm): string {
  const hot = form.route.reach?.hot;
  if (!hot) return '0';
  const query = Object.fromEntries(form.query);
  const asked = new Set<string>();
  const near = hot(query, (day) => {
    asked.add(day);
    return true;
  });
  const far = hot(query, () => false);
  if (near === far) return near ? '1' : '0';
  const [day] = asked;
  return near && asked.size === 1 && /^[^\s?]+$/.test(day!) && day !== '0' && day !== '1' ? day! : UNCARRIED;
}

export class ReachPolicy {
  private readonly day: number;
  private memo: { key: string; row: { day: string; live: boolean } | null } | null = null;

  /** `at`: the snapshot time the build renders at. */
  constructor(
    private readonly store: StoreReader,
    at: Date,
  ) {
    this.day = Math.floor(at.getTime() / DAY_MS);
  }

  /** Distances by day: a build asks about a few hundred days, once per candidate. */
  private readonly distances = new Map<string, number>();

  private distanceTo(day: string): number {
    let distance = this.distances.get(day);
    if (distance === undefined) {
      const d = parseYmd(day);
      distance = d ? Math.abs(Math.floor(d.getTime() / DAY_MS) - this.day) : FAR;
      if (this.distances.size < 1 << 16) this.distances.set(day, distance);
    }
    return distance;
  }

  /** Yesterday, today or tomorrow, in UTC days around the snapshot. */
  readonly nearDay = (day: string): boolean => this.distanceTo(day) <= 1;

  /** The day and liveness of a match, as the store has it now (null: the store does not know it). */
  matchNow(league: string, id: string): { day: string; live: boolean } | null {
    const key = `${league}\0${id}`;
    // Plans and manifests list a match's requests together: remembering the last match is enough.
    if (this.memo?.key === key) return this.memo.row;
    // The stored scoreboard day is the kickoff's UTC day (docs/json-api.md, "Endpoints"), so no
    // record is parsed.
    const found = this.store.matches.dayOf(league, id);
    const row = found ? { day: found.day, live: found.state === 'in' } : null;
    this.memo = { key, row };
    return row;
  }

  /** What the request's heat and priority depend on, from the route table and the store. */
  standing(form: RequestForm): Standing {
    const level = form.route.reach?.level ?? 'match';
    const hotq = hotByQuery(form);
    if (level === 'league') return { level, hotq, league: '', id: '', day: '', live: false };
    const league = form.params.league ?? '';
    const id = form.params.eventId ?? form.query.find(([k]) => k === 'event')?.[1] ?? '';
    const row = league && id ? this.matchNow(league, id) : null;
    return { level, hotq, league, id, day: row?.day ?? '', live: row?.live ?? false };
  }

  /** A match-level standing's match is live, or on a day around the snapshot's. */
  private isMatchNow(s: Standing): boolean {
    return s.day !== '' && (s.live || this.distanceTo(s.day) <= 1);
  }

  /** THE hot set, given a request's standing (of its shortest spelling). */
  hotOf(s: Standing): boolean {
    if (s.hotq === '0' || (s.hotq !== '1' && !this.nearDay(s.hotq))) return false;
    return s.level === 'league' || this.isMatchNow(s);
  }

  /**
   * Whether a request goes to the origin of a hybrid build (route.ts `Reach.volatile`): of a match
   * live or on a day around the snapshot's; else as its route says of its query (asked only then).
   */
  volatileOf(s: Standing, routeName: string, query: () => Record<string, string>): boolean {
    if (s.level === 'match') return this.isMatchNow(s);
    const volatile = ROUTES_BY_NAME.get(routeName)?.reach?.volatile;
    return volatile ? volatile(query(), this.nearDay) : false;
  }

  /**
   * When a literal spelling is admitted: lower first. `shortest`: it is a request's shortest
   * spelling (`hot`: of a hot request). Hot requests come first so that they always fit.
   */
  priorityOf(s: Standing, shortest: boolean, hot: boolean): number {
    if (hot) return s.level === 'league' ? 0 : 1;
    if (s.level === 'league') return shortest ? 2 : 3;
    // A match the store does not know goes after every dated match.
    const closeness = s.day === '' ? FAR : s.live ? 0 : Math.max(1, this.distanceTo(s.day));
    return 4 + 2 * closeness + (shortest ? 0 : 1);
  }

  /** THE hot set: is this request, in its shortest spelling, one every build must reach from files? */
  isHot(form: RequestForm): boolean {
    return this.hotOf(this.standing(form));
  }
}
