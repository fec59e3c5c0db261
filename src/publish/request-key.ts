/**
 * What a request means to the render core, as a string: the route and its validated (typed)
 * parameters. The handler sees nothing else, so two requests with the same key get the same
 * answer from the same store — which is what lets the static-first server answer `?status=ALL`,
 * `?page=1&utm=x` or no query at all from the file pre-rendered for `?status=all&page=1`.
 *
 * A key exists only for valid requests whose typed values are all scalars; anything else (a
 * validation error, a `fields` set) has no key and is always rendered dynamically.
 */
import { parseQuery } from '../api/query.js';
import type { Query } from '../api/query.js';
import type { AnyRoute } from '../api/route.js';
import { matchRoute, validate, validateQuery } from '../api/route.js';
import { ROUTES } from '../api/routes.js';

type Scalar = string | number | boolean | null;

function scalars(values: object): Scalar[] | null {
  const out: Scalar[] = [];
  for (const v of Object.values(values) as unknown[]) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(v);
    else return null;
  }
  return out;
}

function typed(fn: () => object): Scalar[] | null {
  try {
    return scalars(fn());
  } catch {
    return null;
  }
}

/**
 * Query validation depends only on the route and the query, and builds and servers see the same few
 * queries over and over (`important=true&page=1` for every match), so its result is memoized.
 */
const queryMemo = new Map<string, Scalar[] | null>();

function typedQuery(route: AnyRoute, query: Query): Scalar[] | null {
  const memoKey = JSON.stringify([route.name, ...query]);
  let q = queryMemo.get(memoKey);
  if (q === undefined) {
    q = typed(() => validateQuery(route, query) as object);
    if (queryMemo.size >= 4096) queryMemo.clear();
    queryMemo.set(memoKey, q);
  }
  return q;
}

export function routeKey(route: AnyRoute, params: Readonly<Record<string, string>>, query: Query): string | null {
  const q = typedQuery(route, query);
  const p = q && typed(() => validate(route.params, (name) => params[name]) as object);
  // Values are listed in the route's declaration order, which is fixed, so names are not needed.
  return p && q ? JSON.stringify([route.name, p, q]) : null;
}

/** The key of a raw request (path still percent-encoded, query without `?`), or null. */
export function requestKey(rawPath: string, rawQuery: string): string | null {
  const matched = matchRoute(ROUTES, rawPath);
  if (!matched) return null;
  return routeKey(matched.route, matched.params, parseQuery(rawQuery));
}

export function queryOf(entries: Readonly<Record<string, string>>): Query {
  return new Map(Object.entries(entries));
}
