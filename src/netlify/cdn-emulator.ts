/**
 * The published tree as the CDN would serve it: Netlify's rule engine decides where a request goes
 * (netlify-matcher.ts); a file is served with the headers `_headers` gives its path, answering
 * conditional GETs on its ETag; everything else is the fallback's. A release built with the edge
 * router (edge.ts) runs its function first, as `netlify dev` does: on the paths the function
 * declares, a rewrite it returns goes through the rules, as anything it passes on does. Used by
 * `fds check` and by the tests that hold the built tree to the API contract.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ApiResponse } from '../api/respond.js';
import { finishResponse } from '../api/respond.js';
import { ASSET_DIR } from '../frontdoor/paths.js';
import { linesSync } from '../util/lines.js';
import { EDGE_FILE } from './edge/bundle.js';
import { loadMatcher } from './matcher.js';
import type { NetlifyMatcher } from './matcher.js';

export type CdnResponse = ApiResponse;

/** A request as the one answering it sees it: raw path (percent-encoded) and raw query. */
export interface Asked {
  path: string;
  query: string;
}

export type CdnAnswer =
  | { kind: 'file'; file: string; response: CdnResponse; via: 'rules' | 'edge'; asked: Asked }
  /** A file of the release outside the API (the front door and its assets): not the API's to judge. */
  | { kind: 'page'; file: string }
  | { kind: 'fallback'; asked: Asked }
  | { kind: 'broken'; reason: string };

interface EdgeFunction {
  handler: (request: Request, context: object) => Promise<Response | URL | undefined>;
  paths: string[];
}

/** The edge function's `config.path` patterns, as the build writes them: exact paths and `/prefix/*`. */
const declares = (paths: readonly string[], pathname: string) =>
  paths.some((p) => (p.endsWith('/*') ? pathname.startsWith(p.slice(0, -1)) : pathname === p));

type HeaderRules = { exact: Map<string, Array<[string, string]>>; prefixes: Array<[string, Array<[string, string]>]> };

/** Netlify's `_headers`: a path (or `/prefix/*`) line, then indented `Name: value` lines. */
export function parseHeaders(file: string): HeaderRules {
  const rules: HeaderRules = { exact: new Map(), prefixes: [] };
  let current: Array<[string, string]> | null = null;
  for (const line of linesSync(file)) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = [];
      const p = line.trim();
      if (p.endsWith('/*')) rules.prefixes.push([p.slice(0, -1), current]);
      else rules.exact.set(p, current);
      continue;
    }
    const colon = line.indexOf(':');
    if (current && colon > 0) current.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

export function headersFor(rules: HeaderRules, urlPath: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [prefix, hs] of rules.prefixes) if (urlPath.startsWith(prefix)) for (const [k, v] of hs) out[k] = v;
  for (const [k, v] of rules.exact.get(urlPath) ?? []) out[k] = v;
  return out;
}

export class CdnEmulator {
  private constructor(
    readonly release: string,
    private readonly matcher: NetlifyMatcher,
    private readonly headerRules: HeaderRules,
    readonly edge: EdgeFunction | null,
  ) {}

  static async open(release: string): Promise<CdnEmulator> {
    const matcher = await loadMatcher(path.join(release, '_redirects'));
    const router = path.join(release, EDGE_FILE);
    let edge: EdgeFunction | null = null;
    if (fs.existsSync(router)) {
      const mod = (await import(pathToFileURL(router).href)) as {
        default: EdgeFunction['handler'];
        config: { path: string[] };
      };
      edge = { handler: mod.default, paths: mod.config.path };
    }
    return new CdnEmulator(release, matcher, parseHeaders(path.join(release, '_headers')), edge);
  }

  /** Through the rules alone (what a release without an edge function gets). */
  answer(method: string, rawPath: string, rawQuery: string, reqHeaders: Record<string, string> = {}): CdnAnswer {
    const asked = { path: rawPath, query: rawQuery };
    const where = this.matcher.resolve(rawPath, rawQuery);
    if (where.kind === 'fallback' && where.status === 200) return { kind: 'fallback', asked };
    if (where.kind !== 'file')
      return {
        kind: 'broken',
        reason: `rules send it to ${where.kind === 'none' ? 'no rule' : `${where.to} (${where.status})`}`,
      };
    if (where.status !== 200) return { kind: 'broken', reason: `rules answer ${where.status} for file ${where.file}` };
    // Only reading and preflight are served from files; a CDN hands other methods to the origin.
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'fallback', asked };
    let body: Buffer;
    try {
      body = fs.readFileSync(path.join(this.release, where.file));
    } catch {
      return { kind: 'broken', reason: `rule target ${where.file} is missing (a 404, never a fall-through)` };
    }
    // The front door's assets are served as they are; every other file (`_s/`, `index.html`) is a
    // pre-rendered response with its headers in `_headers`.
    if (where.file.startsWith(`${ASSET_DIR}/`)) return { kind: 'page', file: where.file };
    const headers = headersFor(this.headerRules, `/${where.file}`);
    const { ETag: etag, ...rest } = headers;
    // Every file a rule reaches gets its ETag in `_headers`; without one the CDN's answer would differ.
    if (!etag) return { kind: 'broken', reason: `_headers gives ${where.file} no ETag` };
    // A CDN reads request headers by name whatever their case, as HTTP has them.
    const names = Object.fromEntries(Object.entries(reqHeaders).map(([k, v]) => [k.toLowerCase(), v]));
    const response = finishResponse({ method, headers: names }, 200, rest, body, etag);
    return { kind: 'file', file: where.file, response, via: 'rules', asked };
  }

  /**
   * Only the edge function: the path it rewrites the request to, or null when it passes the request
   * on (or there is none). Fast where the rules are not: netlify-redirector tries its rules in turn.
   */
  async rewrite(method: string, rawPath: string, rawQuery: string): Promise<string | null> {
    if (!this.edge) return null;
    const request = new Request(`https://fds.test${rawPath}${rawQuery ? `?${rawQuery}` : ''}`, { method });
    if (!declares(this.edge.paths, new URL(request.url).pathname)) return null;
    const out = await this.edge.handler(request, {});
    return out instanceof URL ? out.pathname : null;
  }

  /** Through the edge function, when the release has one, then the rules. */
  async serve(
    method: string,
    rawPath: string,
    rawQuery: string,
    reqHeaders: Record<string, string> = {},
  ): Promise<CdnAnswer> {
    if (!this.edge) return this.answer(method, rawPath, rawQuery, reqHeaders);
    let request: Request;
    try {
      request = new Request(`https://fds.test${rawPath}${rawQuery ? `?${rawQuery}` : ''}`, {
        method,
        headers: reqHeaders,
      });
    } catch (err) {
      return { kind: 'broken', reason: `not a request the platform would accept: ${(err as Error).message}` };
    }
    // The platform hands the function, and whatever comes after it, the parsed URL.
    const url = new URL(request.url);
    const asked = { path: url.pathname, query: url.search.slice(1) };
    if (!declares(this.edge.paths, url.pathname)) return this.answer(method, rawPath, rawQuery, reqHeaders);
    const out = await this.edge.handler(request, {});
    if (out === undefined) return this.answer(method, asked.path, asked.query, reqHeaders);
    if (!(out instanceof URL) || out.origin !== url.origin)
      return { kind: 'broken', reason: `the edge function answered ${String(out)}, not a same-site rewrite` };
    const rewritten = this.answer(method, out.pathname, out.search.slice(1), reqHeaders);
    return rewritten.kind === 'file' ? { ...rewritten, via: 'edge', asked } : rewritten;
  }
}
