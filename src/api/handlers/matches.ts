/** /scoreboard and /fixtures: a league's matches by day, or filtered and paged. */
import type { StoreReader } from '../../store/read/reader.js';
import type { MatchState } from '../../store/records.js';
import type { MatchRow } from '../../store/read/types.js';
import type { Clock } from '../../util/time.js';
import { ymd } from '../../util/time.js';
import type { HandlerResult } from '../route.js';
import { eventBody } from '../serialize/event.js';
import { requireLeague } from '../serialize/league.js';

export const FIXTURE_STATUSES = ['all', 'scheduled', 'live', 'finished'] as const;
export type FixtureStatus = (typeof FIXTURE_STATUSES)[number];

export const STATE_OF: Record<FixtureStatus, MatchState | null> = {
  all: null,
  scheduled: 'pre',
  live: 'in',
  finished: 'post',
};

const events = (store: StoreReader, league: string, rows: MatchRow[]) => {
  const catalogue = store.catalogue(league);
  return rows.map((r) => eventBody(r.record, catalogue));
};

export function scoreboard(store: StoreReader, clock: Clock, league: string, dates: string | null): HandlerResult {
  const { body } = requireLeague(store, league);
  // The date-less form follows the clock, so it is never pre-rendered.
  const rows = store.matches.onDate(league, dates ?? ymd(clock()));
  return { body: { leagues: [body], events: events(store, league, rows) }, live: rows.some((r) => r.state === 'in') };
}

export interface FixturesQuery {
  from: string | null;
  to: string | null;
  status: FixtureStatus;
  page: number;
  limit: number;
}

export function fixtures(store: StoreReader, league: string, q: FixturesQuery): HandlerResult {
  const { body } = requireLeague(store, league);
  const filter = { from: q.from, to: q.to, state: STATE_OF[q.status] };
  const count = store.matches.count(league, filter);
  const offset = (q.page - 1) * q.limit;
  const rows = offset < count ? store.matches.page(league, filter, q.limit, offset) : [];
  return {
    body: {
      league: body,
      count,
      pageIndex: q.page,
      pageSize: q.limit,
      pageCount: Math.ceil(count / q.limit),
      filters: { from: q.from, to: q.to, status: q.status },
      events: events(store, league, rows),
    },
    live: rows.some((r) => r.state === 'in'),
  };
}
