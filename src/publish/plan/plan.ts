/**
 * The build plan, from the route table: every request a route's `prerender` enumerator yields,
 * with the file that holds its answer, the requests that share that file, and the query spellings
 * the CDN rules may map onto it. Enumerators stream from the store, and so does the plan.
 */
import { TOKEN } from '../../api/query.js';
import { NAME_JOIN, filePrefix } from '../../release/file-name.js';
import { formatQuery } from '../../api/query.js';
import type { ResolvedRequest } from '../../api/resolve.js';
import { resolveRoute } from '../../api/resolve.js';
import type { AnyRoute, PrerenderRequest } from '../../api/route.js';
import { isGroup, matchRoute, routePath, routeSegments, validateQuery } from '../../api/route.js';
import { ROUTES, ROUTES_BY_NAME } from '../../app/routes.js';
import type { StoreReader } from '../../store/read/reader.js';

export { STATIC_PREFIX } from '../../release/file-name.js';

/** One spelling of a request: a path and a query, keys in the order its enumerator gave them. */
export interface RequestForm {
  route: AnyRoute;
  /** The path parameters, raw (what `path` encodes). */
  params: Readonly<Record<string, string>>;
  path: string;
  query: ReadonlyArray<readonly [string, string]>;
}

/** One request a route's enumerator yields, with the file it is pre-rendered to: the start of its plan. */
export interface PlanItem {
  route: AnyRoute;
  prerender: PrerenderRequest;
  /** Release-relative path of the file. */
  file: string;
}

export interface PlannedFile extends PlanItem {
  /**
   * The canonical request the file is rendered from: as spelled and as resolved (null for a file
   * carried over from the published build, whose manifest line already holds its keys).
   */
  request: RequestForm;
  resolved: ResolvedRequest | null;
  /** Request keys (api/resolve.ts) this file answers: the request's and its aliases'. */
  keys: string[];
  /** Other routes' requests answered by this file (`/summary?event=ID` for `/events/ID`). */
  aliases: RequestForm[];
  /**
   * The pre-rendered requests — the file's own, then its aliases — each in its shortest spelling:
   * how clients ask for them, and what the CDN's reach is counted on.
   */
  requests: RequestForm[];
  /** Every spelling with exactly this answer that a literal CDN rule can express, fewest parameters first. */
  forms: RequestForm[];
}

export class PlanError extends Error {}

const SEGMENT = /^[A-Za-z0-9._~-]+$/;
const KEY = /^[A-Za-z][A-Za-z0-9]*$/;

export function formUrl(f: RequestForm): string {
  return f.path + formatQuery(Object.fromEntries(f.query));
}

/**
 * The file of a route's request (file-name.ts): its path's segments, then its query named
 * `k1-v1,k2-v2` (pairs sorted by key) or `index`; unambiguous and URL-safe, as no segment may hold
 * the name's joiner.
 */
export function fileOfRoute(route: AnyRoute, req: PrerenderRequest): string {
  // An enumerator yields a match's plays pages with one params object: its path is named once.
  let prefix = lastPath.route === route && lastPath.params === req.params ? lastPath.prefix : null;
  if (prefix === null) {
    const segments = routeSegments(route, req.params);
    // The route's own segments are the same for every file it names: tested once.
    const all = !literalsChecked.has(route);
    for (let i = 0; i < segments.length; i++) {
      if (all || !('literal' in route.segments[i]!)) checkSegment(segments[i]!, segments);
    }
    literalsChecked.add(route);
    prefix = filePrefix(segments);
    lastPath = { route, params: req.params, prefix };
  }
  return `${prefix}${queryName(route, req)}.json`;
}

const literalsChecked = new WeakSet<AnyRoute>();
let lastPath: { route: AnyRoute | null; params: object | null; prefix: string } = {
  route: null,
  params: null,
  prefix: '',
};

function checkSegment(s: string, path: readonly string[]): void {
  if (!SEGMENT.test(s) || s.includes(NAME_JOIN) || s === '.' || s === '..') {
    throw new PlanError(`cannot name a file for path ${JSON.stringify(`/${path.join('/')}`)}`);
  }
}

/** A query's part of a file name: `k1-v1,k2-v2` (pairs sorted by key), or `index`. */
function queryName(route: AnyRoute, req: PrerenderRequest): string {
  const { query } = req;
  const keys = Object.keys(query);
  // A query has a few keys: sorted in place by insertion (Array.prototype.sort sets up more than
  // that costs, and a build names every file it plans).
  for (let i = 1; i < keys.length; i++) {
    for (let j = i; j > 0 && keys[j - 1]! > keys[j]!; j--) [keys[j - 1], keys[j]] = [keys[j]!, keys[j - 1]!];
  }
  let name = '';
  for (const k of keys) {
    const v = query[k]!;
    if (!KEY.test(k) || !TOKEN.test(v)) {
      const path = `/${routeSegments(route, req.params).join('/')}`;
      throw new PlanError(`cannot name a file for ${path} ${k}=${JSON.stringify(v)}`);
    }
    name = name ? `${name},${k}-${v}` : `${k}-${v}`;
  }
  return name || 'index';
}

function aliasesOf(route: AnyRoute, req: PrerenderRequest): Array<{ route: AnyRoute; req: PrerenderRequest }> {
  return (route.aliases?.(req) ?? []).map((a) => {
    const aliasRoute = ROUTES_BY_NAME.get(a.route);
    if (!aliasRoute) throw new PlanError(`${route.name}: alias names an unknown route ${a.route}`);
    return { route: aliasRoute, req: a.req };
  });
}

/** Resolve a pre-render request; it must be valid and have a key, or the route table is wrong. */
function resolved(route: AnyRoute, req: PrerenderRequest): ResolvedRequest & { key: string } {
  const r = resolveRoute(route, req.params, new Map(Object.entries(req.query)));
  if (r.kind !== 'resolved' || r.request.key === null) {
    throw new PlanError(`${route.name}: pre-render request ${JSON.stringify(req)} is not a valid request`);
  }
  return r.request as ResolvedRequest & { key: string };
}

const formOf = (route: AnyRoute, req: PrerenderRequest): RequestForm => ({
  route,
  params: req.params,
  path: routePath(route, req.params),
  query: Object.entries(req.query),
});

function popcount(m: number): number {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
}

/**
 * Which subsets of a query (as bit masks over its pairs, fewest parameters first, ties by mask)
 * mean the same as the whole. Path parameters are validated on their own, so this depends only on
 * the route and the query, and is memoized: a few hundred distinct queries per build, plus one per
 * match (`/summary?event=ID`, the alias of `/events/ID`), asked once each. The bound is for the
 * first kind: cleared when full, the memo does not grow with the store (a bound above the number of
 * matches would hold those once-asked queries to the build's end), and the few hundred are worked
 * out again after each clearing.
 */
const sameMeaning = new Map<string, number[]>();
const SAME_MEANING_KEPT = 1 << 12;

function sameMeaningMasks(route: AnyRoute, query: ReadonlyArray<readonly [string, string]>): number[] {
  // Keys and values are tokens here (spellings() checks), so `=` and `&` cannot be part of them.
  const memoKey = `${route.name}?${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
  let masks = sameMeaning.get(memoKey);
  if (masks) return masks;
  const meaning = (pairs: ReadonlyArray<readonly [string, string]>) => {
    try {
      return JSON.stringify(Object.values(validateQuery(route, new Map(pairs)) as object));
    } catch {
      return null;
    }
  };
  // Most subsets are invalid, and an error's stack trace, never read here, is most of their cost.
  const traces = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const whole = meaning(query);
    masks = Array.from({ length: 1 << query.length }, (_, m) => m)
      .sort((a, b) => popcount(a) - popcount(b) || a - b)
      .filter((m) => whole !== null && meaning(query.filter((_, i) => m & (1 << i))) === whole);
  } finally {
    Error.stackTraceLimit = traces;
  }
  if (sameMeaning.size >= SAME_MEANING_KEPT) sameMeaning.clear();
  sameMeaning.set(memoKey, masks);
  return masks;
}

/** Every spelling of a request with its answer that a literal rule can express. */
function spellings(form: RequestForm): RequestForm[] {
  if (!form.query.every(([k, v]) => KEY.test(k) && TOKEN.test(v))) return [];
  // Spelled out, not spread (see planOf).
  const { route, params, path } = form;
  return sameMeaningMasks(route, form.query).map((m) => ({
    route,
    params,
    path,
    query: form.query.filter((_, i) => m & (1 << i)),
  }));
}

/**
 * The rest of an item's plan. `keys`, when given, are the file's request keys as the published
 * manifest lists them: a file carried over is not resolved again (same code, same request, same keys).
 */
export function planOf(item: PlanItem, keys?: readonly string[]): PlannedFile {
  const { route, prerender: req } = item;
  const own = keys ? null : resolved(route, req);
  const request = formOf(route, req);
  const aliases = aliasesOf(route, req);
  const aliasForms = aliases.map((a) => formOf(a.route, a.req));
  const spelled = [request, ...aliasForms].map((form) => ({ form, spellings: spellings(form) }));
  // Every field spelled out: an object spread costs microseconds, and a full build plans every file.
  return {
    route,
    prerender: req,
    file: item.file,
    request,
    resolved: own,
    keys: keys ? [...keys] : [own!.key, ...aliases.map((a) => resolved(a.route, a.req).key)],
    aliases: aliasForms,
    requests: spelled.map((s) => s.spellings[0] ?? s.form),
    forms: spelled.flatMap((s) => s.spellings),
  };
}

/**
 * The shortest spelling of a pre-rendered request given as a URL (the manifest's form: a route
 * path, then `key=value` pairs with values encoded), or null when it names no route.
 */
export function defaultSpelling(url: string): RequestForm | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const matched = matchRoute(ROUTES, path);
  if (!matched) return null;
  const query = (q === -1 ? '' : url.slice(q + 1))
    .split('&')
    .filter(Boolean)
    .map((pair): [string, string] => {
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1))];
    });
  const form: RequestForm = { route: matched.route, params: matched.params, path, query };
  return spellings(form)[0] ?? form;
}

/**
 * A route's requests that share their path parameters, as its enumerator grouped them (route.ts
 * `PrerenderGroup`); `items` plans them.
 */
export interface PlanGroup {
  route: AnyRoute;
  params: Readonly<Record<string, string>>;
  items: () => Iterable<PlanItem>;
}

const itemOf = (route: AnyRoute, req: PrerenderRequest): PlanItem =>
  // A route may name its own file outside the static prefix (`/` is the site's index.html).
  ({ route, prerender: req, file: route.staticFile ?? fileOfRoute(route, req) });

function* itemsOf(route: AnyRoute, requests: Iterable<PrerenderRequest>): Generator<PlanItem> {
  for (const req of requests) yield itemOf(route, req);
}

/** What the plan holds, item by item or group by group: cheap, so a build can carry most files over without planning them. */
export function* planEntries(store: StoreReader): Generator<PlanItem | PlanGroup> {
  for (const route of ROUTES) {
    if (!route.prerender) continue;
    for (const p of route.prerender(store, route)) {
      if (!isGroup(p)) yield itemOf(route, p);
      else yield { route, params: p.params, items: () => itemsOf(route, p.requests()) };
    }
  }
}

/** What the plan holds, item by item. */
export function* planItems(store: StoreReader): Generator<PlanItem> {
  for (const entry of planEntries(store)) {
    if ('items' in entry) yield* entry.items();
    else yield entry;
  }
}

/** The whole plan, streamed in route-table order, then each enumerator's own (store) order. */
export function* buildPlan(store: StoreReader): Generator<PlannedFile> {
  for (const item of planItems(store)) yield planOf(item);
}
