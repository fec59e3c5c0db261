/**
 * What a 200 tells shared caches (CDNs, reverse proxies) besides its lifetime (headers.ts
 * `SHARED_CACHE_POLICY`): the cache tags naming what it shows, in each CDN's header, and which of
 * the query's parameters make a different answer (`Netlify-Vary`). A pure function of the route and
 * the request's values, so a pre-rendered file (the server knows its route), a dynamic answer, the
 * Netlify Function and the CDN rules carry the same, and a publish can name the tags of the answers
 * it changed without reading them.
 *
 * Tags use only `[A-Za-z0-9._-]` (league slugs, ids and days are made of those already): every CDN
 * takes them, and none needs quoting in a header. Each route declares its own (route.ts
 * `cacheTags`): first the answer's own tag, then what else it shows:
 *
 *   leagues, meta, changes, openapi, front-door   the route's name (routes without path parameters)
 *   scoreboard-<league>-<YYYYMMDD>                a league's day (the date-less form: today's)
 *   fixtures-<league>                             every fixtures page of the league, however asked
 *   match-<league>-<id>                           a match's summary (both forms) and its plays pages
 *   clubs-<league>, club-<league>-<id>            the club list, one club
 *   standings-<league>                            the standings, every season
 *   league-<league>                               shown by every answer of the league
 *
 * A publish purges only the own tag of each answer whose bytes changed (publish/place/changed-tags.ts):
 * purging everything a changed scoreboard shows would purge `league-eng.1`, and with it every answer
 * of the league, on every publish of a live matchday. The own tags are enough because answers no
 * file stands for share the own tag of one that changes with them: `?fields=` summaries and plays
 * pages of other sizes their match's, fixtures of any range and size `fixtures-<league>` (a change
 * of any listed match changes a pre-rendered page of all matches), the feed with `since` `changes`.
 *
 * Lists (scoreboards, fixtures pages) do not name each match they show. Tags must be a function of
 * the request alone — the server answers a file from its manifest without reading the store or the
 * body, and Netlify's `_headers` are path patterns — and which matches a list shows is the store's.
 * Nor would the purge gain from it: a list's bytes change with any match it shows (stable bytes), so
 * its own tag is purged in the same publish. And a fixtures page shows up to 200 matches: a tag
 * each, in each of four headers, would bring a response's head near the limit caches set on it. Purging one match's answers everywhere by hand is `match-<league>-<id>` plus its
 * day's scoreboard and the league's fixtures.
 */
import type { AnyRoute } from './route.js';
import { liveByCacheControl, sharedCacheControl } from './headers.js';
import { ymd } from '../util/time.js';

/** What a tag may hold: every CDN's tag syntax takes these, and the purger sends nothing else. */
export const TAG = /^[A-Za-z0-9._-]+$/;

/** The tag vocabulary; the route table (routes.ts) says which answers carry which. */
export const cacheTag = {
  league: (league: string) => `league-${league}`,
  match: (league: string, id: string) => `match-${league}-${id}`,
  scoreboard: (league: string, day: string) => `scoreboard-${league}-${day}`,
  fixtures: (league: string) => `fixtures-${league}`,
  standings: (league: string) => `standings-${league}`,
  clubs: (league: string) => `clubs-${league}`,
  club: (league: string, id: string) => `club-${league}-${id}`,
} as const;

const todayUtc = () => ymd(new Date());

/**
 * The cache tags of a route's 200 answer to a request with these (valid) values: its own tag first.
 * None for the class `none`; a tag that is not `[A-Za-z0-9._-]` is left out.
 */
export function tagsFor(
  route: AnyRoute,
  params: Readonly<Record<string, unknown>>,
  query: Readonly<Record<string, unknown>>,
  today: () => string = todayUtc,
): string[] {
  if (route.cache === 'none') return [];
  if (!route.cacheTags) return route.segments.some((s) => 'param' in s) ? [] : [route.name];
  const tags = route.cacheTags({ params: params as Readonly<Record<string, string>>, query, today });
  for (const t of tags) if (!TAG.test(t)) return tags.filter((t) => TAG.test(t));
  return tags;
}

/** The tag a publish purges when this answer's bytes change (null: the route tags nothing). */
export function ownTag(
  route: AnyRoute,
  params: Readonly<Record<string, unknown>>,
  query: Readonly<Record<string, unknown>>,
): string | null {
  return tagsFor(route, params, query)[0] ?? null;
}

/**
 * The tags written into `headers` in each CDN's header: `Cache-Tag` (Cloudflare, comma-separated),
 * `Surrogate-Key` (Fastly, space-separated), `xkey` (Varnish's xkey vmod, space-separated),
 * `Netlify-Cache-Tag` (comma-separated). None without tags.
 */
function addTags(headers: Record<string, string>, tags: readonly string[]): Record<string, string> {
  if (!tags.length) return headers;
  const comma = tags.join(',');
  const space = tags.join(' ');
  headers['Cache-Tag'] = comma;
  headers['Surrogate-Key'] = space;
  headers.xkey = space;
  headers['Netlify-Cache-Tag'] = comma;
  return headers;
}

const varies = new WeakMap<AnyRoute, string | null>();

/**
 * `Netlify-Vary` for a route: `query=` and its own query parameters (with `varyAlso`'s, route.ts)
 * joined by `|` in alphabetical order (Netlify's syntax), so that `utm_*` and other parameters the
 * route ignores do not split Netlify's cache, which otherwise keys on the whole query string. None
 * for a route without query parameters (Netlify documents no way to say "no parameter": such
 * answers stay keyed on the whole query string, which is only wasteful). The same for every answer
 * of the route, as Netlify requires of one URL.
 */
export function netlifyVary(route: AnyRoute): string | null {
  let vary = varies.get(route);
  if (vary === undefined) {
    const names = [...new Set([...Object.keys(route.query), ...(route.varyAlso ?? [])])].sort();
    vary = names.length ? `query=${names.join('|')}` : null;
    varies.set(route, vary);
  }
  return vary;
}

/**
 * Every shared-cache header of an answer of `route`: lifetimes (a 200's by its class and liveness,
 * `no-store` for any other status), `Netlify-Vary`, and a 200's tags. What the render core adds to
 * each answer and the server to each pre-rendered one; the CDN rules may take theirs from here too.
 */
export function sharedCacheHeaders(
  route: AnyRoute,
  status: number,
  live: boolean,
  params: Readonly<Record<string, unknown>>,
  query: Readonly<Record<string, unknown>>,
  today: () => string = todayUtc,
): Record<string, string> {
  // One record filled in place: a dynamic answer and each file's first answer make one.
  const headers: Record<string, string> = {};
  const lifetimes = sharedCacheControl(route.cache, status, live);
  for (const name in lifetimes) headers[name] = lifetimes[name]!;
  const vary = netlifyVary(route);
  if (vary) headers['Netlify-Vary'] = vary;
  return status === 200 ? addTags(headers, tagsFor(route, params, query, today)) : headers;
}

/**
 * The shared-cache lifetimes every file of a route shares, given the Cache-Control its manifest
 * records (which tells whether it held a live match). For rules that can only say what a path
 * pattern says (Netlify's `_headers`, publish/rules/header-plan.ts): no tags, which name a request's
 * league and ids, and no `Netlify-Vary`, since one file directory may hold the files of routes with
 * other parameters (a match's summary and its plays pages), and a narrower cache key than the
 * request's would give one file's answer for another's.
 */
export function routeSharedHeaders(route: AnyRoute, cacheControl: string): Readonly<Record<string, string>> {
  return sharedCacheControl(route.cache, 200, liveByCacheControl(route.cache, cacheControl));
}
