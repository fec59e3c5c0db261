/** /scoreboard and /fixtures: a league's matches by day, or filtered and paged. */
import type { StoreReader } from '../../store/read/reader.js';
import type { EventRow } from '../../store/read/types.js';
import type { Clock } from '../../util/time.js';
import { ymd } from '../../util/time.js';
import type { HandlerResult } from '../route.js';
import { fillEvent } from '../../store/shape/event.js';
import { RawJson } from '../raw-json.js';
import { requireLeague } from '../serialize/league.js';
import type { FixtureStatus } from '../vocab.js';
import { STATE_OF, pageCount, pageOffset } from '../vocab.js';

/** Each event is spliced in as the store holds it, its clubs' catalogSource filled from the league's catalogue. */
const events = (store: StoreReader, league: string, rows: EventRow[]) => {
  const catalogue = store.catalogue(league);
  return rows.map((r) => new RawJson(fillEvent(r.json, r.holes, catalogue)));
};

export function scoreboard(store: StoreReader, clock: Clock, league: string, dates: string | null): HandlerResult {
  const { ref } = requireLeague(store, league);
  // The date-less form follows the clock, so it is never pre-rendered.
  const rows = store.matches.eventsOnDate(league, dates ?? ymd(clock()));
  return { body: { leagues: [ref], events: events(store, league, rows) }, live: rows.some((r) => r.state === 'in') };
}

export interface FixturesQuery {
  from: string | null;
  to: string | null;
  status: FixtureStatus;
  page: number;
  limit: number;
}

const filterOf = (q: Pick<FixturesQuery, 'from' | 'to' | 'status'>) => ({
  from: q.from,
  to: q.to,
  state: STATE_OF[q.status],
});

/** How many matches a fixtures request lists over all its pages. */
export function countFixtures(store: StoreReader, league: string, q: Pick<FixturesQuery, 'from' | 'to' | 'status'>) {
  return store.matches.count(league, filterOf(q));
}

export function fixtures(store: StoreReader, league: string, q: FixturesQuery): HandlerResult {
  const { ref } = requireLeague(store, league);
  const filter = filterOf(q);
  const count = store.matches.count(league, filter);
  const offset = pageOffset(q.page, q.limit);
  const rows = offset >= count ? [] : store.matches.page(league, filter, q.limit, offset);
  return {
    body: {
      league: ref,
      count,
      pageIndex: q.page,
      pageSize: q.limit,
      pageCount: pageCount(count, q.limit),
      filters: { from: q.from, to: q.to, status: q.status },
      events: events(store, league, rows),
    },
    live: rows.some((r) => r.state === 'in'),
  };
}
