/**
 * nginx as the file server of a release (`fds build --target nginx`): `nginx.conf`, written into the
 * release, is a configuration to `include` in nginx's `http {}` that answers a request from one of
 * the release's files when it can tell for certain that the file holds that very request's answer,
 * and sends every other request, target unchanged, to an origin running `fds serve`
 * (docs/deploying.md, "nginx in front of fds serve").
 *
 * THE SCHEME. A chain of maps, each worked out only when a request needs it, and one server:
 *   gate:      $fds_request is the raw request target ($request_uri) of an unconditional GET or
 *              HEAD without a letter A–Z in it; empty for any other request;
 *   spellings: $fds_request → an answer's number, by exact strings only (no regex, no prefix);
 *   answers:   the number → the answer's record: its header set, its file, and the values of its own
 *              headers (the ETag, the cache tags, Netlify-Vary), which small regex maps cut out;
 *   server:    a request with an answer is rewritten to `/.fds/<set>/<file>`, an `internal` location
 *              per header set that serves the file from the release with the set's headers and the
 *              record's; every other request is `proxy_pass`ed to the origin as `$request_uri`.
 *
 * WHY IT IS SOUND. A request gets a file only when its raw target is, byte for byte, a spelling
 * listed for that file. A spelling is listed only when the render core resolves it (app/resolve.ts)
 * to a request key the manifest gives the file: the test `fds serve` applies before it answers from a
 * file (server/static-lookup.ts), so the file holds that spelling's answer. The candidates are the
 * manifest's requests and aliases with their query's pairs in every subset and order; one that
 * means something else resolves to another key and is left out (the scoreboard without `dates`,
 * which means today, not the snapshot's day). nginx compares a map's strings case-insensitively (it
 * lower-cases both sides), so the gate lets through no target with a capital letter and no spelling
 * with one is listed: between strings without capitals the comparison is exact. Every other request
 * — a repeated key (nginx's `$arg_` reads the first value, the API the last), an unknown, bare or
 * empty parameter, a percent-encoding, a trailing slash, capitals, another method — matches no
 * listed spelling and reaches the origin, which answers every request rightly. So soundness never
 * depends on which spellings are listed: leaving one out only sends it to the origin (a match or
 * club id with a capital letter is always the origin's).
 *
 * HEADERS. A file's answer carries what `fds serve` sends with it: the manifest's Content-Type,
 * Cache-Control and CORS (server/release-index.ts), what the render core tells shared caches of the
 * same answer (api/cache-tags.ts `sharedCacheHeaders`: lifetimes, Netlify-Vary, tags), the
 * manifest's ETag, and what the server's transport adds (server/transport.ts: `Vary` on a body it
 * would compress, which nginx then gzips for a client that asks). nginx's own validators are off.
 * Conditional requests (If-None-Match, If-Match, If-Unmodified-Since) are the origin's: nginx's
 * not-modified filter runs before `add_header` gives the ETag, so it never sees ours and would answer
 * If-Match with a 412 where the server ignores it; and the 304 nginx can make itself (`return 304`)
 * carries `Content-Length: 0`, which RFC 9110 forbids on a 304, and a Content-Type. The origin's 304
 * costs it a lookup and no body. If-Modified-Since is ignored, as by the server; so are ranges
 * (`max_ranges 0`).
 *
 * ROOT. Files are served from the release directory by its real path, not through the `dist` link:
 * the maps name this release's files and ETags, and `dist` may point at the next release while nginx
 * still runs this configuration — one release's headers on another's bytes. Include the file through
 * `dist` and run `nginx -s reload` after each publish: until then nginx serves the previous release
 * whole, and a file pruned meanwhile (`fds build --keep`) is the origin's (`error_page`).
 *
 * The front door's assets (`/_fd/…`) go to the origin as well: `fds serve` answers them by
 * serve-handler, with its content-hash ETags and the types it looks up, which nginx would not give.
 */
import fs from 'node:fs';
import path from 'node:path';
import { routeSharedHeaders } from '../api/cache-tags.js';
import type { ApiResponse } from '../api/respond.js';
import type { ResolvedRequest } from '../app/resolve.js';
import { resolve } from '../app/resolve.js';
import { MANIFEST_FILE } from '../release/layout.js';
import type { ManifestEntry } from '../release/manifest.js';
import { compressibleSize } from '../server/compress.js';
import { manifestHeaders } from '../server/release-index.js';
import { fileHeaders } from '../server/static-lookup.js';
import { encode } from '../server/transport.js';
import { LineWriter, linesSync } from '../util/lines.js';

/** The configuration's name in the release. */
export const NGINX_FILE = 'nginx.conf';

export interface NginxOptions {
  /** Where every request without a file goes: the URL of `fds serve` (`nginxOrigin` says which are taken). */
  origin: string;
  /** What the server block listens on, as nginx's `listen` takes it (default 80). */
  listen?: string;
}

export interface NginxConfig {
  file: string;
  /** Exact request targets nginx answers from a file. */
  spellings: number;
  /** What they are answered with: a file for one route's request, with its headers. */
  answers: number;
  bytes: number;
}

type Headers = Record<string, string>;

/** The internal locations' prefix: no API path and no release path starts with it. */
const FILE_PREFIX = '/.fds/';
const ORIGIN_LOCATION = '@fds_origin';
/** More pairs than this are not put in every order (n pairs make Σ n!/(n−k)! candidates). */
const MAX_ORDERED_PAIRS = 4;
/** What a quoted nginx string can hold: printable ASCII without `$`, which nothing escapes from being a variable. */
const plain = (s: string) => /^[\x20-\x7e]*$/.test(s) && !s.includes('$');
/** A plain string as it goes between quotes: nginx's parser takes `\"` and `\\` for `"` and `\`. */
const escaped = (s: string) => s.replace(/["\\]/g, '\\$&');
const quoted = (s: string) => `"${escaped(s)}"`;
/** A spelling nginx compares exactly: no capitals (see WHY IT IS SOUND) and no space. */
const exactKey = (s: string) => s.startsWith('/') && plain(s) && !/[A-Z ]/.test(s);
/** A file the internal locations can name: segments of URL-safe characters under the release. */
const safeFile = (f: string) => /^[A-Za-z0-9_~,-][A-Za-z0-9._~,/-]*$/.test(f) && !/(^|\/)\.\.?(\/|$)/.test(f);

/** How nginx reaches the origin: `proxy_pass <scheme>://fds_origin<prefix>$request_uri`. */
export interface NginxOrigin {
  scheme: 'http' | 'https';
  /** The upstream's server, `host:port`. */
  server: string;
  /** What the origin is asked for as Host: the URL's host, as a client of it would send. */
  host: string;
  /** The name TLS asks the origin for (https). */
  name: string;
  /** The URL's path, before every request's own. */
  prefix: string;
}

/** The origin of an http(s) URL without query, fragment or credentials; throws for any other. */
export function nginxOrigin(origin: string): NginxOrigin {
  const url = URL.canParse(origin) ? new URL(origin) : null;
  const scheme = url?.protocol === 'http:' ? 'http' : url?.protocol === 'https:' ? 'https' : null;
  const prefix = url?.pathname.replace(/\/+$/, '') ?? '';
  if (!url || !scheme || url.search || url.hash || url.username || url.password || !plain(prefix + url.host)) {
    throw new Error(`the origin must be an http(s) URL without query or credentials, got ${JSON.stringify(origin)}`);
  }
  const port = url.port || (scheme === 'https' ? '443' : '80');
  return { scheme, server: `${url.hostname}:${port}`, host: url.host, name: url.hostname, prefix };
}

/** Write `nginx.conf` for the finished release `release` (see the top of this file). */
export function writeNginxConfig(release: string, opts: NginxOptions): NginxConfig {
  const origin = nginxOrigin(opts.origin);
  const root = fs.realpathSync(release);
  if (!plain(root)) throw new Error(`nginx cannot name the release directory ${JSON.stringify(root)}`);
  const file = path.join(root, NGINX_FILE);
  const maps = { spellings: `${file}.spellings.tmp`, answers: `${file}.answers.tmp` };
  const collected = collect(root, maps);
  const out = new LineWriter(`${file}.tmp`);
  out.write(configText(root, origin, opts.listen ?? '80', collected));
  appendMap(out, '$fds_request $fds_answer', maps.spellings);
  appendMap(out, '$fds_answer $fds_record', maps.answers);
  out.close();
  for (const tmp of Object.values(maps)) fs.rmSync(tmp);
  // Renamed into place: a reload never reads half a file.
  fs.renameSync(`${file}.tmp`, file);
  return { file, spellings: collected.spellings, answers: collected.answers, bytes: out.bytes };
}

/** One header set: an internal location serves every file that has it. */
interface HeaderSet {
  id: number;
  contentType: string;
  /** Sent as they are (Content-Type aside, which is the location's type). */
  headers: Headers;
  /** Whether the server would compress the body for a client that asks. */
  compress: boolean;
}

interface Collected {
  sets: HeaderSet[];
  /** The names of the headers each record holds a value of, in its field order. */
  own: string[];
  spellings: number;
  answers: number;
  /** The longest map key, for nginx's hash sizes. */
  longest: number;
}

/** Read the manifest, writing the spellings and answers maps' entries as it goes. */
function collect(root: string, maps: { spellings: string; answers: string }): Collected {
  const spellings = new LineWriter(maps.spellings);
  const answers = new LineWriter(maps.answers);
  const parts = new Parts();
  const seen = new Set<string>();
  const got: Collected = { sets: parts.sets, own: parts.own, spellings: 0, answers: 0, longest: 0 };
  for (const line of linesSync(path.join(root, MANIFEST_FILE))) {
    if (!line) continue;
    const entry = JSON.parse(line) as ManifestEntry;
    if (entry.status !== 200 || !safeFile(entry.file)) continue;
    for (const url of [entry.request, ...entry.aliases]) {
      const request = resolvedKey(url);
      // A key listed twice would make a spelling twice, which nginx refuses in a map.
      if (!request || !entry.keys.includes(request.key!) || seen.has(request.key!)) continue;
      const record = parts.record(entry, request);
      if (record === null) continue;
      seen.add(request.key!);
      const id = String(got.answers++);
      answers.write(`    ${id} ${record};\n`);
      for (const spelling of spellingsOf(url, request.key!)) {
        spellings.write(`    ${quoted(spelling)} ${id};\n`);
        got.spellings++;
        got.longest = Math.max(got.longest, spelling.length);
      }
    }
  }
  spellings.close();
  answers.close();
  return got;
}

/** A URL's resolution when it has a request key (one a file can answer), else null. */
function resolvedKey(url: string): ResolvedRequest | null {
  const q = url.indexOf('?');
  const r = q === -1 ? resolve(url, '') : resolve(url.slice(0, q), url.slice(q + 1));
  return r.kind === 'resolved' && r.request.key !== null ? r.request : null;
}

/** The spellings of `url` nginx can compare exactly that mean request `key`. */
function* spellingsOf(url: string, key: string): Generator<string> {
  const q = url.indexOf('?');
  const base = q === -1 ? url : url.slice(0, q);
  const pairs = q === -1 ? [] : url.slice(q + 1).split('&');
  const candidates = pairs.length > MAX_ORDERED_PAIRS ? [pairs] : [...arrangements(pairs)];
  const listed = new Set<string>();
  for (const order of candidates) {
    const spelling = order.length ? `${base}?${order.join('&')}` : base;
    if (listed.has(spelling) || !exactKey(spelling) || resolvedKey(spelling)?.key !== key) continue;
    listed.add(spelling);
    yield spelling;
  }
}

/** Every sequence of distinct items (by position) of `items`, the empty one included. */
function* arrangements<T>(items: readonly T[]): Generator<T[]> {
  yield [];
  for (let i = 0; i < items.length; i++) {
    const rest = items.filter((_, j) => j !== i);
    for (const tail of arrangements(rest)) yield [items[i]!, ...tail];
  }
}

/**
 * Parts each answer's headers into its header set (what every file of its route and class shares:
 * the manifest's, the shared caches' lifetimes, the transport's) and its own (the rest), and makes
 * its record: `<set>\t<file>\t<own values…>` in nginx's spelling of a tab.
 */
class Parts {
  readonly sets: HeaderSet[] = [];
  readonly own: string[] = [];
  private readonly setIds = new Map<string, HeaderSet>();
  private readonly transport = new Map<string, Headers>();

  /** Null when a value cannot go into the configuration as it is: the request is the origin's. */
  record(entry: ManifestEntry, request: ResolvedRequest): string | null {
    const { route } = request;
    const base = manifestHeaders(entry.contentType, entry.cacheControl);
    const transport = this.transportHeaders(entry.contentType, entry.bytes);
    const shared = new Set([
      ...Object.keys(base),
      ...Object.keys(routeSharedHeaders(route, entry.cacheControl)),
      ...Object.keys(transport),
    ]);
    const setHeaders: Headers = {};
    const values: string[] = this.own.map(() => '');
    for (const [name, value] of Object.entries({ ...answerHeaders(entry, request), ...transport })) {
      if (!plain(value)) return null;
      if (shared.has(name)) setHeaders[name] = value;
      else values[this.ownField(name)] = value;
    }
    const set = this.setOf(setHeaders, compressibleSize(entry.bytes, entry.contentType));
    // nginx reads the `\t` between the fields as a tab.
    return `"${[String(set.id), entry.file, ...values].map(escaped).join('\\t')}"`;
  }

  private ownField(name: string): number {
    const at = this.own.indexOf(name);
    return at === -1 ? this.own.push(name) - 1 : at;
  }

  private setOf(headers: Headers, compress: boolean): HeaderSet {
    const key = JSON.stringify([headers, compress]);
    let set = this.setIds.get(key);
    if (!set) {
      const { 'Content-Type': contentType, ...sent } = headers;
      set = { id: this.sets.length, contentType: contentType!, headers: sent, compress };
      this.sets.push(set);
      this.setIds.set(key, set);
    }
    return set;
  }

  /**
   * What the server's transport adds to a file's answer it sends as it is (server/transport.ts
   * `encode`) — `Vary` on a body it would compress for a client that asks — but the length, which is
   * nginx's to send. Asked of the transport itself, once per type and compressibility.
   */
  private transportHeaders(contentType: string, bytes: number): Headers {
    const key = `${compressibleSize(bytes, contentType)}\n${contentType}`;
    let added = this.transport.get(key);
    if (!added) {
      const probe: ApiResponse = {
        status: 200,
        headers: { 'Content-Type': contentType },
        body: Buffer.alloc(bytes),
        sendBody: true,
      };
      encode(probe, undefined);
      const { 'Content-Type': _type, 'Content-Length': _length, ...rest } = probe.headers;
      added = rest;
      this.transport.set(key, added);
    }
    return added;
  }
}

/**
 * What `fds serve` sends with a file for this request before its transport: the headers of its
 * manifest line and its route's (server/static-lookup.ts `fileHeaders`), then the ETag (api/respond.ts).
 */
function answerHeaders(entry: ManifestEntry, request: ResolvedRequest): Headers {
  const base = manifestHeaders(entry.contentType, entry.cacheControl);
  return { ...fileHeaders(base, { kind: 'resolved', route: request.route, request }), ETag: entry.etag };
}

/** The nginx variable holding an own header's value. */
const variableOf = (header: string) => `$fds_h_${header.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;

/** A regex map cutting field `n` out of `$fds_record` (fields are tab-separated). */
const fieldMap = (n: number, variable: string) =>
  `map $fds_record ${variable} { "~^(?:[^\\t]*\\t){${n}}([^\\t]*)" $1; }\n`;

/** Everything but the two large maps, which follow it. */
function configText(root: string, origin: NginxOrigin, listen: string, got: Collected): string {
  const proxy = `proxy_pass ${origin.scheme}://fds_origin${origin.prefix}$request_uri;`;
  return [
    '# Generated by `fds build --target nginx` for this release: include it in nginx’s http {} and run',
    '# `nginx -s reload` after each publish. Requests nginx can answer exactly get their file; every other',
    '# request goes to the origin (see src/nginx/config.ts for why this is sound, docs/deploying.md for use).',
    '',
    ...hashSizes(got),
    `upstream fds_origin { server ${origin.server}; keepalive 16; }`,
    '',
    '# The raw target of an unconditional GET or HEAD nginx may answer from a file; empty for any other.',
    'map "$request_method\\t$http_if_none_match$http_if_match$http_if_unmodified_since\\t$request_uri" $fds_request {',
    '    "~^(?:GET|HEAD)\\t\\t(/[^A-Z]*)$" $1;',
    '}',
    '# An answer’s record: its header set, its file, then its own headers’ values.',
    fieldMap(0, '$fds_set') + fieldMap(1, '$fds_file') + got.own.map((h, i) => fieldMap(i + 2, variableOf(h))).join(''),
    '',
    'server {',
    `    listen ${listen};`,
    `    if ($fds_file) { rewrite ^ ${FILE_PREFIX}$fds_set/$fds_file? last; }`,
    '    proxy_http_version 1.1;',
    '    proxy_set_header Connection "";',
    `    proxy_set_header Host ${quoted(origin.host)};`,
    '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    ...(origin.scheme === 'https'
      ? ['    proxy_ssl_server_name on;', `    proxy_ssl_name ${quoted(origin.name)};`]
      : []),
    `    location / { ${proxy} }`,
    `    location ${ORIGIN_LOCATION} { ${proxy} }`,
    ...got.sets.flatMap((set) => setLocation(set, root, got.own)),
    '}',
    '',
  ].join('\n');
}

/**
 * nginx builds a map's hash at the end of its block, with the sizes set before it; it tries the
 * last thousand sizes up to the maximum, so room for twice the keys and buckets of eight of the
 * longest keep each lookup to a few comparisons.
 */
function hashSizes(got: Collected): string[] {
  const keys = Math.max(got.spellings, got.answers);
  const element = 8 + Math.ceil((got.longest + 2) / 8) * 8;
  return [
    `map_hash_max_size ${Math.max(2048, 2 * keys)};`,
    `map_hash_bucket_size ${Math.ceil((8 * element + 8) / 64) * 64};`,
    '',
  ];
}

/** The internal location serving the files of one header set, with the answer's own headers. */
function setLocation(set: HeaderSet, root: string, own: readonly string[]): string[] {
  const compression = set.compress
    ? ['gzip on;', 'gzip_types *;', 'gzip_min_length 0;', 'gzip_proxied any;', 'gzip_vary off;']
    : ['gzip off;'];
  return [
    `    location ^~ ${FILE_PREFIX}${set.id}/ {`,
    ...[
      'internal;',
      `alias ${quoted(`${root}/`)};`,
      'types { }',
      `default_type ${quoted(set.contentType)};`,
      // Whatever the including http {} says: nothing may change what the server would send.
      'charset off;',
      'etag off;',
      'if_modified_since off;',
      'max_ranges 0;',
      'expires off;',
      ...compression,
      // A file gone (its release pruned before the reload), unreadable, or asked for directly.
      `error_page 403 404 = ${ORIGIN_LOCATION};`,
      'add_header Last-Modified "";',
      ...Object.entries(set.headers).map(([name, value]) => `add_header ${name} ${quoted(value)};`),
      ...own.map((name) => `add_header ${name} ${variableOf(name)};`),
    ].map((line) => `        ${line}`),
    '    }',
  ];
}

/** A map block whose entries were written to `entries`, appended to `out`. */
function appendMap(out: LineWriter, head: string, entries: string): void {
  out.write(`map ${head} {\n`);
  for (const line of linesSync(entries)) out.write(`${line}\n`);
  out.write('}\n');
}
