/**
 * The four places `--purge` can purge, each as its provider documents the request. Batch sizes and
 * rates are the providers' own limits where they publish one; where the shape of the code depends
 * on a documented fact, the comment says where it is written.
 */
import { purgeRequest } from './target.js';
import type { PurgeTarget, RequestRate } from './target.js';

const json = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  accept: 'application/json',
});

/** `base` is an origin, optionally with a path prefix; the provider's documented path follows it. */
const endpoint = (base: string, path: string) => base.replace(/\/+$/, '') + path;

/**
 * Varnish with the xkey vmod: `PURGE` with the tags space-separated in one `xkey-purge` header
 * (varnish-modules, vmod_xkey: "a single header with space separated values"). varnishd refuses a
 * request header line longer than http_req_hdr_len, 8k by default (varnishd parameters), so the
 * tags of one request stay under that with room for the header's name.
 */
export function varnishTarget(url: URL): PurgeTarget {
  return {
    name: 'varnish',
    where: url.host,
    maxTags: Number.POSITIVE_INFINITY,
    maxBytes: 8000,
    send: (tags, signal) =>
      purgeRequest(url.href, { method: 'PURGE', headers: { 'xkey-purge': tags.join(' ') } }, signal),
  };
}

/**
 * Netlify's purge API. Netlify documents neither a most tags per purge nor a purge rate; its API as
 * a whole allows 500 requests a minute per token. So: 100 tags a request (Cloudflare's documented
 * cap, a body of a few kilobytes) and at most 100 requests a minute, a fifth of the token's
 * budget, leaving the rest to deploys and whatever else uses the same token.
 */
export function netlifyTarget(opts: { token: string; siteId: string; apiUrl: string }): PurgeTarget {
  const url = endpoint(opts.apiUrl, '/api/v1/purge');
  return {
    name: 'netlify',
    maxTags: 100,
    rate: { requests: 100, windowMs: 60_000 },
    send: (tags, signal) =>
      purgeRequest(
        url,
        { method: 'POST', headers: json(opts.token), body: JSON.stringify({ site_id: opts.siteId, cache_tags: tags }) },
        signal,
      ),
  };
}

export const CLOUDFLARE_PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type CloudflarePlan = (typeof CLOUDFLARE_PLANS)[number];

/**
 * Purge requests per account and plan (developers.cloudflare.com/cache/how-to/purge-cache, "Purge
 * limits"). Cloudflare meters them with a token bucket that holds more than this (25 on Free) for
 * bursts; we hold ourselves to the steady rate instead, because the bucket is the account's, shared
 * with every other zone, tool and person purging on it, and a burst we spend is one they cannot.
 */
export const CLOUDFLARE_RATES: Readonly<Record<CloudflarePlan, RequestRate>> = {
  free: { requests: 5, windowMs: 60_000 },
  pro: { requests: 5, windowMs: 1000 },
  business: { requests: 10, windowMs: 1000 },
  enterprise: { requests: 50, windowMs: 1000 },
};

/** Cloudflare purge by tag: at most 100 tags ("operations") per request on every plan (same page). */
export function cloudflareTarget(opts: {
  token: string;
  zoneId: string;
  plan: CloudflarePlan;
  apiUrl: string;
}): PurgeTarget {
  const url = endpoint(opts.apiUrl, `/client/v4/zones/${encodeURIComponent(opts.zoneId)}/purge_cache`);
  return {
    name: 'cloudflare',
    maxTags: 100,
    rate: CLOUDFLARE_RATES[opts.plan],
    send: (tags, signal) =>
      purgeRequest(url, { method: 'POST', headers: json(opts.token), body: JSON.stringify({ tags }) }, signal),
  };
}

/**
 * Fastly batch purge: up to 256 surrogate keys per request, and key purges are not rate limited
 * (Fastly API reference, "Purge multiple surrogate key tags" and "Rate limiting"). The keys go in
 * the documented JSON body rather than the `Surrogate-Key` header the endpoint also takes: 256 of
 * our keys come near the 8 KB per header line that many servers and proxies allow.
 *
 * A hard purge: the objects are dropped. A soft purge (`Fastly-Soft-Purge: 1`) would only mark them
 * stale, and our answers carry stale-while-revalidate (api/headers.ts `SHARED_CACHE_POLICY`), so the
 * next request for a purged answer would still get the old one while Fastly fetches the new: the
 * purge would end an answer one request late, after up to a publish cycle more. What a soft purge
 * kept — the old answer for stale-if-error while the origin is down — is not worth that.
 */
export function fastlyTarget(opts: { token: string; serviceId: string; apiUrl: string }): PurgeTarget {
  const url = endpoint(opts.apiUrl, `/service/${encodeURIComponent(opts.serviceId)}/purge`);
  const headers = {
    'fastly-key': opts.token,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  return {
    name: 'fastly',
    maxTags: 256,
    send: (tags, signal) =>
      purgeRequest(url, { method: 'POST', headers, body: JSON.stringify({ surrogate_keys: tags }) }, signal),
  };
}
