/**
 * The build plan, from the route table: every request a route's `prerender` enumerator yields,
 * with the file that holds its answer, the requests that share that file, and the query spellings
 * the CDN rules may map onto it. Enumerators stream from the store, and so does the plan.
 */
import { formatQuery } from '../api/query.js';
import type { AnyRoute, PrerenderRequest } from '../api/route.js';
import { matchRoute, routePath } from '../api/route.js';
import { ROUTES, ROUTES_BY_NAME } from '../api/routes.js';
import type { StoreReader } from '../store/read/reader.js';
import { TOKEN } from '../api/netlify-query.js';
import { queryOf, routeKey } from './request-key.js';

/** Files live under this prefix, never at public API paths; the CDN reaches them only through rules. */
export const STATIC_PREFIX = '_s';

/** One spelling of a request: a path and a query, keys in the route's order. */
export interface RequestForm {
  route: AnyRoute;
  path: string;
  query: ReadonlyArray<readonly [string, string]>;
}

export interface PlannedFile {
  route: AnyRoute;
  /** The canonical request the file is rendered from. */
  request: RequestForm;
  /** Release-relative path of the file. */
  file: string;
  /** Request keys (see request-key.ts) this file answers: the request's and its aliases'. */
  keys: string[];
  /** Other routes' requests answered by this file (`/summary?event=ID` for `/events/ID`). */
  aliases: RequestForm[];
  /** Every spelling with exactly this answer that a literal CDN rule can express, fewest parameters first. */
  forms: RequestForm[];
}

export class PlanError extends Error {}

const SEGMENT = /^[A-Za-z0-9._~-]+$/;
const KEY = /^[A-Za-z][A-Za-z0-9]*$/;

export function formUrl(f: RequestForm): string {
  return f.path + formatQuery(Object.fromEntries(f.query));
}

/** `_s/<path>/<k1-v1,k2-v2>.json` (pairs sorted by key) or `_s/<path>/index.json`: unambiguous, URL-safe. */
export function fileFor(path: string, query: Readonly<Record<string, string>>): string {
  const segments = path.split('/').slice(1);
  if (!segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..')) {
    throw new PlanError(`cannot name a file for path ${JSON.stringify(path)}`);
  }
  const pairs = Object.keys(query)
    .sort()
    .map((k) => {
      const v = query[k]!;
      if (!KEY.test(k) || !TOKEN.test(v))
        throw new PlanError(`cannot name a file for ${path} ${k}=${JSON.stringify(v)}`);
      return `${k}-${v}`;
    });
  return [STATIC_PREFIX, ...segments, `${pairs.length ? pairs.join(',') : 'index'}.json`].join('/');
}

function aliasesOf(route: AnyRoute, req: PrerenderRequest): Array<{ route: AnyRoute; req: PrerenderRequest }> {
  return (route.aliases?.(req) ?? []).map((a) => {
    const aliasRoute = ROUTES_BY_NAME.get(a.route);
    if (!aliasRoute) throw new PlanError(`${route.name}: alias names an unknown route ${a.route}`);
    return { route: aliasRoute, req: a.req };
  });
}

/** The request as the router sees it: its path must route back to the same route and parameters. */
function formOf(route: AnyRoute, req: PrerenderRequest, key: string): RequestForm {
  const path = routePath(route, req.params);
  const matched = matchRoute(ROUTES, path);
  if (!matched || matched.route !== route || routeKey(route, matched.params, queryOf(req.query)) !== key) {
    throw new PlanError(`${route.name}: pre-render request ${path} does not route back to itself`);
  }
  return { route, path, query: Object.entries(req.query) };
}

function popcount(m: number): number {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
}

/** Every subset of the query with the same key, fewest parameters first (ties: route order). */
function spellings(form: RequestForm, params: Record<string, string>, key: string): RequestForm[] {
  if (!form.query.every(([k, v]) => KEY.test(k) && TOKEN.test(v))) return [];
  const masks = Array.from({ length: 1 << form.query.length }, (_, m) => m).sort(
    (a, b) => popcount(a) - popcount(b) || a - b,
  );
  const out: RequestForm[] = [];
  for (const m of masks) {
    const query = form.query.filter((_, i) => m & (1 << i));
    if (routeKey(form.route, params, queryOf(Object.fromEntries(query))) === key) out.push({ ...form, query });
  }
  return out;
}

function plan(route: AnyRoute, req: PrerenderRequest): PlannedFile {
  const key = routeKey(route, req.params, queryOf(req.query));
  if (key === null)
    throw new PlanError(`${route.name}: pre-render request ${JSON.stringify(req)} is not a valid request`);
  const request = formOf(route, req, key);
  const aliases = aliasesOf(route, req).map((a) => {
    const aliasKey = routeKey(a.route, a.req.params, queryOf(a.req.query));
    if (aliasKey === null)
      throw new PlanError(`${a.route.name}: alias ${JSON.stringify(a.req)} is not a valid request`);
    return { form: formOf(a.route, a.req, aliasKey), key: aliasKey, params: a.req.params };
  });
  return {
    route,
    request,
    // A route may name its own file outside the static prefix (`/` is the site's index.html).
    file: route.staticFile ?? fileFor(request.path, req.query),
    keys: [key, ...aliases.map((a) => a.key)],
    aliases: aliases.map((a) => a.form),
    forms: [...spellings(request, req.params, key), ...aliases.flatMap((a) => spellings(a.form, a.params, a.key))],
  };
}

/** The whole plan, streamed in route-table order, then each enumerator's own (store) order. */
export function* buildPlan(store: StoreReader): Generator<PlannedFile> {
  for (const route of ROUTES) {
    if (!route.prerender) continue;
    for (const req of route.prerender(store)) yield plan(route, req);
  }
}
