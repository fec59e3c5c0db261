/**
 * The render core: a request in, status + headers + body out. Pure — no fs, no http, no wall
 * clock but the injected one — so the static build and the fallback server produce the same bytes
 * for the same request. It owns method handling (HEAD, OPTIONS, 405), routing (404), validation
 * order, caching headers, CORS and conditional GETs.
 */
import type { StoreReader } from '../store/read/reader.js';
import type { Clock } from '../util/time.js';
import { CORS, JSON_TYPE, PREFLIGHT, ALLOW, cacheControl, etagOf, ifNoneMatch } from './headers.js';
import { parseQuery } from './query.js';
import type { AnyRoute, HandlerResult } from './route.js';
import { ApiError, matchRoute, validate, validateQuery } from './route.js';
import { ROUTES } from './routes.js';

export interface ApiRequest {
  method: string;
  /** Raw path, still percent-encoded, without the query. */
  path: string;
  /** Raw query string without the leading `?` ('' when none). */
  rawQuery: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface RenderDeps {
  /** Null when the store cannot be opened: health says so, data routes answer 503. */
  store: StoreReader | null;
  clock: Clock;
  /** Seconds the server has been up (health only). */
  uptime?: () => number;
  /** How health names the store when it cannot be opened. */
  storeName?: string;
  /** Why the store is null: no store file (`disconnected`, the default) or an unreadable one (`error`). */
  storeProblem?: 'disconnected' | 'error';
}

const EMPTY = Buffer.alloc(0);
const NO_STORE = { 'Cache-Control': 'no-store' };

function errorResult(status: number, message: string): HandlerResult {
  return { status, body: { error: message } };
}

/** Store failures are the server's (503); anything else unexpected is a bug (500). Neither leaks details. */
function failure(err: unknown): HandlerResult {
  if (err instanceof ApiError) return errorResult(err.status, err.message);
  if (err instanceof Error && (err.name === 'SqliteError' || /database|SQLITE/i.test(err.message))) {
    return errorResult(503, 'Unable to read football data');
  }
  return errorResult(500, 'Internal server error');
}

function resolve(route: AnyRoute, params: Record<string, string>, rawQuery: string, deps: RenderDeps): HandlerResult {
  try {
    const p = validate(route.params, (name) => params[name]);
    const q = validateQuery(route, parseQuery(rawQuery));
    if (route.standalone) {
      const uptime = deps.uptime ?? (() => 0);
      return route.standalone(
        {
          store: deps.store,
          storeName: deps.store?.name ?? deps.storeName ?? 'N/A',
          storeProblem: deps.storeProblem ?? 'disconnected',
          clock: deps.clock,
          uptime,
        },
        q,
      );
    }
    const store = deps.store;
    if (!store || !route.handle) return errorResult(503, 'Football data store unavailable');
    return store.read(() => route.handle!({ params: p, query: q, store, clock: deps.clock }));
  } catch (err) {
    return failure(err);
  }
}

export function render(req: ApiRequest, deps: RenderDeps): ApiResponse {
  const matched = matchRoute(ROUTES, req.path);
  const method = req.method;
  if (!matched) return finish(req, 404, { 'Cache-Control': 'no-store' }, { error: 'Route not found' });
  if (method === 'OPTIONS') return { status: 204, headers: { ...PREFLIGHT }, body: EMPTY };
  if (method !== 'GET' && method !== 'HEAD') {
    return finish(req, 405, { 'Cache-Control': 'no-store', Allow: ALLOW }, { error: 'Method not allowed' });
  }
  const { route, params } = matched;
  const result = resolve(route, params, req.rawQuery, deps);
  const status = result.status ?? 200;
  const extra = { 'Cache-Control': cacheControl(route.cache, status, !!result.live) };
  if (status === 200 && route.contentType) {
    if (typeof result.body !== 'string') return finish(req, 500, NO_STORE, { error: 'Internal server error' });
    return finish(req, status, extra, result.body, route.contentType);
  }
  return finish(req, status, extra, result.body);
}

function header(req: ApiRequest, name: string): string | string[] | undefined {
  if (name in req.headers) return req.headers[name];
  const key = Object.keys(req.headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : req.headers[key];
}

/** `contentType` given: `payload` is the body's text (a non-JSON route); otherwise it is serialized as JSON. */
function finish(
  req: ApiRequest,
  status: number,
  extra: Record<string, string>,
  payload: unknown,
  contentType?: string,
): ApiResponse {
  const body = Buffer.from(contentType ? (payload as string) : JSON.stringify(payload), 'utf8');
  const headers: Record<string, string> = { 'Content-Type': contentType ?? JSON_TYPE, ...extra, ...CORS };
  if (status === 200) {
    headers.ETag = etagOf(body);
    if (ifNoneMatch(header(req, 'if-none-match'), headers.ETag)) {
      const { 'Content-Type': _type, ...kept } = headers;
      return { status: 304, headers: kept, body: EMPTY };
    }
  }
  headers['Content-Length'] = String(body.length);
  return { status, headers, body: req.method === 'HEAD' ? EMPTY : body };
}
