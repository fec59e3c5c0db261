/**
 * What the static build pre-renders (CONTRACT §5.1), per route, as canonical requests: every
 * enumerated query parameter is spelled out. Enumerators are generators that stream ids from the
 * store, so the build's memory does not grow with the number of matches.
 */
import type { StoreReader } from '../store/read/reader.js';
import { DEFAULT_LIMIT } from './fields.js';
import { FIXTURE_STATUSES, STATE_OF } from './handlers/matches.js';
import type { PrerenderRequest } from './route.js';

const pages = (count: number, limit: number) => Math.max(1, Math.ceil(count / limit));
const slugs = (store: StoreReader) => store.leagues.all().map((l) => l.slug);

export function* once(): Iterable<PrerenderRequest> {
  yield { params: {}, query: {} };
}

export function* leagues(): Iterable<PrerenderRequest> {
  for (const kind of ['club', 'international', 'all']) {
    for (const available of ['false', 'true']) yield { params: {}, query: { kind, available } };
  }
}

export function* perLeague(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) yield { params: { league }, query: {} };
}

/** Only stored days: the date-less scoreboard follows the clock and is always rendered live. */
export function* scoreboards(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    for (const dates of store.matches.dates(league)) yield { params: { league }, query: { dates } };
  }
}

export function* fixtures(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    for (const status of FIXTURE_STATUSES) {
      const count = store.matches.count(league, { from: null, to: null, state: STATE_OF[status] });
      for (let page = 1; page <= pages(count, DEFAULT_LIMIT); page++)
        yield { params: { league }, query: { status, page: String(page) } };
    }
  }
}

export function* events(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    for (const eventId of store.matches.ids(league)) yield { params: { league, eventId }, query: {} };
  }
}

export function* plays(store: StoreReader, maxLimit: number): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    for (const eventId of store.matches.ids(league)) {
      const params = { league, eventId };
      for (const important of [false, true]) {
        const count = store.plays.count(league, eventId, important);
        for (let page = 1; page <= pages(count, DEFAULT_LIMIT); page++) {
          yield { params, query: { important: String(important), page: String(page) } };
        }
        yield { params, query: { important: String(important), limit: String(maxLimit) } };
      }
    }
  }
}

export function* clubs(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    const ids = store.clubs
      .list(league)
      .map((c) => c.record.id)
      .sort();
    for (const clubId of ids) yield { params: { league, clubId }, query: {} };
  }
}

export function* standings(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    yield { params: { league }, query: {} };
    for (const season of store.standings.seasons(league)) yield { params: { league }, query: { season } };
  }
}
