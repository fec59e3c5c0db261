/**
 * Response headers the render core owns, so a pre-rendered file and a dynamic answer carry the
 * same ones: content type, caching, CORS and the strong ETag with its conditional-GET matching.
 */
import { contentHash } from '../util/hash.js';
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

export function cacheControl(cache: CacheClass, status: number, live: boolean): string {
  if (status !== 200 || cache === 'none') return 'no-store';
  if (cache === 'list') return 'public, max-age=60';
  if (cache === 'live' && live) return 'public, max-age=4';
  return 'public, max-age=30';
}

/** A strong validator: the quoted content hash of the exact body bytes. */
export function etagOf(body: Buffer): string {
  return `"${contentHash(body)}"`;
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
