/**
 * What the static build pre-renders (docs/publishing.md, "What is pre-rendered"), per route, as
 * canonical requests: every enumerated query parameter is spelled out. What to enumerate comes from
 * the route's own fields (an enum's values, a boolean's two, the `limit` default and maximum) and
 * the counts from its handler, so nothing here restates a route. Enumerators are generators that
 * stream ids from the store, so the build's memory does not grow with the number of matches.
 */
import type { StoreReader } from '../store/read/reader.js';
import { listedClubIds } from './handlers/clubs.js';
import { countFixtures } from './handlers/matches.js';
import { leaguePlayCounts } from './handlers/summary.js';
import type { Field } from './fields.js';
import type { AnyRoute, PrerenderRequest, Prerendered } from './route.js';
import type { FixtureStatus } from './vocab.js';
import { pagesToRender } from './vocab.js';
import { addDays, ymd } from '../util/time.js';

export type Enumerator = (store: StoreReader, route: AnyRoute) => Iterable<Prerendered>;

function queryField(route: AnyRoute, name: string): Field<unknown> {
  const f = (route.query as Record<string, Field<unknown> | undefined>)[name];
  if (!f) throw new Error(`route ${route.name} has no query parameter ${name}`);
  return f;
}

/** Every value of an enumerable parameter, as the raw text a request spells it with. */
function valuesOf(route: AnyRoute, name: string): readonly string[] {
  const values = queryField(route, name).values;
  if (!values) throw new Error(`route ${route.name}: ${name} is not enumerable`);
  return values;
}

/** The page size a request gets when it gives no `limit`, and the largest it may ask for. */
function limits(route: AnyRoute): { fallback: number; max: number } {
  const f = queryField(route, 'limit');
  if (typeof f.fallback !== 'number' || f.max === undefined)
    throw new Error(`route ${route.name}: limit has no bounds`);
  return { fallback: f.fallback, max: f.max };
}

const slugs = (store: StoreReader) => store.leagues.all().map((l) => l.slug);

export function* once(): Iterable<PrerenderRequest> {
  yield { params: {}, query: {} };
}

/** Every combination of the route's query parameters, all of which are enumerable. */
export function* everyQuery(_store: StoreReader, route: AnyRoute): Iterable<PrerenderRequest> {
  let queries: Array<Record<string, string>> = [{}];
  for (const name of Object.keys(route.query)) {
    queries = queries.flatMap((q) => valuesOf(route, name).map((v) => ({ ...q, [name]: v })));
  }
  for (const query of queries) yield { params: {}, query };
}

export function* perLeague(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) yield { params: { league }, query: {} };
}

/**
 * Every stored day, and yesterday, today and tomorrow around the store's snapshot time even when no
 * match is stored on them: an empty day's scoreboard is a real answer (`events: []`) and among the
 * most asked for, so the CDN should have its file. The days are the snapshot's, not the build's
 * wall clock, so the same store still gives the same build. The date-less scoreboard follows the
 * clock at request time and is never a file of its own (the edge router rewrites it to today's).
 */
export function* scoreboards(store: StoreReader): Iterable<PrerenderRequest> {
  const near = nearDays(store);
  for (const league of slugs(store)) {
    const days = new Set([...store.matches.dates(league), ...near]);
    for (const dates of [...days].sort()) yield { params: { league }, query: { dates } };
  }
}

/** Yesterday, today and tomorrow (UTC) around the snapshot time; none for a store never synced. */
export function nearDays(store: StoreReader): string[] {
  const at = store.meta().snapshotAt;
  if (at === null) return [];
  const day = new Date(at);
  return [-1, 0, 1].map((d) => ymd(addDays(day, d)));
}

/**
 * Every status, every page at the default page size. A page of all matches also names the days of
 * the matches it lists: unless a match is added or moves in kickoff order, it changes only with them.
 */
export function* fixtures(store: StoreReader, route: AnyRoute): Iterable<PrerenderRequest> {
  const { fallback: size } = limits(route);
  for (const league of slugs(store)) {
    for (const status of valuesOf(route, 'status')) {
      const count = countFixtures(store, league, { from: null, to: null, status: status as FixtureStatus });
      const days = status === 'all' ? store.matches.daysInOrder(league) : null;
      for (let page = 1; page <= pagesToRender(count, size); page++) {
        const query = { status, page: String(page) };
        if (!days) yield { params: { league }, query };
        else yield { params: { league }, query, days: [...new Set(days.slice((page - 1) * size, page * size))] };
      }
    }
  }
}

/** One group per match (route.ts `PrerenderGroup`): most matches are untouched by a sync. */
export function* events(store: StoreReader): Iterable<Prerendered> {
  for (const league of slugs(store)) {
    for (const eventId of store.matches.ids(league)) {
      const params = { league, eventId };
      yield { params, requests: () => [{ params, query: {} }] };
    }
  }
}

/**
 * Per match and `important` value: every page at the default page size, and the one page of the
 * largest. One group per match, whose plays are counted only when its requests are asked for.
 */
export function* plays(store: StoreReader, route: AnyRoute): Iterable<Prerendered> {
  const { fallback: size, max } = limits(route);
  const flags = valuesOf(route, 'important');
  for (const league of slugs(store)) {
    const countPlays = leaguePlayCounts(store, league);
    for (const eventId of store.matches.ids(league)) {
      const params = { league, eventId };
      yield {
        params,
        *requests(): Generator<PrerenderRequest> {
          for (const important of flags) {
            const count = countPlays(eventId, important === 'true');
            for (let page = 1; page <= pagesToRender(count, size); page++) {
              yield { params, query: { important, page: String(page) } };
            }
            yield { params, query: { important, limit: String(max) } };
          }
        },
      };
    }
  }
}

export function* clubs(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    for (const clubId of listedClubIds(store, league)) yield { params: { league, clubId }, query: {} };
  }
}

export function* standings(store: StoreReader): Iterable<PrerenderRequest> {
  for (const league of slugs(store)) {
    yield { params: { league }, query: {} };
    for (const season of store.standings.seasons(league)) yield { params: { league }, query: { season } };
  }
}
