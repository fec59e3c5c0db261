/**
 * Where the CDN sends a request for `fds check`, worked out by Netlify's own engines over the
 * release: its edge router first, when the release has one (the generated module itself, on the
 * paths it declares, as `netlify dev` runs it), then the rules through netlify-redirector (the rule
 * engine Netlify's CLI uses, netlify/matcher.ts); a file it lands on gets the headers `_headers`
 * gives its path, as Netlify's headers parser reads them (@netlify/headers-parser; a later block's
 * value replaces an earlier one's, as @netlify/headers applies them). The ETag of a file is
 * Netlify's own (a hash of its bytes), so a file answers with the body the check compares.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAllHeaders } from '@netlify/headers-parser';
import { ASSET_DIR } from '../frontdoor/paths.js';
import { EDGE_FILE } from '../netlify/edge/bundle.js';
import { loadMatcher } from '../netlify/matcher.js';
import type { NetlifyMatcher } from '../netlify/matcher.js';

/** A request as the one answering it sees it: raw path (percent-encoded) and raw query. */
export interface Asked {
  path: string;
  query: string;
}

export type CdnAnswer =
  | { kind: 'file'; file: string; headers: Record<string, string>; via: 'rules' | 'edge'; asked: Asked }
  /** A file of the release outside the API (the front door's assets): not the API's to judge. */
  | { kind: 'page'; file: string }
  | { kind: 'fallback'; asked: Asked }
  /** A hybrid build's origin, asked `to` (an absolute URL) in the request's place. */
  | { kind: 'origin'; to: string; asked: Asked }
  | { kind: 'broken'; reason: string };

interface EdgeFunction {
  handler: (request: Request, context: object) => Promise<Response | URL | undefined>;
  paths: string[];
}

/** The edge function's `config.path` patterns, as the build writes them: exact paths and `/prefix/*`. */
const declares = (paths: readonly string[], pathname: string) =>
  paths.some((p) => (p.endsWith('/*') ? pathname.startsWith(p.slice(0, -1)) : pathname === p));

interface HeaderRule {
  forRegExp: RegExp;
  values: Record<string, string>;
}

export class CdnView {
  private constructor(
    readonly release: string,
    private readonly matcher: NetlifyMatcher,
    private readonly headerRules: readonly HeaderRule[],
    readonly edge: EdgeFunction | null,
  ) {}

  static async open(release: string): Promise<CdnView> {
    const matcher = await loadMatcher(path.join(release, '_redirects'));
    const parsed = await parseAllHeaders({
      headersFiles: [path.join(release, '_headers')],
      configHeaders: [],
      minimal: false,
    });
    if (parsed.errors.length) throw new Error(`_headers: ${parsed.errors.map((e) => e.message).join('; ')}`);
    const router = path.join(release, EDGE_FILE);
    let edge: EdgeFunction | null = null;
    if (fs.existsSync(router)) {
      const mod = (await import(pathToFileURL(router).href)) as {
        default: EdgeFunction['handler'];
        config: { path: string[] };
      };
      edge = { handler: mod.default, paths: mod.config.path };
    }
    return new CdnView(release, matcher, parsed.headers as unknown as HeaderRule[], edge);
  }

  /** The headers `_headers` gives a path: every matching block, a later one's value winning. */
  headersFor(urlPath: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const rule of this.headerRules) if (rule.forRegExp.test(urlPath)) Object.assign(out, rule.values);
    return out;
  }

  /** Through the rules alone (what a release without an edge function gets). */
  answer(method: string, rawPath: string, rawQuery: string): CdnAnswer {
    const asked = { path: rawPath, query: rawQuery };
    const where = this.matcher.resolve(rawPath, rawQuery);
    if (where.kind === 'fallback' && where.status === 200) return { kind: 'fallback', asked };
    if (where.kind === 'origin' && where.status === 200) return { kind: 'origin', to: where.to, asked };
    if (where.kind !== 'file')
      return {
        kind: 'broken',
        reason: `rules send it to ${where.kind === 'none' ? 'no rule' : `${where.to} (${where.status})`}`,
      };
    if (where.status !== 200) return { kind: 'broken', reason: `rules answer ${where.status} for file ${where.file}` };
    // Only reading is served from files; a CDN hands other methods to the origin.
    if (method !== 'GET' && method !== 'HEAD') return { kind: 'fallback', asked };
    if (!fs.existsSync(path.join(this.release, where.file)))
      return { kind: 'broken', reason: `rule target ${where.file} is missing (a 404, never a fall-through)` };
    if (where.file.startsWith(`${ASSET_DIR}/`)) return { kind: 'page', file: where.file };
    return { kind: 'file', file: where.file, headers: this.headersFor(`/${where.file}`), via: 'rules', asked };
  }

  /** Only the edge function: the path it rewrites the request to, or null when it passes it on (or there is none). */
  async rewrite(method: string, rawPath: string, rawQuery: string): Promise<string | null> {
    if (!this.edge) return null;
    const request = new Request(`https://fds.test${rawPath}${rawQuery ? `?${rawQuery}` : ''}`, { method });
    if (!declares(this.edge.paths, new URL(request.url).pathname)) return null;
    const out = await this.edge.handler(request, {});
    return out instanceof URL ? out.pathname : null;
  }

  /** Through the edge function, when the release has one, then the rules. */
  async serve(method: string, rawPath: string, rawQuery: string): Promise<CdnAnswer> {
    if (!this.edge) return this.answer(method, rawPath, rawQuery);
    let request: Request;
    try {
      request = new Request(`https://fds.test${rawPath}${rawQuery ? `?${rawQuery}` : ''}`, { method });
    } catch (err) {
      return { kind: 'broken', reason: `not a request the platform would accept: ${(err as Error).message}` };
    }
    // The platform hands the function, and whatever comes after it, the parsed URL.
    const url = new URL(request.url);
    const asked = { path: url.pathname, query: url.search.slice(1) };
    if (!declares(this.edge.paths, url.pathname)) return this.answer(method, rawPath, rawQuery);
    const out = await this.edge.handler(request, {});
    if (out === undefined) return this.answer(method, asked.path, asked.query);
    if (!(out instanceof URL) || out.origin !== url.origin)
      return { kind: 'broken', reason: `the edge function answered ${String(out)}, not a same-site rewrite` };
    const rewritten = this.answer(method, out.pathname, out.search.slice(1));
    return rewritten.kind === 'file' ? { ...rewritten, via: 'edge', asked } : rewritten;
  }
}
