/**
 * The render core: a request in, status + headers + body out. Pure — no fs, no http, no wall
 * clock but the injected one — so the static build and the fallback server produce the same bytes
 * for the same request. It owns method handling (OPTIONS, 405), routing (404), validation order,
 * caching headers and CORS; respond.ts finishes the response (ETag, 304, HEAD).
 */
import type { StoreReader } from '../store/read/reader.js';
import type { Clock } from '../util/time.js';
import { ymd } from '../util/time.js';
import { sharedCacheHeaders } from './cache-tags.js';
import { ALLOW, CORS, JSON_TYPE, PREFLIGHT, cacheControl } from './headers.js';
import { serializeWithRaw } from './raw-json.js';
import type { Resolution, ResolvedRequest } from './resolve.js';
import type { ApiResponse, RequestHead } from './respond.js';
import { emptyResponse, errorResponse, finishResponse, jsonResponse } from './respond.js';
import type { HandlerResult, RouteTable } from './route.js';
import { ApiError } from './route.js';
import type { StoreProblem } from './vocab.js';

export type { ApiResponse } from './respond.js';

export interface ApiRequest extends RequestHead {
  /** Raw path, still percent-encoded, without the query. */
  path: string;
  /** Raw query string without the leading `?` ('' when none). */
  rawQuery: string;
}

export interface RenderDeps {
  /** The route table the request was resolved against: the routes that describe the service read it. */
  routes: RouteTable;
  /** Null when the store cannot be opened: health says so, data routes answer 503. */
  store: StoreReader | null;
  clock: Clock;
  /** Seconds the server has been up (health only). */
  uptime?: () => number;
  /** How health names the store when it cannot be opened. */
  storeName?: string;
  /** Why the store is null: no store file (`disconnected`, the default) or an unreadable one (`error`). */
  storeProblem?: StoreProblem;
  /**
   * false: leave out the shared-cache headers (cache-tags.ts). For the build only, which records a
   * file's ETag, Cache-Control and Content-Type and nothing else (the server adds the rest from the
   * file's route, as here): a build would make them for every file only to drop them.
   */
  sharedCache?: false;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

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

function answer({ route, params, query }: ResolvedRequest, deps: RenderDeps): HandlerResult {
  try {
    if (route.standalone) {
      const store = deps.store;
      const storeName = store?.name ?? deps.storeName ?? 'N/A';
      const storeProblem = deps.storeProblem ?? 'disconnected';
      return route.standalone(
        { store, storeName, storeProblem, clock: deps.clock, uptime: deps.uptime ?? (() => 0), routes: deps.routes },
        query,
      );
    }
    const store = deps.store;
    if (!store || !route.handle) return errorResult(503, 'Football data store unavailable');
    const handle = route.handle;
    return store.read(() => handle({ params, query, store, clock: deps.clock, routes: deps.routes }));
  } catch (err) {
    return failure(err);
  }
}

/** Render one request, resolved against `deps.routes` (app/render.ts resolves and renders in one call). */
export function renderResolved(req: ApiRequest, deps: RenderDeps, resolution: Resolution): ApiResponse {
  if (resolution.kind === 'unrouted') return errorResponse(req, 404, 'Route not found');
  if (req.method === 'OPTIONS') return emptyResponse(204, { ...PREFLIGHT });
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return errorResponse(req, 405, 'Method not allowed', { Allow: ALLOW });
  }
  const result =
    resolution.kind === 'invalid'
      ? errorResult(resolution.error.status, resolution.error.message)
      : answer(resolution.request, deps);
  const status = result.status ?? 200;
  const { route } = resolution;
  const live = !!result.live;
  const cache = cacheControl(route.cache, status, live);
  // For shared caches: lifetimes, Netlify-Vary and a 200's tags (cache-tags.ts); an invalid request has no values.
  const request = resolution.kind === 'resolved' ? resolution.request : null;
  const shared =
    deps.sharedCache === false
      ? NO_HEADERS
      : sharedCacheHeaders(route, status, live, request?.params ?? {}, request?.query ?? {}, () => ymd(deps.clock()));
  const contentType = route.contentType;
  if (status !== 200) return jsonResponse(req, status, { 'Cache-Control': cache, ...shared }, result.body);
  if (!contentType) {
    // A 200's headers in the order a pre-rendered file's are (server/static-lookup.ts): the shared ones after CORS.
    const headers = { 'Content-Type': JSON_TYPE, 'Cache-Control': cache, ...CORS, ...shared };
    return finishResponse(req, status, headers, serializeWithRaw(result.body));
  }
  // A non-JSON route (the front door): its handler's body is the text itself.
  if (typeof result.body !== 'string') return errorResponse(req, 500, 'Internal server error');
  const headers = { 'Content-Type': contentType, 'Cache-Control': cache, ...CORS, ...shared };
  return finishResponse(req, status, headers, Buffer.from(result.body, 'utf8'));
}
