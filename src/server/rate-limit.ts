/**
 * Fixed-window rate limiting per client and bucket (`/get/*` and everything else have separate
 * limits), with the draft-6 `RateLimit-*` headers express-rate-limit sends.
 */
export interface RateLimitOptions {
  /** Requests per window on /get/* (default 120). */
  api: number;
  /** Requests per window on every other path (default 500). */
  other: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitOptions = { api: 120, other: 500, windowMs: 60_000 };

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

interface Window {
  count: number;
  resetAt: number;
}

const MAX_TRACKED = 100_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {}

  check(client: string, path: string): RateDecision {
    const api = path === '/get' || path.startsWith('/get/');
    const limit = api ? this.opts.api : this.opts.other;
    const key = `${api ? 'api' : 'other'} ${client}`;
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      if (this.windows.size >= MAX_TRACKED) this.sweep(t);
      w = { count: 0, resetAt: t + this.opts.windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    const reset = Math.max(1, Math.ceil((w.resetAt - t) / 1000));
    const headers: Record<string, string> = {
      'RateLimit-Policy': `${limit};w=${Math.ceil(this.opts.windowMs / 1000)}`,
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - w.count)),
      'RateLimit-Reset': String(reset),
    };
    if (w.count <= limit) return { allowed: true, headers };
    return { allowed: false, headers: { ...headers, 'Retry-After': String(reset) } };
  }

  private sweep(t: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= t) this.windows.delete(key);
    // Under a flood of distinct clients, forgetting the oldest windows beats growing without bound.
    if (this.windows.size >= MAX_TRACKED) this.windows.clear();
  }
}
