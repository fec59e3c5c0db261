/**
 * The HTTP transport for upstream JSON: one bounded pool of requests for the whole run, a timeout
 * per attempt that covers the body as well as the headers, and retries for everything that is
 * usually transient. The caller's `parse` runs inside the retry loop, so a payload that is cut off,
 * is an HTML error page, or fails the schema is fetched again instead of failing at once — and
 * nothing from a failed attempt ever reaches the caller.
 */
import { ownPackage } from '../../util/package.js';
import pLimit from 'p-limit';
import type { LimitFunction } from 'p-limit';
import { isRetryableStatus, parseRetryAfter, retryDelay } from './retry-policy.js';
import type { BackoffPolicy } from './retry-policy.js';

export interface HttpOptions {
  /** Requests in flight at once, across every caller of this client. */
  concurrency?: number;
  /** Per attempt, from sending the request to the last byte of the body. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  retries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  retryAfterMaxMs?: number;
  /**
   * After this many requests in a row have used up their retries with no success in between, the
   * upstream is treated as down: later requests get one attempt each until one succeeds. A full
   * outage then costs one round of requests instead of every unit waiting out its whole backoff.
   */
  outageThreshold?: number;
  userAgent?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export const HTTP_DEFAULTS = {
  concurrency: 4,
  timeoutMs: 10_000,
  retries: 5,
  backoffBaseMs: 250,
  backoffMaxMs: 8_000,
  retryAfterMaxMs: 30_000,
  outageThreshold: 10,
} as const;

/** The request could not be completed; `message` is the reason, fit for a one-line report. */
export class HttpError extends Error {
  constructor(
    readonly reason: string,
    readonly url: string,
    readonly attempts: number,
    readonly status?: number,
    note?: string,
  ) {
    const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    super(note ? `${reason} (${tries}: ${note})` : attempts > 1 ? `${reason} (gave up after ${tries})` : reason);
    this.name = 'HttpError';
  }
}

/** A conditional request answered 304: what the caller stored from this URL still holds. */
export const NOT_MODIFIED = Symbol('not modified');

/** What one kind of request cost: requests sent (retries included), body bytes received, 304s among them. */
export interface Asked {
  requests: number;
  bytes: number;
  notModified: number;
}

export interface GetOptions {
  /** The name this request is counted under (`asked()`), e.g. board-month or summary. */
  kind?: string;
}

/** The URLs whose validators a client keeps; the oldest go first (a long `fds live` asks ever new matches). */
const MAX_VALIDATORS = 10_000;

/** One exchange's outcome, with the body bytes it received (what `takeAsked` counts). */
type Attempt<T> = { bytes?: number } & (
  | { kind: 'ok'; value: T }
  | { kind: 'not-modified' }
  | { kind: 'missing' }
  | { kind: 'failed'; reason: string; retryable: boolean; status?: number; retryAfterMs?: number }
);

/**
 * `football-data-service/VERSION (+URL)`, the form ESPN is reported to accept (research/espn-api.md:
 * browser strings, bare tokens and some runtimes' defaults have been answered 403).
 */
export function defaultUserAgent(): string {
  let version = '0.0.0';
  let url = '';
  try {
    const pkg = ownPackage(import.meta.url);
    version = pkg.version ?? version;
    url = pkg.homepage ?? (typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? ''));
  } catch {
    // A missing package.json only costs the version and address in the header.
  }
  return `football-data-service/${version}${url ? ` (+${url})` : ''}`;
}

export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const issues = (err as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
    if (issues?.length)
      return issues
        .slice(0, 3)
        .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
        .join('; ');
    return err.message;
  }
  return String(err);
}

function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `network error (${cause?.code ?? cause?.message ?? describeError(err)})`;
}

export class HttpClient {
  readonly userAgent: string;
  private readonly limit: LimitFunction;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoff: BackoffPolicy;
  private readonly outageThreshold: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private exhaustedInARow = 0;
  /** Validators the upstream gave, by URL: sent back only when it gave them. */
  private readonly validators = new Map<string, { etag?: string; lastModified?: string }>();
  /** Requests under way, by URL: an identical request asked meanwhile shares the answer. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly counts = new Map<string, Asked>();
  private forbidden = false;

  constructor(opts: HttpOptions = {}) {
    const d = HTTP_DEFAULTS;
    this.limit = pLimit(Math.max(1, opts.concurrency ?? d.concurrency));
    this.timeoutMs = opts.timeoutMs ?? d.timeoutMs;
    this.retries = Math.max(0, opts.retries ?? d.retries);
    this.backoff = {
      baseMs: opts.backoffBaseMs ?? d.backoffBaseMs,
      maxMs: opts.backoffMaxMs ?? d.backoffMaxMs,
      retryAfterMaxMs: opts.retryAfterMaxMs ?? d.retryAfterMaxMs,
    };
    this.outageThreshold = opts.outageThreshold ?? d.outageThreshold;
    this.userAgent = opts.userAgent ?? defaultUserAgent();
    this.fetchImpl = opts.fetch ?? fetch;
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = opts.random ?? Math.random;
  }

  /** A 403 was answered: the upstream blocks this client, and nothing more is asked until `unblock()`. */
  get blocked(): boolean {
    return this.forbidden;
  }

  unblock(): void {
    this.forbidden = false;
  }

  /** What was asked since the last call, by kind; the counts start again from zero. */
  takeAsked(): Record<string, Asked> {
    const out = Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
    this.counts.clear();
    return out;
  }

  private count(kind: string, bytes: number, notModified: boolean): void {
    const c = this.counts.get(kind) ?? { requests: 0, bytes: 0, notModified: 0 };
    c.requests++;
    c.bytes += bytes;
    if (notModified) c.notModified++;
    this.counts.set(kind, c);
  }

  /** True while the upstream looks down (see `outageThreshold`). */
  get outage(): boolean {
    return this.exhaustedInARow >= this.outageThreshold;
  }

  /**
   * GET `url` as JSON and hand it to `parse` (which throws on an invalid payload). Resolves to
   * `undefined` on 404 — the upstream does not have it — and rejects with an HttpError when the
   * request failed for good.
   */
  getJson<T>(url: string, parse: (body: unknown) => T, opts?: GetOptions): Promise<T | undefined>;
  getJson<T>(
    url: string,
    parse: (body: unknown) => T,
    opts: GetOptions & { conditional: true },
  ): Promise<T | undefined | typeof NOT_MODIFIED>;
  /**
   * With `conditional`, a URL answered before with validators (ETag, Last-Modified) is asked with
   * them, and a 304 resolves to NOT_MODIFIED; validators the upstream did not give are never sent.
   * An identical request (same URL) already under way is not sent again: both callers get its answer.
   */
  getJson<T>(
    url: string,
    parse: (body: unknown) => T,
    opts: GetOptions & { conditional?: boolean } = {},
  ): Promise<T | undefined | typeof NOT_MODIFIED> {
    const key = `${opts.conditional ? 'c' : 'u'} ${url}`;
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<T | undefined | typeof NOT_MODIFIED>;
    const request = this.request(url, parse, opts.kind ?? 'other', !!opts.conditional).finally(() =>
      this.inFlight.delete(key),
    );
    this.inFlight.set(key, request);
    return request;
  }

  private async request<T>(
    url: string,
    parse: (body: unknown) => T,
    kind: string,
    conditional: boolean,
  ): Promise<T | undefined | typeof NOT_MODIFIED> {
    if (!URL.canParse(url)) throw new HttpError(`invalid URL ${JSON.stringify(url)}`, url, 1);
    for (let attempt = 1; ; attempt++) {
      if (this.forbidden)
        throw new HttpError('not asked: the upstream answered 403 (blocked) earlier', url, attempt - 1);
      // Only the request itself holds a slot; the wait before a retry does not.
      const result = await this.limit(() => this.attempt(url, parse, kind, conditional));
      if (result.kind !== 'failed') {
        this.exhaustedInARow = 0;
        return result.kind === 'ok' ? result.value : result.kind === 'not-modified' ? NOT_MODIFIED : undefined;
      }
      if (!result.retryable) throw new HttpError(result.reason, url, attempt, result.status);
      // Re-read on every round: an outage noticed meanwhile cuts this request's retries short too.
      const allowed = this.outage ? 1 : this.retries + 1;
      if (attempt >= allowed) {
        this.exhaustedInARow++;
        const note = this.outage && attempt < this.retries + 1 ? 'upstream looks down, retries suspended' : undefined;
        throw new HttpError(result.reason, url, attempt, result.status, note);
      }
      await this.sleep(retryDelay(attempt, result.retryAfterMs, this.backoff, this.random));
    }
  }

  private async attempt<T>(url: string, parse: (body: unknown) => T, kind: string, conditional: boolean) {
    const result = await this.exchange(url, parse, conditional);
    this.count(kind, result.bytes ?? 0, result.kind === 'not-modified');
    return result;
  }

  private async exchange<T>(url: string, parse: (body: unknown) => T, conditional: boolean): Promise<Attempt<T>> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const known = conditional ? this.validators.get(url) : undefined;
    const validators: Record<string, string> = {};
    if (known?.etag) validators['if-none-match'] = known.etag;
    if (known?.lastModified) validators['if-modified-since'] = known.lastModified;
    const timedOut = (): Attempt<T> => ({
      kind: 'failed',
      reason: `timeout (no complete response within ${this.timeoutMs} ms)`,
      retryable: true,
    });
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        signal,
        headers: { accept: 'application/json', 'user-agent': this.userAgent, ...validators },
      });
    } catch (err) {
      return signal.aborted ? timedOut() : { kind: 'failed', reason: networkReason(err), retryable: true };
    }
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return { kind: 'missing' };
    }
    if (res.status === 304 && known) {
      await res.body?.cancel().catch(() => undefined);
      return { kind: 'not-modified' };
    }
    if (res.status === 403) this.forbidden = true;
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      const retryable = isRetryableStatus(res.status);
      const retryAfterMs = retryable ? parseRetryAfter(res.headers.get('retry-after')) : undefined;
      return {
        kind: 'failed',
        reason: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`,
        retryable,
        status: res.status,
        retryAfterMs,
      };
    }
    // An error page served with 200 (proxies and CDNs do this) is not the payload.
    const type = res.headers.get('content-type');
    if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type.trim())) {
      await res.body?.cancel().catch(() => undefined);
      return {
        kind: 'failed',
        reason: `not JSON (content-type ${type.split(';')[0]})`,
        retryable: true,
        status: res.status,
      };
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      return signal.aborted ? timedOut() : { kind: 'failed', reason: networkReason(err), retryable: true };
    }
    const bytes = Buffer.byteLength(text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return {
        kind: 'failed',
        reason: `truncated or invalid JSON (${text.length} bytes)`,
        retryable: true,
        status: res.status,
        bytes,
      };
    }
    try {
      const value = parse(body);
      if (conditional) this.remember(url, res.headers);
      return { kind: 'ok', value, bytes };
    } catch (err) {
      return {
        kind: 'failed',
        reason: `invalid payload: ${describeError(err)}`,
        retryable: true,
        status: res.status,
        bytes,
      };
    }
  }

  /** Keep the validators an answer carried (and forget stale ones when it carried none). */
  private remember(url: string, headers: Headers): void {
    const etag = headers.get('etag') ?? undefined;
    const lastModified = headers.get('last-modified') ?? undefined;
    this.validators.delete(url);
    if (!etag && !lastModified) return;
    this.validators.set(url, { etag, lastModified });
    if (this.validators.size > MAX_VALIDATORS) this.validators.delete(this.validators.keys().next().value!);
  }
}
