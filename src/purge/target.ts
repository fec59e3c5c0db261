/**
 * What the Purger needs to know of a place whose cached answers can be purged by tag: how many tags
 * fit in one request, how many requests it takes in a window, and how to send one. The providers
 * (providers.ts) fill this in; when to send what is the Purger's business (purger.ts).
 */

export interface RequestRate {
  requests: number;
  windowMs: number;
}

export interface PurgeTarget {
  /** Its kind, as the cycle line names it: `varnish`, `netlify`, `cloudflare`, `fastly`. */
  readonly name: string;
  /** Tells two targets of one kind apart in a report (a Varnish's host), where that can happen. */
  readonly where?: string;
  /** Most tags in one request. */
  readonly maxTags: number;
  /** Most bytes of the tags joined by single spaces, where one request header carries them all. */
  readonly maxBytes?: number;
  /** The most requests the provider accepts in any window of this length; none: no limit. */
  readonly rate?: RequestRate;
  /** Purges `tags` with one request; rejects (with a PurgeError, when the target answered) if it did not. */
  send(tags: readonly string[], signal: AbortSignal): Promise<void>;
}

/** A purge request that failed; `message` is the reason in a few words, fit for the cycle line. */
export class PurgeError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** From a 429's Retry-After: how long the provider wants us to stay away. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'PurgeError';
  }
}

const USER_AGENT = 'football-data-service (cache purge)';

/** One purge request: any 2xx is done; anything else rejects with a PurgeError. */
export async function purgeRequest(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { 'user-agent': USER_AGENT, ...init.headers }, signal });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new PurgeError(`network error (${cause?.code ?? cause?.message ?? String(err)})`);
  }
  // The answer's body says nothing the status does not, and waiting for it could outlast the timeout.
  await res.body?.cancel().catch(() => undefined);
  if (res.ok) return;
  const retryAfter = res.status === 429 ? parseRetryAfter(res.headers.get('retry-after')) : undefined;
  throw new PurgeError(`HTTP ${res.status}`, res.status, retryAfter);
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
