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
