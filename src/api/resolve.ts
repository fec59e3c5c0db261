/**
 * What a request means, decided once: its route, its validated (typed) path and query parameters,
 * and a key naming exactly what the handler will see. The render core, the server's static lookup
 * and the build plan all resolve through here, so they cannot disagree about a request: two
 * requests with the same key get the same answer from the same store, which is what lets a file
 * pre-rendered for `?status=all&page=1` answer `?status=ALL`, `?page=1&utm=x` or no query at all.
 */
import type { Query } from './query.js';
import { parseQuery } from './query.js';
import type { AnyRoute } from './route.js';
import { ApiError, matchRoute, validate } from './route.js';

export interface ResolvedRequest {
  route: AnyRoute;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /**
   * The route and its typed values as a string, or null when a typed value is not a scalar (a
   * `fields` set): such requests are never pre-rendered and always rendered from the store.
   */
  key: string | null;
}

export type Resolution =
  | { kind: 'unrouted' }
  | { kind: 'invalid'; route: AnyRoute; error: ApiError }
  | { kind: 'resolved'; route: AnyRoute; request: ResolvedRequest };

type Scalar = string | number | boolean | null;

function scalars(values: Record<string, unknown>): Scalar[] | null {
  const out: Scalar[] = [];
  for (const v of Object.values(values)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(v);
    else return null;
  }
  return out;
}

/** Values are listed in the route's declaration order, which is fixed, so names are not needed. */
function keyOf(route: AnyRoute, params: Record<string, unknown>, query: Record<string, unknown>): string | null {
  const p = scalars(params);
  const q = p && scalars(query);
  return p && q ? JSON.stringify([route.name, p, q]) : null;
}

/** Resolve a request already split into a route, its raw (decoded) path parameters and its query. */
export function resolveRoute(route: AnyRoute, rawParams: Readonly<Record<string, string>>, query: Query): Resolution {
  try {
    // Path identifiers first, then query values: the contract's validation order.
    const params = validate(route.params, (name) => rawParams[name]) as Record<string, unknown>;
    const typed = validate(route.query, (name) => query.get(name), route.checks) as Record<string, unknown>;
    return { kind: 'resolved', route, request: { route, params, query: typed, key: keyOf(route, params, typed) } };
  } catch (err) {
    if (err instanceof ApiError) return { kind: 'invalid', route, error: err };
    throw err;
  }
}

/** Resolve a raw request against a route table: path still percent-encoded, query without the `?`. */
export function resolveIn(routes: readonly AnyRoute[], rawPath: string, rawQuery: string): Resolution {
  const matched = matchRoute(routes, rawPath);
  if (!matched) return { kind: 'unrouted' };
  return resolveRoute(matched.route, matched.params, parseQuery(rawQuery));
}

/**
 * The same request with its day spelled out, when its route defaults a day to today (route.ts
 * `today`) and the request names none: its raw query with `day` appended (the last value of a
 * parameter wins). Null for every other request. The server and the edge router answer such a
 * request from the file of the request it returns.
 */
export function datedQuery(resolution: Resolution, rawQuery: string, day: string): string | null {
  if (resolution.kind !== 'resolved') return null;
  const { today } = resolution.route;
  if (!today || resolution.request.query[today] != null) return null;
  return `${rawQuery ? `${rawQuery}&` : ''}${today}=${day}`;
}
