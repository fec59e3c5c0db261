/** /scoreboard and /fixtures: a league's matches by day, or filtered and paged. */
import type { StoreReader } from '../../store/read/reader.js';
import type { EventRow, FixtureFilter } from '../../store/read/types.js';
import type { Clock } from '../../util/time.js';
import { ymd } from '../../util/time.js';
import type { HandlerResult } from '../route.js';
import type { ChangeView } from '../reads.js';
import { topic } from '../reads.js';
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

/** `kept`: the page's events as the published page has them (`eventsStand`), instead of the store's. */
export function fixtures(store: StoreReader, league: string, q: FixturesQuery, kept?: RawJson): HandlerResult {
  const { ref } = requireLeague(store, league);
  const filter = filterOf(q);
  const count = store.matches.count(league, filter);
  const offset = pageOffset(q.page, q.limit);
  const rows = kept || offset >= count ? [] : store.matches.page(league, filter, q.limit, offset);
  return {
    body: {
      league: ref,
      count,
      pageIndex: q.page,
      pageSize: q.limit,
      pageCount: pageCount(count, q.limit),
      filters: { from: q.from, to: q.to, status: q.status },
      events: kept ?? events(store, league, rows),
    },
    // Only a page of a status that never lists a match in play keeps its events (eventsStand).
    live: rows.some((r) => r.state === 'in'),
  };
}

/**
 * Whether a fixtures page still lists the events the published one (`before`, without them) lists,
 * byte for byte. A match whose record did not change keeps its place in kickoff order, whether the
 * filter takes it and its bytes (while the league's catalogue stands). So when the list took none of
 * the changed matches before — it grew by just those it takes now — and none of those comes before
 * the page's end, the page lists what it did; only its count may have moved. Not for a page that
 * may list a match in play, whose cache lifetime follows its events.
 */
export function eventsStand(
  store: StoreReader,
  league: string,
  q: FixturesQuery,
  before: Readonly<Record<string, unknown>>,
  changes: ChangeView,
): boolean {
  const state = STATE_OF[q.status];
  if ((state !== 'pre' && state !== 'post') || typeof before.count !== 'number') return false;
  if (changes.topics.has(topic.catalogue(league))) return false;
  const { count, taken, first } = listChanges(store, league, filterOf(q), changes);
  return before.count === count - taken && (first === null || first >= pageOffset(q.page, q.limit) + q.limit);
}

type ListChanges = { count: number; taken: number; first: number | null };

/** By change view, then by league and filter: a build asks of every page of a list. */
const listsChanged = new WeakMap<ChangeView, Map<string, ListChanges>>();

/** How long a filtered list is, how many of the league's changed matches it takes, and where the first of them is. */
function listChanges(store: StoreReader, league: string, filter: FixtureFilter, changes: ChangeView): ListChanges {
  let lists = listsChanged.get(changes);
  if (!lists) {
    lists = new Map();
    listsChanged.set(changes, lists);
  }
  const key = `${league}\0${filter.from}\0${filter.to}\0${filter.state}`;
  let list = lists.get(key);
  if (!list) {
    list = {
      count: store.matches.count(league, filter),
      ...store.matches.taken(league, filter, changes.matchesOf(league)),
    };
    lists.set(key, list);
  }
  return list;
}
