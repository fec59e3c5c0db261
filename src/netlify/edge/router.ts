/**
 * The edge router's code (`fds build --router edge`, netlify/edge/bundle.ts bundles it into a Netlify Edge
 * Function): a Web-standard Request in, a same-site URL to rewrite to — the pre-rendered file of
 * exactly this request — or undefined to let the request continue to the rules and the fallback.
 * It resolves a request with the very code the server and the build use (api/resolve.ts), so a
 * file is chosen by the request key: the file holds the answer to every request with that key.
 *
 * It must run on Deno: nothing here (or in what it imports at run time) may use Node's built-ins.
 *
 * The request is read as the platform hands it over, a parsed URL (dot segments resolved); the
 * fallback behind it is handed the same URL, so both agree on what was asked.
 *
 * The one answer that follows the clock: a scoreboard without `dates` is today's (UTC, at request
 * time; docs/json-api.md). The router works out today when the request comes and rewrites it to that
 * day's file when the build pre-rendered it (yesterday, today and tomorrow around the snapshot
 * always are), so it is never served a day late; literal rules cannot do that and leave it to the
 * fallback.
 */
import { resolve } from '../../app/resolve.js';
import { datedQuery } from '../../api/resolve.js';
import { routePath } from '../../api/route.js';
import { STATIC_PREFIX, fileDir } from '../../release/file-name.js';
import { ymd } from '../../util/time.js';

/** Where pre-rendered files live. */
const FILES = `/${STATIC_PREFIX}/`;
/** A path no rule but the catch-all takes and no route answers: the fallback says `Route not found`. */
export const UNROUTED = '/_unrouted';

/**
 * Binary search over `index`: lines `key\tvalue`, sorted by key (UTF-16 order, as Array#sort), so a
 * lookup parses nothing and a cold start costs no more than loading the string.
 */
export function lookup(index: string, key: string): string | null {
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = index.lastIndexOf('\n', mid - 1) + 1;
    let end = index.indexOf('\n', start);
    if (end === -1) end = index.length;
    const tab = index.indexOf('\t', start);
    const k = index.slice(start, tab);
    if (k === key) return index.slice(tab + 1, end);
    if (k < key) lo = end + 1;
    else hi = start;
  }
  return null;
}

/**
 * The file of an index value: a name within the request's own route path (`page-2`), or — for a
 * request answered by another route's file (`/summary?event=ID`) — the file's path from the root.
 */
export function fileOf(value: string, ownPath: string): string {
  return value.startsWith('/') ? value : `/${fileDir(ownPath)}/${value}.json`;
}

/** `now`: the time of the request in ms (`Date.now`, read per request). */
export function createRouter(
  index: string,
  now: () => number = () => Date.now(),
): (request: Request) => URL | undefined {
  return (request) => {
    const url = new URL(request.url);
    // The files are reached only through this router (and rules): a direct request gets what the
    // fallback answers for any path outside the API.
    if (url.pathname.startsWith(FILES)) return new URL(`${UNROUTED}${url.pathname}`, url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    let r = resolve(url.pathname, url.search.slice(1));
    if (r.kind !== 'resolved' || r.request.key === null) return undefined;
    // A route that defaults a day to today (route.ts `today`): the day is the request's, never the build's.
    const dated = datedQuery(r, url.search.slice(1), ymd(new Date(now())));
    if (dated !== null) {
      r = resolve(url.pathname, dated);
      if (r.kind !== 'resolved' || r.request.key === null) return undefined;
    }
    const value = lookup(index, r.request.key);
    if (value === null) return undefined;
    return new URL(fileOf(value, routePath(r.route, r.request.params as Record<string, string>)), url);
  };
}
