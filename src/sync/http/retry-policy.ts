/**
 * When to retry an upstream request and how long to wait first. Kept apart from the transport so
 * the arithmetic can be tested without a server.
 */

/** Statuses that say "try again later": timeouts, too early, rate limiting, and every server error. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * A date in the past means "now"; anything unreadable is ignored (undefined), so backoff applies.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // "1.5" or "-3" are not HTTP dates either
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** The longest a server's Retry-After is obeyed for; a longer one is shortened to this. */
  retryAfterMaxMs: number;
}

/**
 * The wait before retry number `retry` (1 = the first retry). The server's Retry-After wins when it
 * gave one; otherwise exponential backoff with full jitter, so many clients (or many of our own
 * requests) that failed together do not come back together.
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: BackoffPolicy,
  random: () => number,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.retryAfterMaxMs);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}
