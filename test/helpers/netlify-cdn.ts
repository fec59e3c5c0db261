/**
 * A built release answered the way Netlify answers it, through Netlify's own engines rather than
 * ours: the rules by @netlify/redirects (the engine of `netlify dev`, over netlify-redirector), the
 * headers of a static file by @netlify/headers over the release's `_headers`, and, when the release
 * has one, its edge router first (the generated module itself, on the paths it declares; its
 * rewrite goes through the rules again, as `netlify dev` does).
 *
 * What comes out: a static file under the release with its headers; "function" for whatever the
 * rules hand to the fallback (the Netlify Function, or an origin they proxy to); a page (the front
 * door's assets, served as they are); or not found — a rule whose target is missing is a 404, never
 * a fall-through.
 *
 * The one thing modelled rather than run: a static file's ETag. Netlify makes its own for every
 * file of a deploy (a strong hash of the bytes) and answers `If-None-Match` with it; `_headers` does
 * not name one (publish/rules/header-plan.ts). The model uses the render core's hash of the bytes,
 * so the contract's "same bytes, same ETag" holds here by construction — on Netlify the value is
 * Netlify's (docs/publishing.md, "ETags on Netlify").
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HeadersHandler } from '@netlify/headers';
import { RedirectsHandler } from '@netlify/redirects';
import type { ApiResponse } from '../../src/api/respond.js';
import { finishResponse } from '../../src/api/respond.js';
import { etagOf } from '../../src/api/etag.js';
import { ASSET_DIR } from '../../src/frontdoor/paths.js';
import { EDGE_FILE } from '../../src/netlify/edge/bundle.js';

export const ORIGIN = 'https://fds.test';

export type NetlifyAnswer =
  | { kind: 'file'; file: string; via: 'rules' | 'edge'; response: ApiResponse }
  /** A file of the release outside the API (the front door's assets), served as it is. */
  | { kind: 'page'; file: string }
  /** The fallback: `to` is where the rules send it (the function, or an origin URL), `url` what was asked. */
  | { kind: 'function'; to: string; url: URL }
  /**
   * The rule engine cannot read the request (its path has a broken percent-escape, which
   * @netlify/redirects fails to decode): no rule and no file answers it.
   */
  | { kind: 'rejected'; reason: string }
  | { kind: 'not-found'; reason: string };

interface EdgeModule {
  default: (request: Request, context: object) => Promise<URL | Response | undefined>;
  config: { path: string[] };
}

const silent = { error: () => {}, log: () => {}, warn: () => {} };

/** The edge function's `config.path` patterns, as the build writes them: exact paths and `/prefix/*`. */
const declares = (paths: readonly string[], pathname: string) =>
  paths.some((p) => (p.endsWith('/*') ? pathname.startsWith(p.slice(0, -1)) : pathname === p));

/** A Web Request for a raw path and query, or null when no platform would hand such a URL over. */
export function webRequest(
  method: string,
  rawPath: string,
  rawQuery = '',
  headers: Record<string, string> = {},
): Request | null {
  try {
    return new Request(`${ORIGIN}${rawPath}${rawQuery ? `?${rawQuery}` : ''}`, { method, headers });
  } catch {
    return null;
  }
}

export class NetlifyCdn {
  private readonly headerCache = new Map<string, Record<string, string>>();

  private constructor(
    readonly release: string,
    private readonly redirects: RedirectsHandler,
    private readonly headers: HeadersHandler,
    readonly edge: EdgeModule | null,
  ) {}

  static async open(release: string): Promise<NetlifyCdn> {
    const redirects = new RedirectsHandler({
      projectDir: release,
      publicDir: release,
      configRedirects: [],
      jwtRoleClaim: '',
      jwtSecret: '',
    });
    const headers = new HeadersHandler({ projectDir: release, publishDir: '.', logger: silent });
    const router = path.join(release, EDGE_FILE);
    const edge = fs.existsSync(router) ? ((await import(pathToFileURL(router).href)) as EdgeModule) : null;
    return new NetlifyCdn(release, redirects, headers, edge);
  }

  /** The headers `_headers` gives a path, by @netlify/headers. */
  async headersFor(urlPath: string): Promise<Record<string, string>> {
    let found = this.headerCache.get(urlPath);
    if (!found) {
      found = await this.headers.apply(new Request(new URL(urlPath, ORIGIN)));
      this.headerCache.set(urlPath, found);
    }
    return found;
  }

  /** Through the rules alone (a release without an edge router, or what the router passes on). */
  async rules(request: Request, via: 'rules' | 'edge' = 'rules'): Promise<NetlifyAnswer> {
    const url = new URL(request.url);
    let match: Awaited<ReturnType<RedirectsHandler['match']>>;
    try {
      match = await this.redirects.match(request);
    } catch (err) {
      // The engine decodes the path first: a broken escape there never reaches a rule or a file.
      return { kind: 'rejected', reason: `the rule engine rejects the path: ${(err as Error).message}` };
    }
    if (!match) return { kind: 'not-found', reason: 'no rule matches' };
    if (match.statusCode !== 200) return { kind: 'not-found', reason: `a rule answers ${match.statusCode}` };
    const target = match.target;
    if (match.external) return { kind: 'function', to: target.href, url };
    if (target.pathname.startsWith('/.netlify/functions/')) return { kind: 'function', to: target.pathname, url };
    // Only reading is served from files; a CDN hands other methods to the origin.
    if (request.method !== 'GET' && request.method !== 'HEAD') return { kind: 'function', to: target.pathname, url };
    const file = decodeURIComponent(target.pathname).slice(1);
    const onDisk = path.join(this.release, file);
    if (
      !path.resolve(onDisk).startsWith(path.resolve(this.release)) ||
      !fs.statSync(onDisk, { throwIfNoEntry: false })?.isFile()
    )
      return { kind: 'not-found', reason: `rule target /${file} is missing (a 404, never a fall-through)` };
    if (file.startsWith(`${ASSET_DIR}/`)) return { kind: 'page', file };
    const body = fs.readFileSync(onDisk);
    const given = await this.headersFor(`/${file}`);
    const reqHeaders = Object.fromEntries([...request.headers].map(([k, v]) => [k.toLowerCase(), v]));
    // Netlify's own ETag, modelled by the hash of the bytes (see above).
    const response = finishResponse(
      { method: request.method, headers: reqHeaders },
      200,
      { ...given },
      body,
      etagOf(body),
    );
    return { kind: 'file', file, via, response };
  }

  /** As Netlify serves it: the edge router first (when the release has one), then the rules. */
  async serve(request: Request): Promise<NetlifyAnswer> {
    const url = new URL(request.url);
    if (!this.edge || !declares(this.edge.config.path, url.pathname)) return this.rules(request);
    const out = await this.edge.default(request, {});
    if (out === undefined) return this.rules(request);
    if (!(out instanceof URL) || out.origin !== url.origin)
      throw new Error(`the edge router answered ${String(out)}, not a same-site rewrite`);
    return this.rules(new Request(out, request), 'edge');
  }
}
