/**
 * The headers of a release's files, planned by path pattern rather than file by file and written in
 * the target's dialect (Netlify's `_headers`, docs/publishing.md, "`_headers`"): one block gives every file under `/_s/` the type and CORS headers all of them
 * share; one block per route's file directory gives its files the Cache-Control of the route's cache
 * class; and only the files whose Cache-Control is not their route's usual one — a response holding
 * a live match (`public, max-age=4`) — get a block of their own, after the patterns. The file stays
 * a few kilobytes at any scale, where listing every file cost megabytes.
 *
 * What it leaves out: the ETag. Netlify makes its own strong ETag for every file it serves from a
 * deploy (a hash of the file's bytes) and answers `If-None-Match` with it; `_headers` does not name
 * one (see docs/publishing.md for what that means for a client).
 *
 * Overlap: a live file matches its route's pattern and its own block. Netlify's headers engine
 * (@netlify/headers, which the tests answer through) lets the later block's value win, so the
 * per-file blocks come last. No two pattern blocks set the same header for one file: each pattern
 * names one directory depth exactly (`:file` is one path segment).
 */
import type { AnyRoute, CacheClass } from '../../api/route.js';
import { routeSharedHeaders } from '../../api/cache-tags.js';
import { CACHE_POLICY, CORS, JSON_TYPE } from '../../api/headers.js';
import { ROUTES } from '../../app/routes.js';
import { STATIC_PREFIX, fileDir } from '../../release/file-name.js';
import type { RuleDialect } from './dialect.js';

/**
 * Headers a route's files carry on top of their Cache-Control, given the route and that
 * Cache-Control: by default the shared caches' lifetimes (api/cache-tags.ts `routeSharedHeaders`,
 * docs/json-api.md "Shared caches"). Only what a path pattern can say: what differs file by file (a
 * match's tag) would need a block per file.
 */
export type StaticHeadersHook = (route: AnyRoute, cacheControl: string) => Readonly<Record<string, string>>;

/** One pattern block: a Netlify path pattern, the route whose files it covers, their usual Cache-Control. */
export interface HeaderPattern {
  path: string;
  route: AnyRoute;
  cacheControl: string;
  /** The pattern as Netlify's headers engine reads it (@netlify/headers-parser `getForRegExp`). */
  regex: RegExp;
}

/** A route's usual Cache-Control: its cache class's value when the response holds no live match. */
export const usualCacheControl = (cache: CacheClass) => CACHE_POLICY[cache].value;

const escapeRegex = (s: string) => s.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&').replace(/-/g, '\\x2d');

/** A path pattern as a RegExp, as Netlify's headers engine builds it: `:x` is one segment, matched case-insensitively. */
function patternRegex(pattern: string): RegExp {
  const parts = pattern
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? '([^/]+)' : escapeRegex(part)));
  return new RegExp(`^/${parts.join('/')}/?$`, 'iu');
}

/**
 * One pattern per pre-rendering route's file directory (release/file-name.ts: the first four
 * segments of the request path, path parameters as placeholders), the file name as one segment.
 * Routes sharing a directory (a match's summary and its plays) share the first one's block; a file
 * of another route there whose Cache-Control differs would get a block of its own.
 */
export function headerPatterns(routes: readonly AnyRoute[] = ROUTES): HeaderPattern[] {
  const out: HeaderPattern[] = [];
  for (const route of routes) {
    if (!route.prerender || route.staticFile) continue;
    const path = `/${fileDir(route.path)}/:file`;
    if (out.some((p) => p.path === path)) continue;
    out.push({ path, route, cacheControl: usualCacheControl(route.cache), regex: patternRegex(path) });
  }
  return out;
}

const CACHE_KEY = '"cacheControl":"';
const FILE_KEY = '{"file":"';

/**
 * Collects, while a build streams its files, those whose Cache-Control is not their pattern's; then
 * writes `_headers`. Memory: one entry per such file (the live ones) and one per file directory.
 */
export class HeaderPlan {
  readonly patterns: readonly HeaderPattern[];
  /** Release-relative file → its Cache-Control, for the files their pattern does not give it. */
  private readonly exceptions = new Map<string, string>();
  /** A file directory → its pattern (null: none covers it), worked out once per directory. */
  private readonly byDir = new Map<string, HeaderPattern | null>();

  constructor(
    routes: readonly AnyRoute[] = ROUTES,
    private readonly extra: StaticHeadersHook = routeSharedHeaders,
  ) {
    this.patterns = headerPatterns(routes);
  }

  /** The pattern block that covers a release-relative file, if any. */
  patternOf(file: string): HeaderPattern | null {
    const dir = file.slice(0, file.lastIndexOf('/') + 1);
    let found = this.byDir.get(dir);
    if (found === undefined) {
      found = this.patterns.find((p) => p.regex.test(`/${file}`)) ?? null;
      this.byDir.set(dir, found);
    }
    return found;
  }

  /** A file under `_s/` and the Cache-Control its manifest line gives it. */
  file(file: string, cacheControl: string): void {
    if (!file.startsWith(`${STATIC_PREFIX}/`)) return;
    if (this.patternOf(file)?.cacheControl === cacheControl) this.exceptions.delete(file);
    else this.exceptions.set(file, cacheControl);
  }

  /** A file by its manifest line (release/manifest.ts), read without parsing the line. */
  manifestLine(line: string): void {
    const at = line.indexOf(CACHE_KEY);
    if (!line.startsWith(FILE_KEY) || at < 0) return;
    const file = line.slice(FILE_KEY.length, line.indexOf('"', FILE_KEY.length));
    const from = at + CACHE_KEY.length;
    this.file(file, line.slice(from, line.indexOf('"', from)));
  }

  /** Manifest lines as bytes (a segment carried over whole). */
  manifestLines(lines: Buffer): void {
    let start = 0;
    while (start < lines.length) {
      let end = lines.indexOf(10, start);
      if (end < 0) end = lines.length;
      if (end > start) this.manifestLine(lines.toString('utf8', start, end));
      start = end + 1;
    }
  }

  /** Files with a block of their own. */
  get exceptionCount(): number {
    return this.exceptions.size;
  }

  /**
   * The text of `_headers`: the blocks every file shares, `before` (the front door's), the patterns,
   * then the files that differ from their pattern, in file order (the same store gives the same text).
   */
  text(before: readonly string[], block: RuleDialect['block']): string {
    let out = block(`/${STATIC_PREFIX}/*`, { 'Content-Type': JSON_TYPE, ...CORS });
    for (const b of before) out += b;
    for (const p of this.patterns) {
      out += block(p.path, { 'Cache-Control': p.cacheControl, ...this.extra(p.route, p.cacheControl) });
    }
    for (const file of [...this.exceptions.keys()].sort()) {
      const cacheControl = this.exceptions.get(file)!;
      const route = this.patternOf(file)?.route;
      out += block(`/${file}`, { 'Cache-Control': cacheControl, ...(route ? this.extra(route, cacheControl) : {}) });
    }
    return out;
  }
}
