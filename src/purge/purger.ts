/**
 * Purges the tags of each publish at every configured target without ever holding the publishing
 * loop up for long. Each call adds its tags to every target's pending set (a tag pending twice is
 * sent once), sends what each target's rate allows now, in as few requests as its batch size
 * allows and one at a time, and reports. Tags of a failed request stay pending and go with the next
 * call; so do tags over the rate, which is how a target that takes few requests (Cloudflare Free)
 * keeps up with a loop that publishes more often: later requests carry earlier tags. Meanwhile the
 * answers' TTLs bound how stale a cache can get.
 *
 * A call waits for its own requests at most `waitMs`. A target still sending then, or still
 * sending an earlier call's requests when the call begins, is reported busy and not waited for;
 * what those requests did goes into the next report.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { PurgeReport, TargetReport } from './report.js';
import { PurgeError } from './target.js';
import type { PurgeTarget } from './target.js';

export interface PurgerOptions {
  /** Per request, until the answer's status. */
  timeoutMs?: number;
  /** The longest purge() waits for its requests before it reports; default a little over timeoutMs. */
  waitMs?: number;
  /** How long flush() waits before trying a target again after a failure. */
  retryMs?: number;
  /** Aborts the requests in flight and stops sending: for shutting down. */
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const PURGE_DEFAULTS = { timeoutMs: 2000, retryMs: 1000 } as const;

/** What the publisher tags answers with; anything else tags no answer, and could break a header. */
const TAG = /^[A-Za-z0-9._-]+$/;

/** The longest a 429's Retry-After is obeyed: one refused request every few minutes costs nothing. */
const MAX_BACKOFF_MS = 300_000;

interface Target {
  readonly target: PurgeTarget;
  readonly name: string;
  /** Oldest first. */
  pending: Set<string>;
  inFlight: number;
  /** Sending pending tags, while it runs. */
  round?: Promise<void>;
  /** Start times of the requests still inside the rate window, oldest first. */
  sent: number[];
  /** After a 429: no request before this. */
  blockedUntil: number;
  error?: string;
  /** Since the previous report. */
  purged: number;
  requests: number;
  ms: number;
}

export class Purger {
  private readonly targets: Target[];
  private readonly timeoutMs: number;
  private readonly waitMs: number;
  private readonly retryMs: number;
  private readonly signal?: AbortSignal;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(targets: readonly PurgeTarget[], opts: PurgerOptions = {}) {
    const kinds = (name: string) => targets.filter((t) => t.name === name).length;
    this.targets = targets.map((target) => ({
      target,
      name: target.where && kinds(target.name) > 1 ? `${target.name} ${target.where}` : target.name,
      pending: new Set(),
      inFlight: 0,
      sent: [],
      blockedUntil: Number.NEGATIVE_INFINITY,
      purged: 0,
      requests: 0,
      ms: 0,
    }));
    this.timeoutMs = opts.timeoutMs ?? PURGE_DEFAULTS.timeoutMs;
    // A little over the timeout, so a request that times out is reported as the failure it is.
    this.waitMs = opts.waitMs ?? this.timeoutMs + 250;
    this.retryMs = opts.retryMs ?? PURGE_DEFAULTS.retryMs;
    this.signal = opts.signal;
    this.now = opts.now ?? (() => performance.now());
    this.sleep = opts.sleep ?? ((ms) => delay(ms));
  }

  /** Adds `tags` at every target and sends what can go now. Never rejects. */
  async purge(tags: Iterable<string>): Promise<PurgeReport> {
    for (const tag of tags) if (TAG.test(tag)) for (const t of this.targets) t.pending.add(tag);
    // Only the rounds this call starts are waited for: one already running is an earlier call's.
    await this.within(Promise.all(this.startRounds().map((t) => t.round)), this.waitMs);
    return this.report();
  }

  /**
   * For a one-shot run (`fds build --purge`): sends every pending tag, waiting out rates and
   * retrying failures, until none is left or `withinMs` has passed. After the first round, a request
   * starts only while it can still be answered or time out before then, so the report says how the
   * last one ended rather than that it is still in flight. Never rejects.
   */
  async flush(withinMs: number): Promise<PurgeReport> {
    const end = this.now() + withinMs;
    for (let first = true; ; first = false) {
      if (first || end - this.now() >= this.timeoutMs) this.startRounds();
      await this.within(Promise.all(this.targets.map((t) => t.round)), end - this.now());
      const left = end - this.now();
      const waiting = this.targets.filter((t) => t.pending.size || t.round);
      if (!waiting.length || left <= 0 || this.signal?.aborted) return this.report();
      const waits = waiting.map((t) => Math.max(this.sendableAt(t) - this.now(), t.error ? this.retryMs : 0));
      await this.sleep(Math.max(1, Math.min(left, ...waits)));
    }
  }

  /** Starts sending at each target that is idle, has tags pending and may send now. */
  private startRounds(): Target[] {
    const started = this.targets.filter((t) => !t.round && t.pending.size && this.sendableAt(t) <= this.now());
    for (const t of started) {
      t.round = this.sendPending(t).finally(() => {
        t.round = undefined;
      });
    }
    return started;
  }

  /** One request at a time while tags are pending and the rate allows. Never rejects. */
  private async sendPending(t: Target): Promise<void> {
    while (t.pending.size && !this.signal?.aborted && this.sendableAt(t) <= this.now()) {
      const batch = takeBatch(t.pending, t.target);
      t.inFlight += batch.length;
      t.sent.push(this.now());
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const sentAt = this.now();
      try {
        await t.target.send(batch, this.signal ? AbortSignal.any([timeout, this.signal]) : timeout);
        t.purged += batch.length;
        t.error = undefined;
      } catch (err) {
        // Back at the front: they have waited longest.
        t.pending = new Set([...batch, ...t.pending]);
        t.error = timeout.aborted
          ? `timeout (no answer within ${this.timeoutMs} ms)`
          : this.signal?.aborted
            ? 'stopped'
            : err instanceof Error
              ? err.message
              : String(err);
        if (err instanceof PurgeError && err.status === 429) {
          const rate = t.target.rate;
          const fallback = Math.max(1000, rate ? rate.windowMs / rate.requests : 0);
          t.blockedUntil = this.now() + Math.min(err.retryAfterMs ?? fallback, MAX_BACKOFF_MS);
        }
        return;
      } finally {
        t.inFlight -= batch.length;
        t.requests++;
        t.ms += this.now() - sentAt;
      }
    }
  }

  /** When the target may send its next request: after its rate window frees a slot, and any 429's wait. */
  private sendableAt(t: Target): number {
    const rate = t.target.rate;
    if (!rate) return t.blockedUntil;
    const now = this.now();
    while (t.sent.length && t.sent[0]! <= now - rate.windowMs) t.sent.shift();
    const full = t.sent.length >= rate.requests;
    return Math.max(t.blockedUntil, full ? t.sent[t.sent.length - rate.requests]! + rate.windowMs : 0);
  }

  private report(): PurgeReport {
    const now = this.now();
    const targets = this.targets.map((t): TargetReport => {
      const pending = t.pending.size + t.inFlight;
      const wait = pending && !t.round ? this.sendableAt(t) - now : 0;
      const report: TargetReport = {
        name: t.name,
        purged: t.purged,
        requests: t.requests,
        ms: Math.round(t.ms),
        pending,
        busy: t.round !== undefined,
      };
      if (t.error) report.error = t.error;
      if (wait > 0) report.retryInMs = Math.round(wait);
      t.purged = 0;
      t.requests = 0;
      t.ms = 0;
      return report;
    });
    return { targets };
  }

  private async within(work: Promise<unknown>, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, ms));
    });
    await Promise.race([work, deadline]);
    clearTimeout(timer);
  }
}

/** The oldest pending tags that fit in one request, taken out of `pending`. */
function takeBatch(pending: Set<string>, target: PurgeTarget): string[] {
  const batch: string[] = [];
  let bytes = -1; // no space before the first tag
  for (const tag of pending) {
    if (batch.length >= target.maxTags) break;
    if (batch.length && target.maxBytes !== undefined && bytes + 1 + tag.length > target.maxBytes) break;
    batch.push(tag);
    bytes += 1 + tag.length;
  }
  for (const tag of batch) pending.delete(tag);
  return batch;
}
