/**
 * Response headers the render core owns, so a pre-rendered file and a dynamic answer carry the
 * same ones: content type, caching, CORS, and conditional-GET matching against the strong ETag
 * (made in etag.ts).
 */
import type { CacheClass } from './route.js';

export const ALLOW = 'GET, HEAD, OPTIONS';
export const JSON_TYPE = 'application/json; charset=utf-8';

export const CORS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After',
};

/** What a CORS preflight is told: any origin, the three methods, any request header, for a day. */
export const PREFLIGHT: Readonly<Record<string, string>> = {
  ...CORS,
  'Access-Control-Allow-Methods': ALLOW,
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Max-Age': '86400',
  Allow: ALLOW,
};

/**
 * Cache-Control by the route's cache class: `live` is match data (short while it holds a match in
 * play), `feed` the change feed (always short), `match` standings, `list` leagues, meta, clubs and
 * the API description, `none` health.
 * The OpenAPI document describes each class from this same table.
 */
export const CACHE_POLICY: Readonly<Record<CacheClass, { value: string; whileLive?: string }>> = {
  live: { value: 'public, max-age=30', whileLive: 'public, max-age=4' },
  feed: { value: 'public, max-age=4' },
  match: { value: 'public, max-age=30' },
  list: { value: 'public, max-age=60' },
  none: { value: 'no-store' },
};

/** Errors are never cached. */
export function cacheControl(cache: CacheClass, status: number, live: boolean): string {
  if (status !== 200) return 'no-store';
  const policy = CACHE_POLICY[cache];
  return live && policy.whileLive ? policy.whileLive : policy.value;
}

/** How long a shared cache (a CDN, a reverse proxy) keeps an answer, in seconds. */
export interface SharedLifetime {
  /** Fresh for this long (`s-maxage`). */
  fresh: number;
  /** Then served stale while one request fetches the new answer (`stale-while-revalidate`). */
  revalidate: number;
  /** Served stale while the origin answers 5xx or not at all (`stale-if-error`). */
  ifError: number;
}

/**
 * What shared caches are told, per cache class, in `CDN-Cache-Control` (RFC 9213) and
 * `Netlify-CDN-Cache-Control`; `Cache-Control` (CACHE_POLICY) stays the browser's. A publish purges
 * the tags of every answer it changed (cache-tags.ts, `--purge`), so an entry ends as soon as its
 * answer does and may live much longer than a browser's copy: the lifetime only bounds how stale a
 * cache gets when a purge fails or was never asked for (answers no file stands for, a missed
 * purge, the date-less scoreboard after midnight). So: minutes for what changes on publish, seconds
 * while a match is in play (a purge that fails then costs a few seconds of staleness, not a minute)
 * and for the change feed that clients poll. `stale-if-error` keeps answering through an origin
 * outage: a day for data that is merely old, five minutes for live data that would mislead.
 * `none` (health) gets none: `Cache-Control: no-store` says it all.
 */
export const SHARED_CACHE_POLICY: Readonly<
  Record<Exclude<CacheClass, 'none'>, { value: SharedLifetime; whileLive?: SharedLifetime }>
> = {
  live: {
    value: { fresh: 60, revalidate: 30, ifError: 86_400 },
    whileLive: { fresh: 10, revalidate: 5, ifError: 300 },
  },
  feed: { value: { fresh: 10, revalidate: 5, ifError: 300 } },
  match: { value: { fresh: 300, revalidate: 60, ifError: 86_400 } },
  list: { value: { fresh: 600, revalidate: 60, ifError: 86_400 } },
};

/** A shared cache's directives for one lifetime; Netlify's adds `durable` (one entry for all its edge nodes). */
export function sharedDirectives(life: SharedLifetime, netlify = false): string {
  const keep = `s-maxage=${life.fresh}, stale-while-revalidate=${life.revalidate}, stale-if-error=${life.ifError}`;
  return netlify ? `public, durable, ${keep}` : `public, ${keep}`;
}

/** Errors (and 429s) are never stored by a shared cache either (docs/json-api.md, "Shared caches"). */
export const SHARED_NO_STORE: Readonly<Record<string, string>> = {
  'CDN-Cache-Control': 'no-store',
  'Netlify-CDN-Cache-Control': 'no-store',
};

const sharedHeaders = new Map<SharedLifetime, Readonly<Record<string, string>>>();

/**
 * `CDN-Cache-Control` and `Netlify-CDN-Cache-Control` of an answer: a 200's by its class (and
 * whether it holds a live match), `no-store` for any other status; none for the class `none`. One
 * frozen record per lifetime.
 */
export function sharedCacheControl(cache: CacheClass, status: number, live: boolean): Readonly<Record<string, string>> {
  if (status !== 200) return SHARED_NO_STORE;
  if (cache === 'none') return {};
  const policy = SHARED_CACHE_POLICY[cache];
  const life = live && policy.whileLive ? policy.whileLive : policy.value;
  let headers = sharedHeaders.get(life);
  if (!headers) {
    headers = Object.freeze({
      'CDN-Cache-Control': sharedDirectives(life),
      'Netlify-CDN-Cache-Control': sharedDirectives(life, true),
    });
    sharedHeaders.set(life, headers);
  }
  return headers;
}

/**
 * Whether a 200's `Cache-Control` is its class's value while it holds a live match: what a file's
 * manifest entry tells of it (a file records its Cache-Control, not whether it was live).
 */
export function liveByCacheControl(cache: CacheClass, cacheControl: string): boolean {
  const { whileLive } = CACHE_POLICY[cache];
  return whileLive !== undefined && whileLive !== CACHE_POLICY[cache].value && cacheControl === whileLive;
}

export function describeCachePolicy(cache: CacheClass): string {
  const { value, whileLive } = CACHE_POLICY[cache];
  return whileLive ? `\`${whileLive}\` while the response holds a live match, else \`${value}\`` : `\`${value}\``;
}

/** If-None-Match: a comma list of entity tags (weak ones compared by their opaque part) or `*`. */
export function ifNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  const bare = etag.slice(1, -1);
  return value.split(',').some((raw) => {
    const tag = raw.trim();
    if (tag === '*') return true;
    const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
    return opaque === etag || opaque === bare;
  });
}
