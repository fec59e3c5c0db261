/**
 * What a route is: one declaration per endpoint, read by the render core (matching, validation,
 * caching), the OpenAPI generator and the static build (pre-render enumeration).
 */
import type { z } from 'zod';
import type { StoreReader } from '../store/read/reader.js';
import type { Clock } from '../util/time.js';
import type { Field } from './fields.js';
import type { Query } from './query.js';
import type { StoreProblem } from './vocab.js';

/** How a route's answers may be cached: headers.ts `CACHE_POLICY` says what each class means. */
export type CacheClass = 'live' | 'feed' | 'match' | 'list' | 'none';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The whole route table, by name: what the routes that describe the service (API reference, front door) read. */
export type RouteTable = ReadonlyMap<string, AnyRoute>;

export interface HandlerContext<P, Q> {
  params: P;
  query: Q;
  store: StoreReader;
  clock: Clock;
  routes: RouteTable;
}

export interface HandlerResult {
  body: unknown;
  status?: number;
  /** The body holds a match in play (cache class `live` shortens its lifetime). */
  live?: boolean;
}

/**
 * How the CDN reaches a route's pre-rendered files (publish/plan/reach.ts). Literal rules are spent
 * league-level files first, then per-match files by their match's closeness to the snapshot time.
 * `hot` picks, by the query of a request's shortest spelling, the requests that belong to the hot
 * set — the traffic every build must reach from files (for `match` routes: of live matches and of
 * yesterday's, today's and tomorrow's); `nearDay` says whether a YYYYMMDD is one of those days.
 */
export interface Reach {
  level: 'league' | 'match';
  hot?: (query: Readonly<Record<string, string>>, nearDay: (day: string) => boolean) => boolean;
  /**
   * Which of a `league` route's requests change while matches are played — the days around today,
   * the change feed — and so go to the origin in a hybrid build (`fds build --origin`). Every request
   * of a `match` route is volatile while its match is live or on one of those days.
   */
  volatile?: (query: Readonly<Record<string, string>>, nearDay: (day: string) => boolean) => boolean;
}

/**
 * One request the static build pre-renders: path parameters and the query, both canonical. Never
 * changed once yielded: requests of one match may share one `params` object, and the plan names
 * their files' path once for it.
 */
export interface PrerenderRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /**
   * The scoreboard days of the matches the response lists, when its enumerator knows them: what the
   * response reads, finer than every match of the league (reads.ts).
   */
  days?: readonly string[];
}

/**
 * The requests of one route that share their path parameters (one match's plays pages), yielded
 * together: an incremental build that finds nothing the group reads (`groupReads`) changed carries
 * its files over from the published build as they stand, without enumerating its requests.
 */
export interface PrerenderGroup {
  readonly params: Readonly<Record<string, string>>;
  /**
   * Every request of the group, with these params; enumerated only when needed, at any time while the
   * build reads the store (so not from a statement the enumerator keeps open).
   */
  readonly requests: () => Iterable<PrerenderRequest>;
}

/** What an enumerator yields: a request, or a group of them. */
export type Prerendered = PrerenderRequest | PrerenderGroup;

export const isGroup = (p: Prerendered): p is PrerenderGroup => 'requests' in p;

/** Every request an enumerator's groups hold, in order. */
export function* eachRequest(yielded: Iterable<Prerendered>): Generator<PrerenderRequest> {
  for (const p of yielded) {
    if (isGroup(p)) yield* p.requests();
    else yield p;
  }
}

type Fields<T> = { [K in keyof T]: Field<T[K]> };

export interface QueryCheck<Q> {
  /** Runs once the named parameter (and every one before it) is valid. */
  after: keyof Q & string;
  test: (query: Partial<Q>) => boolean;
  message: string;
}

/** What routes that render without the store (health, the API description) get instead: its state. */
export interface StandaloneDeps {
  store: StoreReader | null;
  storeName: string;
  storeProblem: StoreProblem;
  clock: Clock;
  uptime: () => number;
  routes: RouteTable;
}

/** What every route declares, pre-rendered or not. */
interface RouteBase<P, Q> {
  name: string;
  path: string;
  summary: string;
  tag: 'Football data' | 'Service';
  params: Fields<P>;
  query: Fields<Q>;
  checks?: QueryCheck<Q>[];
  cache: CacheClass;
  /**
   * The 200 body's Content-Type when it is not JSON (the front door's HTML): the handler's body is
   * then that text, sent as it is. Errors stay JSON.
   */
  contentType?: string;
  /** Where the build puts this route's one pre-rendered file, when not under `_s/` (`/` is `index.html`). */
  staticFile?: string;
  /** Zod schema of the 200 body (and of the 503 body, for health). */
  response: z.ZodType;
  /** Statuses other than 200 (and 304) the route answers with; errors have an `{error}` body, health's 503 its own. */
  errors: number[];
  handle?: (ctx: HandlerContext<P, Q>) => HandlerResult;
  /** Routes that render without the store (health, the API description). */
  standalone?: (deps: StandaloneDeps, query: Q) => HandlerResult;
  /**
   * The query parameter whose absence means "today, UTC, at request time": such a request answers as
   * the one naming today, so a server may answer it from today's published file (it then changes
   * when a release is published, as its purge does, not when the store changes under it).
   */
  today?: string;
  /**
   * The cache tags (cache-tags.ts) of the route's 200 answers: first the answer's own — what a
   * publish purges when the answer's bytes change — then what else it shows. Default: the route's
   * name, for a route without path parameters; none for the cache class `none`.
   */
  cacheTags?: (req: TagRequest) => string[];
  /**
   * Query parameters `Netlify-Vary` names besides the route's own: those of the routes whose requests
   * its files also answer (`aliases`), so that one file's answer has one header set whichever form asked.
   */
  varyAlso?: readonly string[];
}

/**
 * A pre-rendered route declares, with its enumerator, what its responses read and how the CDN reaches
 * its files: all three or none, so that leaving `reads` out (every build would render its files
 * again) or `reach` out (its files would stand in the rule budget as a match's) is a type error.
 * test/api/route-declaration.test.ts holds the type to it.
 */
export interface Prerendering {
  /** The canonical requests to pre-render (docs/publishing.md, prerender.ts). */
  prerender: (store: StoreReader, route: AnyRoute) => Iterable<Prerendered>;
  /**
   * The topics (reads.ts) a pre-rendered response reads: an incremental build renders it again only
   * when the store's change log touched one of them.
   */
  reads: (req: PrerenderRequest) => string[];
  /**
   * With an enumerator that yields groups: what any request of a group with these path parameters
   * reads, together (each request's `reads` is a subset). Without it a group is always enumerated.
   */
  groupReads?: (params: Readonly<Record<string, string>>) => string[];
  /** Where its files stand in the rule budget, which of them are hot, and which volatile. */
  reach: Reach;
  /**
   * Requests of other routes that this pre-rendered request's file also answers, byte for byte
   * (`/events/ID` is also `/summary?event=ID`). A route an alias names declares `reach` too
   * (test/api/route-declaration.test.ts).
   */
  aliases?: (req: PrerenderRequest) => Array<{ route: string; req: PrerenderRequest }>;
}

/**
 * A route the fallback answers: nothing of it is pre-rendered, so it declares none of a pre-rendered
 * route's reads. `reach` only when another route's files answer its requests (`aliases`).
 */
export interface NotPrerendered {
  prerender?: never;
  reads?: never;
  groupReads?: never;
  aliases?: never;
  reach?: Reach;
}

export type RouteDef<P, Q> = RouteBase<P, Q> & (Prerendering | NotPrerendered);

/**
 * What a route's cache tags are made of: the request's path and query values, typed (a render) or
 * canonical text (a pre-rendered request): tags read only identities (league, ids, days), which are
 * the same text either way. `today`: the UTC day at request time, for what defaults to it.
 */
export interface TagRequest {
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, unknown>>;
  today: () => string;
}

// The table holds routes of many parameter shapes; the core handles them uniformly.
// biome-ignore lint/suspicious/noExplicitAny: each route's P and Q are checked where it is defined
export type AnyRoute = RouteDef<any, any> & { segments: Segment[] };

export type Segment = { literal: string } | { param: string };

export function defineRoute<P, Q>(def: RouteDef<P, Q>): AnyRoute {
  const segments = def.path
    .split('/')
    .slice(1)
    .map((s): Segment => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s }));
  return Object.assign(def, { segments }) as AnyRoute;
}

function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * Match a raw (still percent-encoded) path. One trailing slash is ignored. A parameter segment
 * that cannot be decoded is passed on raw: its validation then rejects it with its own message.
 */
export function matchRoute(
  routes: readonly AnyRoute[],
  rawPath: string,
): { route: AnyRoute; params: Record<string, string> } | null {
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  if (!path.startsWith('/')) return null;
  const parts = path.split('/').slice(1);
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = route.segments.every((seg, i) => {
      const raw = parts[i]!;
      if ('literal' in seg) return decodeSegment(raw) === seg.literal;
      params[seg.param] = decodeSegment(raw) ?? raw;
      return true;
    });
    if (ok) return { route, params };
  }
  return null;
}

/** What a parameter's schema made of one raw value: the typed value, or the error's text. */
type Parsed = { ok: true; value: unknown } | { ok: false; message: string | undefined };

/** Raw values remembered per schema; past this many, its memory starts again. */
const PARSED_PER_SCHEMA = 512;
/** Longer raw values are not remembered (no valid one is longer): a client's can be kilobytes. */
const REMEMBERED_RAW_LENGTH = 128;
const parsedBy = new WeakMap<object, Map<string | undefined, Parsed>>();

/**
 * A parameter's schema applied to a raw value. Each is a pure function of the value, and a build
 * resolves the same few values (a league, `status=finished`, `page=2`) tens of thousands of times:
 * zod's `safeParse` made a tenth of what a full build's own thread allocates. So scalar results are
 * remembered; an object (a `fields` set) is made anew each time, as the handler may keep it.
 */
function parseParam(schema: z.ZodType<unknown, string | undefined>, raw: string | undefined): Parsed {
  let memo = parsedBy.get(schema);
  if (!memo) {
    memo = new Map();
    parsedBy.set(schema, memo);
  }
  const known = memo.get(raw);
  if (known) return known;
  const result = schema.safeParse(raw);
  const parsed: Parsed = result.success
    ? { ok: true, value: result.data }
    : { ok: false, message: result.error.issues[0]?.message };
  const scalar = !parsed.ok || parsed.value === null || typeof parsed.value !== 'object';
  if (scalar && (raw === undefined || raw.length <= REMEMBERED_RAW_LENGTH)) {
    if (memo.size >= PARSED_PER_SCHEMA) memo.clear();
    memo.set(raw, parsed);
  }
  return parsed;
}

/** Validate parameters in declaration order; the first invalid one decides the error. */
export function validate<T>(
  fields: Fields<T>,
  get: (name: string) => string | undefined,
  checks: QueryCheck<T>[] = [],
): T {
  const out: Partial<T> = {};
  for (const name of Object.keys(fields) as Array<keyof T & string>) {
    const parsed = parseParam(fields[name].schema, get(name));
    if (!parsed.ok) throw new ApiError(400, parsed.message ?? `invalid ${name}`);
    out[name] = parsed.value as T[keyof T & string];
    for (const check of checks) {
      if (check.after === name && !check.test(out)) throw new ApiError(400, check.message);
    }
  }
  return out as T;
}

export function validateQuery<Q>(route: RouteDef<unknown, Q>, query: Query): Q {
  return validate(route.query, (name) => query.get(name), route.checks);
}

/** The URL path of a route for the given (already valid) parameters. */
export function routePath(route: AnyRoute, params: Record<string, string>): string {
  return `/${routeSegments(route, params).join('/')}`;
}

/** The segments of `routePath` (after its leading `/`), each encoded. */
export function routeSegments(route: AnyRoute, params: Record<string, string>): string[] {
  return route.segments.map((seg) => ('literal' in seg ? seg.literal : encodeURIComponent(params[seg.param] ?? '')));
}
