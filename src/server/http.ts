/**
 * The fallback server: node:http around the render core. It adds only what belongs to a live
 * connection — rate limiting, compression, logging, shutdown — and never answers a malformed
 * request with anything but a 4xx: bad URLs, encodings and headers are the client's error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import type { ApiRequest } from '../app/render.js';
import { render } from '../app/render.js';
import type { Resolution } from '../api/resolve.js';
import { datedQuery } from '../api/resolve.js';
import { ResolutionMemo } from './resolution-memo.js';
import type { ApiResponse } from '../api/respond.js';
import { errorResponse } from '../api/respond.js';
import type { Clock } from '../util/time.js';
import { systemClock, ymd } from '../util/time.js';
import type { EntrySink } from './access-log.js';
import { accessLine, entryLog } from './access-log.js';
import { encode } from './transport.js';
import type { RateDecision, RateLimitOptions } from './rate-limit.js';
import { DEFAULT_RATE_LIMITS, RateLimiter } from './rate-limit.js';
import type { StaticLookup } from './static-lookup.js';
import { NO_STATIC_BUILD } from './static-lookup.js';
import { StoreSource } from '../store/store-source.js';
import { AssetServer } from '../frontdoor/serve-assets.js';
import type { Answered, Incoming, LaneHandlers } from './fast-lane.js';
import { FastLane } from './fast-lane.js';
import { answerClientError } from './client-error.js';

export interface ServerOptions {
  storeFile: string;
  staticLookup?: StaticLookup;
  /** Per-client limits (default 120/min on /get/*, 500/min elsewhere); null disables rate limiting. */
  rateLimit?: RateLimitOptions | null;
  /**
   * Key rate limits on the client's address as the trusted proxies in front of the server saw it
   * (`clientIp`): true is one proxy, a number that many. Only behind proxies you control.
   */
  trustProxy?: boolean | number;
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

/**
 * The address a request is counted against. Without trusted proxies, the connection's. Behind
 * `trusted` of them (a CDN, a Varnish on the same host), each appends the address it was connected
 * from to X-Forwarded-For, so the client's own address is the `trusted`-th from the end; what comes
 * before it the client wrote itself, and would spoof to escape its limit. Fewer addresses than
 * proxies: the first one there is.
 */
export function clientIp(req: Pick<Incoming, 'headers' | 'socket'>, trusted: number): string {
  if (trusted > 0) {
    const fwd = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(fwd) ? fwd.join(',') : (fwd ?? ''))
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    const client = hops[Math.max(0, hops.length - trusted)];
    if (client) return client;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/** How many proxies ServerOptions.trustProxy trusts. */
const trustedProxies = (trust: boolean | number | undefined): number =>
  trust === true ? 1 : typeof trust === 'number' && trust > 0 ? Math.floor(trust) : 0;

export function createApiServer(opts: ServerOptions): ApiServer {
  const answers = new Answers(opts);
  const server = http.createServer((req, res) => answers.serve(req, res));
  const lane = opts.fastLane === false ? null : new FastLane(server, answers.laneHandlers());
  // Requests the HTTP parser rejects (bad request line, oversized headers) still get a JSON answer.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(err, socket, answers.log.line),
  );
  return {
    server,
    store: answers.store,
    listen(port, host) {
      return listenOn(server, port, host);
    },
    close() {
      return shutDown(server, lane, answers, opts.shutdownGraceMs ?? 10_000);
    },
  };
}

type RequestTarget = NonNullable<ReturnType<typeof splitTarget>>;

/** What `answer` gives: `response: null` for a front-door asset, with the rate limiter's `headers`. */
interface AnswerOrAsset {
  response: ApiResponse | null;
  source: string;
  headers?: Record<string, string>;
}

/**
 * How the server answers a request, node:http's and the fast lane's alike: the target parsed, the
 * rate limit, then a front-door asset, a pre-rendered answer from the build or a dynamic render,
 * encoded for the transport, and an entry in the log once it is sent.
 */
class Answers {
  readonly store: StoreSource;
  readonly lookup: StaticLookup;
  readonly log: RequestLog;
  private readonly clock: Clock;
  private readonly limiter: RateLimiter | null;
  private readonly trustProxy: number;
  private readonly startedAt: number;
  private readonly assets: AssetServer;
  private readonly resolutions = new ResolutionMemo();
  private readonly uptime = () => Math.round((performance.now() - this.startedAt) / 10) / 100;

  constructor(opts: ServerOptions) {
    this.clock = opts.clock ?? systemClock;
    this.store = new StoreSource(opts.storeFile, opts.storeRetryMs);
    this.lookup = opts.staticLookup ?? NO_STATIC_BUILD;
    this.limiter = opts.rateLimit === null ? null : new RateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMITS);
    this.trustProxy = trustedProxies(opts.trustProxy);
    this.log = new RequestLog(opts.log, this.trustProxy);
    this.startedAt = performance.now();
    this.assets = opts.assets ?? new AssetServer(null);
  }

  /** node:http's handler: the answer written, or the front-door asset streamed from its file. */
  serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const started = performance.now();
    const replied = this.reply(req, splitTarget(req.url));
    if ('asset' in replied) {
      this.serveAsset(req, res, replied.asset, started);
      return;
    }
    const { response } = replied;
    res.writeHead(response.status, response.headers);
    res.end(response.sendBody ? response.body : undefined);
    this.log.answered(req, replied, started);
  }

  /** The fast lane's: the same answers, written by the lane; assets are left to node:http. */
  laneHandlers(): LaneHandlers {
    return {
      answer: (req) => {
        const target = splitTarget(req.url);
        // Front-door assets are streamed through node:http's objects (serve-handler). Asked before
        // `reply`, which counts the request against the rate limit: node:http will count it.
        if (target !== null && this.assets.handles(target.path)) return null;
        const replied = this.reply(req, target);
        return 'asset' in replied ? null : replied;
      },
      answered: (req, answered, started) => this.log.answered(req, answered, started),
    };
  }

  /**
   * The encoded answer to a request, a 500 when answering failed (nothing a request holds may take
   * the server down), or `asset` with the rate limiter's headers for a front-door asset.
   */
  private reply(req: Incoming, target: RequestTarget | null): Answered | { asset: Record<string, string> } {
    let source = 'dynamic';
    try {
      const answered = this.answer(req, target);
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

  /** A malformed target's 400, the rate limit's 429, a front-door asset, or the API's answer. */
  private answer(req: Incoming, target: RequestTarget | null): AnswerOrAsset {
    const head = { method: req.method ?? 'GET', headers: req.headers };
    if (!target) return { response: errorResponse(head, 400, 'Malformed request URL'), source: 'server' };
    const rate = this.rateLimit(req, target.path);
    if (rate && !rate.allowed) {
      // Answered before anything is resolved: a client over its limit costs no validation. No shared
      // cache keeps a 429 (errorResponse), so it needs no Netlify-Vary.
      const response = errorResponse(head, 429, 'Too many requests, please try again later.', rate.headers);
      return { response, source: 'server' };
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && this.assets.handles(target.path)) {
      return { response: null, source: 'asset', headers: rate?.headers };
    }
    // Spelled out rather than spread: V8 is slow to build a spread followed by more properties.
    const apiReq: ApiRequest = {
      method: head.method,
      headers: head.headers,
      path: target.path,
      rawQuery: target.rawQuery,
    };
    const answered = this.answerApi(apiReq, req.url);
    if (rate) Object.assign(answered.response.headers, rate.headers);
    return answered;
  }

  /** The client's count against its limit; undefined when the server has no rate limits. */
  private rateLimit(req: Incoming, path: string): RateDecision | undefined {
    return this.limiter?.check(clientIp(req, this.trustProxy), path);
  }

  /** The build's pre-rendered answer when it has one, else a dynamic render from the store. */
  private answerApi(apiReq: ApiRequest, url: string | undefined): Answered {
    const { resolution, file } = this.resolutions.resolve(
      apiReq.path,
      apiReq.rawQuery,
      url?.startsWith('/') ? url : undefined,
    );
    // Without rate limits nothing is added per request: the lookup finishes its answer, and keeps it.
    const fromFile =
      this.lookup.lookup(apiReq, resolution, file, this.limiter === null) ?? this.todaysFile(apiReq, resolution);
    const response = fromFile ?? this.renderDynamic(apiReq, resolution);
    // A 503 is a store that could not be read: the next request opens it again.
    if (response.status === 503) this.store.reset();
    return { response, source: fromFile ? 'static' : 'dynamic' };
  }

  /**
   * A request whose route defaults a day to today (route.ts `today`), without that day: today's
   * published file answers it, as the same request naming today. Resolved per day, so the memo never
   * holds yesterday's answer past midnight.
   */
  private todaysFile(apiReq: ApiRequest, resolution: Resolution): ApiResponse | null {
    const rawQuery = datedQuery(resolution, apiReq.rawQuery, ymd(this.clock()));
    if (rawQuery === null) return null;
    // Memoized by its own target (one a day), so the day's file keeps its ready answer too.
    const dated = this.resolutions.resolve(apiReq.path, rawQuery);
    return this.lookup.lookup(apiReq, dated.resolution, dated.file, this.limiter === null);
  }

  private renderDynamic(apiReq: ApiRequest, resolution: Resolution): ApiResponse {
    const { store } = this;
    const deps = {
      store: store.get(),
      clock: this.clock,
      uptime: this.uptime,
      storeName: store.name,
      storeProblem: store.problem ?? 'disconnected',
    };
    return render(apiReq, deps, resolution);
  }

  /** `headers`: what the rate limiter adds; serve-handler's own headers join them. */
  private serveAsset(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    headers: Record<string, string>,
    started: number,
  ): void {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.on('finish', () =>
      this.log.request(
        req,
        res.statusCode,
        req.method === 'HEAD' ? 0 : Number(res.getHeader('Content-Length') ?? 0),
        started,
        'asset',
      ),
    );
    this.assets.serve(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else {
        const failed = errorResponse({ method: 'GET', headers: {} }, 500, 'Internal server error');
        encode(failed, req.headers['accept-encoding']);
        res.writeHead(failed.status, failed.headers).end(failed.body);
      }
    });
  }
}

/**
 * One entry per request. By default entries are spelled as bytes (entryLog); an injected `log`
 * takes lines, and null logs nothing.
 */
class RequestLog {
  private readonly sink: EntrySink | null;
  /** Where a line goes (one that is not a request's entry, too), in order with the entries; null: nowhere. */
  readonly line: ((line: string) => void) | null;

  constructor(
    log: ServerOptions['log'],
    private readonly trustProxy: number,
  ) {
    this.sink = log === undefined ? entryLog() : null;
    this.line = this.sink ? this.sink.line : (log ?? null);
  }

  /** `bytes`: the body's bytes as sent. */
  request(req: Incoming, status: number, bytes: number, started: number, source: string): void {
    const { line, sink } = this;
    if (!line) return;
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const url = (req.url ?? '').slice(0, 2048);
    const ip = clientIp(req, this.trustProxy);
    const entry = { time: Date.now(), method: req.method, url, status, bytes, ms, ip, source };
    if (sink) sink.record(entry);
    else line(accessLine(entry));
  }

  answered(req: Incoming, { response, source }: Answered, started: number): void {
    this.request(req, response.status, response.sendBody ? response.body.length : 0, started, source);
  }

  /** Write out what the sink has gathered. */
  flush(): void {
    this.sink?.flush();
  }
}

function listenOn(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Stop accepting and let in-flight requests finish, for `graceMs` at most before every connection
 * is cut; then the log is written out and the store closed.
 */
function shutDown(server: http.Server, lane: FastLane | null, answers: Answers, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      server.closeAllConnections();
      lane?.closeAll();
    }, graceMs);
    force.unref();
    answers.lookup.close?.();
    server.close(() => {
      clearTimeout(force);
      answers.log.flush();
      answers.store.close();
      resolve();
    });
    // Idle keep-alive connections would otherwise hold the server open until they time out.
    server.closeIdleConnections();
    lane?.close();
  });
}
