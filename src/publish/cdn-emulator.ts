/**
 * The published tree as the CDN would serve it: Netlify's rule engine decides where a request goes
 * (netlify-matcher.ts); a file is served with the headers `_headers` gives its path, answering
 * conditional GETs on its ETag; everything else is the fallback's. Used by `fds check` and by the
 * tests that hold the built tree to the API contract.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ApiResponse } from '../api/respond.js';
import { finishResponse } from '../api/respond.js';
import { linesSync } from '../util/lines.js';
import { loadMatcher } from './netlify-matcher.js';
import type { NetlifyMatcher } from './netlify-matcher.js';

export type CdnResponse = ApiResponse;

export type CdnAnswer =
  | { kind: 'file'; file: string; response: CdnResponse }
  | { kind: 'fallback' }
  | { kind: 'broken'; reason: string };

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
  ) {}

  static async open(release: string): Promise<CdnEmulator> {
    const matcher = await loadMatcher(path.join(release, '_redirects'));
    return new CdnEmulator(release, matcher, parseHeaders(path.join(release, '_headers')));
  }

  answer(method: string, rawPath: string, rawQuery: string, reqHeaders: Record<string, string> = {}): CdnAnswer {
    const where = this.matcher.resolve(rawPath, rawQuery);
    if (where.kind === 'fallback' && where.status === 200) return { kind: 'fallback' };
    if (where.kind !== 'file')
      return {
        kind: 'broken',
        reason: `rules send it to ${where.kind === 'none' ? 'no rule' : `${where.to} (${where.status})`}`,
      };
    if (where.status !== 200) return { kind: 'broken', reason: `rules answer ${where.status} for file ${where.file}` };
    // Only reading and preflight are served from files; a CDN hands other methods to the origin.
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'fallback' };
    let body: Buffer;
    try {
      body = fs.readFileSync(path.join(this.release, where.file));
    } catch {
      return { kind: 'broken', reason: `rule target ${where.file} is missing (a 404, never a fall-through)` };
    }
    const headers = headersFor(this.headerRules, `/${where.file}`);
    const { ETag: etag, ...rest } = headers;
    // Every file a rule reaches gets its ETag in `_headers`; without one the CDN's answer would differ.
    if (!etag) return { kind: 'broken', reason: `_headers gives ${where.file} no ETag` };
    const response = finishResponse({ method, headers: reqHeaders }, 200, rest, body, etag);
    return { kind: 'file', file: where.file, response };
  }
}
