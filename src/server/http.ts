/**
 * The fallback server: node:http around the render core. It adds only what belongs to a live
 * connection — rate limiting, compression, logging, shutdown — and never answers a malformed
 * request with anything but a 4xx: bad URLs, encodings and headers are the client's error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { JSON_TYPE } from '../api/headers.js';
import type { ApiRequest } from '../app/render.js';
import { render } from '../app/render.js';
import { ResolutionMemo } from './resolution-memo.js';
import type { ApiResponse } from '../api/respond.js';
import { errorResponse } from '../api/respond.js';
import type { Clock } from '../util/time.js';
import { systemClock } from '../util/time.js';
import { accessLine, entryLog } from './access-log.js';
import { encode } from './transport.js';
import type { RateLimitOptions } from './rate-limit.js';
import { DEFAULT_RATE_LIMITS, RateLimiter } from './rate-limit.js';
import type { StaticLookup } from './static-lookup.js';
import { NO_STATIC_BUILD } from './static-lookup.js';
import { StoreSource } from './store-source.js';
import { AssetServer } from '../frontdoor/serve-assets.js';
import type { Answered, Incoming } from './fast-lane.js';
import { FastLane } from './fast-lane.js';

export interface ServerOptions {
  storeFile: string;
  staticLookup?: StaticLookup;
  /** Per-client limits (default 120/min on /get/*, 500/min elsewhere); null disables rate limiting. */
  rateLimit?: RateLimitOptions | null;
  /** Key rate limits on the first X-Forwarded-For address (only behind a trusted proxy). */
  trustProxy?: boolean;
  clock?: Clock;
  /** One JSON line per request; defaults to stdout. */
  log?: ((line: string) => void) | null;
  /** How often a store that could not be opened is tried again (default 1 s). */
  storeRetryMs?: number;
  /** How long in-flight requests get to finish on shutdown before connections are cut. */
  shutdownGraceMs?: number;
  /** The front door's static assets (default: the installed files, for a server without a build). */
  assets?: AssetServer;
  /** Answer plain requests without node:http's objects (fast-lane.ts; default on). */
  fastLane?: boolean;
}

export interface ApiServer {
  server: http.Server;
  store: StoreSource;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stop accepting, let in-flight requests finish, close the store. */
  close(): Promise<void>;
}

/** `/p?q` or an absolute-form `http://host/p?q` → raw path and query; anything else is malformed. */
export function splitTarget(url: string | undefined): { path: string; rawQuery: string } | null {
  if (!url) return null;
  let target = url;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    try {
      const u = new URL(url);
      target = u.pathname + u.search;
    } catch {
      return null;
    }
  }
  if (!target.startsWith('/')) return null;
  const q = target.indexOf('?');
  return q === -1 ? { path: target, rawQuery: '' } : { path: target.slice(0, q), rawQuery: target.slice(q + 1) };
}

function clientIp(req: Incoming, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = req.headers['x-forwarded-for'];
    const first = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export function createApiServer(opts: ServerOptions): ApiServer {
  const clock = opts.clock ?? systemClock;
  const store = new StoreSource(opts.storeFile, opts.storeRetryMs);
  const lookup = opts.staticLookup ?? NO_STATIC_BUILD;
  const limiter = opts.rateLimit === null ? null : new RateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMITS);
  // By default entries are spelled as bytes (entryLog); an injected `log` takes lines, and null logs nothing.
  const sink = opts.log === undefined ? entryLog() : null;
  const log = sink ? sink.line : opts.log;
  const startedAt = performance.now();
  const uptime = () => Math.round((performance.now() - startedAt) / 10) / 100;
  const assets = opts.assets ?? new AssetServer(null);
  const resolutions = new ResolutionMemo();

  /**
   * `response: null`: a front-door asset, streamed from its file by `assets` once the rate limit let
   * it through (with `headers` added).
   */
  function answer(
    req: Incoming,
    target: ReturnType<typeof splitTarget>,
  ): {
    response: ApiResponse | null;
    source: string;
    headers?: Record<string, string>;
  } {
    const head = { method: req.method ?? 'GET', headers: req.headers };
    if (!target) return { response: errorResponse(head, 400, 'Malformed request URL'), source: 'server' };
    const rate = limiter?.check(clientIp(req, !!opts.trustProxy), target.path);
    if (rate && !rate.allowed) {
      const response = errorResponse(head, 429, 'Too many requests, please try again later.', rate.headers);
      return { response, source: 'server' };
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && assets.handles(target.path)) {
      return { response: null, source: 'asset', headers: rate?.headers };
    }
    // Spelled out: V8 (Node 20) spends about a microsecond on a spread followed by more properties.
    const apiReq: ApiRequest = {
      method: head.method,
      headers: head.headers,
      path: target.path,
      rawQuery: target.rawQuery,
    };
    const { resolution, file } = resolutions.resolve(
      target.path,
      target.rawQuery,
      req.url?.startsWith('/') ? req.url : undefined,
    );
    // Without rate limits nothing is added per request: the lookup finishes its answer, and keeps it.
    const fromFile = lookup.lookup(apiReq, resolution, file, limiter === null);
    const reader = fromFile ? null : store.get();
    const response =
      fromFile ??
      render(
        apiReq,
        { store: reader, clock, uptime, storeName: store.name, storeProblem: store.problem ?? 'disconnected' },
        resolution,
      );
    if (response.status === 503) store.reset();
    if (rate) Object.assign(response.headers, rate.headers);
    return { response, source: fromFile ? 'static' : 'dynamic' };
  }

  function logRequest(req: Incoming, status: number, bytes: number, started: number, source: string) {
    if (!log) return;
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const url = (req.url ?? '').slice(0, 2048);
    const ip = clientIp(req, !!opts.trustProxy);
    const entry = { time: Date.now(), method: req.method, url, status, bytes, ms, ip, source };
    if (sink) sink.record(entry);
    else log(accessLine(entry));
  }

  /** `headers`: what the rate limiter adds; serve-handler's own headers join them. */
  function serveAsset(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    headers: Record<string, string>,
    started: number,
  ): void {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.on('finish', () =>
      logRequest(
        req,
        res.statusCode,
        req.method === 'HEAD' ? 0 : Number(res.getHeader('Content-Length') ?? 0),
        started,
        'asset',
      ),
    );
    assets.serve(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else {
        const failed = errorResponse({ method: 'GET', headers: {} }, 500, 'Internal server error');
        encode(failed, req.headers['accept-encoding']);
        res.writeHead(failed.status, failed.headers).end(failed.body);
      }
    });
  }

  /**
   * The encoded answer to a request, a 500 when answering failed (nothing a request holds may take
   * the server down), or `asset` with the rate limiter's headers for a front-door asset.
   */
  function reply(req: Incoming, target: ReturnType<typeof splitTarget>): Answered | { asset: Record<string, string> } {
    let source = 'dynamic';
    try {
      const answered = answer(req, target);
      if (answered.response === null) return { asset: answered.headers ?? {} };
      source = answered.source;
      encode(answered.response, req.headers['accept-encoding']);
      return { response: answered.response, source };
    } catch {
      const response = errorResponse({ method: req.method ?? 'GET', headers: {} }, 500, 'Internal server error');
      encode(response, req.headers['accept-encoding']);
      return { response, source };
    }
  }

  const server = http.createServer((req, res) => {
    const started = performance.now();
    const replied = reply(req, splitTarget(req.url));
    if ('asset' in replied) return serveAsset(req, res, replied.asset, started);
    const { response, source } = replied;
    res.writeHead(response.status, response.headers);
    res.end(response.sendBody ? response.body : undefined);
    logRequest(req, response.status, response.sendBody ? response.body.length : 0, started, source);
  });

  const lane =
    opts.fastLane === false
      ? null
      : new FastLane(server, {
          answer(req) {
            const target = splitTarget(req.url);
            // Front-door assets are streamed through node:http's objects (serve-handler). Asked before
            // `reply`, which counts the request against the rate limit: node:http will count it.
            if (target !== null && assets.handles(target.path)) return null;
            const replied = reply(req, target);
            return 'asset' in replied ? null : replied;
          },
          answered(req, { response, source }, started) {
            logRequest(req, response.status, response.sendBody ? response.body.length : 0, started, source);
          },
        });

  // Requests the HTTP parser rejects (bad request line, oversized headers) still get a JSON answer.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'HPE_URI_OVERFLOW' ? 414 : 400;
    const body = JSON.stringify({ error: status === 400 ? 'Bad request' : http.STATUS_CODES[status] });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\nCache-Control: no-store\r\n` +
        `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    log?.(JSON.stringify({ time: new Date().toISOString(), status, error: err.code ?? 'client error' }));
  });

  return {
    server,
    store,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        const force = setTimeout(() => {
          server.closeAllConnections();
          lane?.closeAll();
        }, opts.shutdownGraceMs ?? 10_000);
        force.unref();
        lookup.close?.();
        server.close(() => {
          clearTimeout(force);
          sink?.flush();
          store.close();
          resolve();
        });
        // Idle keep-alive connections would otherwise hold the server open until they time out.
        server.closeIdleConnections();
        lane?.close();
      });
    },
  };
}
