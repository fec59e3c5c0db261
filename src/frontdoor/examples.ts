/**
 * Three requests worth trying first, chosen from what the store holds so that each one answers with
 * data: the leagues that have some, one day of the best-covered league, and one match in full. The
 * front door shows them and `fds serve --welcome` prints them. Deterministic for a given store.
 */
import type { RouteTable } from '../api/route.js';
import { routePath } from '../api/route.js';
import { formatQuery } from '../api/query.js';
import { compareText } from '../api/serialize/league.js';
import type { StoreReader } from '../store/read/reader.js';

export interface Example {
  /** Path and query, to be resolved against the service's origin. */
  url: string;
  description: string;
}

function url(routes: RouteTable, name: string, params: Record<string, string>, query: Record<string, string>) {
  const route = routes.get(name);
  if (!route) throw new Error(`the route table has no route named ${name}`);
  return routePath(route, params) + formatQuery(query);
}

/** The stored day closest to the snapshot's, preferring days on or before it (their matches have results). */
function nearestDay(days: readonly string[], snapshotDay: string | null): string | undefined {
  if (!snapshotDay) return days.at(-1);
  return days.filter((d) => d <= snapshotDay).at(-1) ?? days[0];
}

/** What to try when the store holds no matches (or cannot be read): the catalogue and the description. */
export function basicExamples(routes: RouteTable): Example[] {
  return [
    { url: url(routes, 'leagues', {}, {}), description: 'The league catalogue, with what the store holds for each' },
    { url: url(routes, 'meta', {}, {}), description: 'What the service is and what its store holds' },
    { url: url(routes, 'openapi', {}, {}), description: 'The API description (OpenAPI 3.1)' },
  ];
}

export function exampleRequests(store: StoreReader, routes: RouteTable): Example[] {
  const leagues = store.leagues
    .all()
    .map((row) => ({ row, matches: store.coverage(row.slug).matches }))
    .filter((l) => l.matches > 0)
    .sort((a, b) => b.matches - a.matches || compareText(a.row.slug, b.row.slug));
  const best = leagues[0]?.row;
  const snapshotDay = store.meta().snapshotAt?.slice(0, 10).replaceAll('-', '') ?? null;
  const day = best && nearestDay(store.matches.dates(best.slug), snapshotDay);
  const match = best && day ? store.matches.onDate(best.slug, day)[0] : undefined;
  if (!best || !day || !match) return basicExamples(routes);
  const date = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;
  return [
    {
      url: url(routes, 'leagues', {}, { available: 'true' }),
      description: 'The leagues that have data, with what the store holds for each',
    },
    {
      url: url(routes, 'scoreboard', { league: best.slug }, { dates: day }),
      description: `${best.name}: every match on ${date}`,
    },
    {
      url: url(routes, 'event', { league: best.slug, eventId: match.record.id }, {}),
      description: `One match in full: ${match.record.name}`,
    },
  ];
}
