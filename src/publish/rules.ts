/**
 * Netlify rewrite rules (`_redirects`) and headers (`_headers`), generated from the route table.
 *
 * THE SCHEME. Every rule is forced (`200!`), so no outcome depends on which files exist. Files live
 * under `/_s/`, away from every API path. Three kinds of rule:
 *   literal(P, C → F): exact path P, literal conditions C = {k: v} with tokens v ∈ [A-Za-z0-9._-]+,
 *                      rewriting to the file F pre-rendered for exactly that request;
 *   escape(route, S):  the route's path pattern (`/get/soccer/:league/fixtures`) with a placeholder
 *                      condition `k=:qk` for every k in S, a non-empty subset of the route's query
 *                      keys, rewriting to the fallback;
 *   catch-all:         `/*` to the fallback, last.
 * Order: for k from the largest |S| down to 1, [literals with |C| = k] then [escapes with |S| = k];
 * then the literals without conditions; then the catch-all.
 * Before all of them, outside the budget, the site's own files: the literal rules of files a route
 * places at the root (`/ /index.html 200!`, the front door) and of the static files served as they
 * are (`/_fd/frontdoor.js /_fd/frontdoor.js 200!`). Their paths belong to no route but their own and
 * take no query parameters, so they shadow nothing, and being first no catch-all takes them. Static
 * files get one rule each rather than a directory wildcard: any other path there is the fallback's
 * (a 404 in the API's shape), never a rewrite to a missing file.
 *
 * WHY IT IS SOUND under Netlify's matching (research/cdn-serving.md §1.2–1.3: conditions match as a
 * subset, extra parameters are ignored, a key's last `key=value` occurrence counts, bare keys never
 * match, keys are compared raw and values percent-decoded, first match wins, no fall-through).
 * Take a request at path p and let R be the set of its route's query keys it carries with `=`.
 * Suppose it is answered by literal(P, C → F). Then p is P (up to one trailing slash, which the
 * router also ignores) and C ⊆ R. If C ≠ R then |R| > |C| and escape(route, R) — which matches the
 * request, since every key of R is present and a placeholder matches any value, even an empty one —
 * comes earlier: contradiction. So C = R: for every route key the request carries, its last value
 * decodes to C's token, and every other route key is absent. The render core reads the query the
 * same way — the premise netlify-query.ts states and tests pin: the same keys are given, with the same
 * value wherever one is a token — and ignores unknown keys, so it sees exactly the request C, whose answer
 * F holds (plan.ts keeps a spelling only when it validates to the pre-rendered request's key).
 * Every request that meets no literal reaches the fallback, which is always right. Soundness never
 * depends on which literals the budget admits: leaving one out only sends its requests to the
 * fallback. Property tests resolve generated requests through netlify-redirector to check this.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { AnyRoute } from '../api/route.js';
import { CORS, JSON_TYPE } from '../api/headers.js';
import type { OutputFs } from '../util/lines.js';
import { LineWriter, linesSync } from '../util/lines.js';
import type { PlannedFile, RequestForm } from './plan.js';
import { STATIC_PREFIX } from './plan.js';

export const DEFAULT_FALLBACK = '/.netlify/functions/fds';
/** Netlify's guidance: beyond ~10,000 rules, expect slow or failing deploys. */
export const DEFAULT_RULE_BUDGET = 10_000;

/** Literal rules are admitted in this order until the budget is spent. */
export const TIERS = ['league', 'league-spellings', 'event', 'summary', 'plays', 'match-spellings'] as const;

function tierOf(route: string, rank: number): number {
  switch (route) {
    case 'event':
      return rank ? 5 : 2;
    case 'summary':
      return rank ? 5 : 3;
    case 'plays':
      return rank ? 5 : 4;
    default:
      return rank ? 1 : 0;
  }
}

export interface RuleStats {
  total: number;
  literals: number;
  escapes: number;
  budget: number;
  /** Per tier: literal spellings that were candidates and how many got a rule. */
  tiers: Array<{ tier: string; candidates: number; admitted: number }>;
}

export class RuleError extends Error {}

export function checkFallback(fallback: string): string {
  if (/^\/\.netlify\/functions\/[A-Za-z0-9_-]+$/.test(fallback)) return fallback;
  if (/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(fallback)) return fallback.replace(/\/+$/, '');
  throw new RuleError(
    `--fallback must be /.netlify/functions/<name> or an http(s) origin URL, got ${JSON.stringify(fallback)}`,
  );
}

/** Rules that route to the fallback for the whole route table, and root files' rules: the floor of any budget. */
export function fallbackRuleCount(routes: readonly AnyRoute[]): number {
  return routes.reduce((n, r) => n + (1 << Object.keys(r.query).length) - 1 + (r.staticFile ? 1 : 0), 0) + 1;
}

/** `staticFiles`: how many files of the release get a rule of their own (StaticFiles), also outside the budget. */
export function checkBudget(budget: number, routes: readonly AnyRoute[], staticFiles = 0): number {
  const floor = fallbackRuleCount(routes) + staticFiles;
  if (budget < floor)
    throw new RuleError(
      `a rule budget of ${budget} cannot hold the ${floor} rules that route to the fallback or the site's own files`,
    );
  return budget;
}

const isFunction = (fallback: string) => fallback.startsWith('/.netlify/functions/');

function subsets<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let m = 1; m < 1 << items.length; m++) out.push(items.filter((_, i) => m & (1 << i)));
  return out;
}

/**
 * A proxy gets the request path back through the placeholders and, since Netlify replaces the query
 * of a rule with conditions, the escape's keys re-attached (the only route keys the request has).
 */
function escapeRule(route: AnyRoute, keys: string[], fallback: string): string {
  const conds = keys.map((k) => `${k}=:q${k}`).join(' ');
  const to = isFunction(fallback) ? fallback : `${fallback}${route.path}?${keys.map((k) => `${k}=:q${k}`).join('&')}`;
  return `${route.path} ${conds} ${to} 200!`;
}

function headerBlock(pathPattern: string, headers: Readonly<Record<string, string>>): string {
  return `${pathPattern}\n${Object.entries(headers)
    .map(([name, value]) => `  ${name}: ${value}\n`)
    .join('')}`;
}

function literalRule(form: RequestForm, file: string): string {
  const conds = form.query.map(([k, v]) => ` ${k}=${v}`).join('');
  return `${form.path}${conds} /${file} 200!`;
}

/** Files of the release served as they are (the front door's assets), and the headers of their directory. */
export interface StaticFiles {
  dir: string;
  /** Release-relative paths, all under `dir`. */
  files: readonly string[];
  headers: Readonly<Record<string, string>>;
}

interface Spooled {
  rule: string;
  k: number;
  file: string;
  etag: string;
  cacheControl: string;
}

/**
 * Collects literal candidates while the build streams (spooled to one file per tier, so memory does
 * not grow with the store), then admits them tier by tier within the budget and writes the rules.
 */
export class RulePlanner {
  private readonly spools: LineWriter[];
  private readonly candidates = TIERS.map(() => 0);
  private readonly routes = new Map<string, AnyRoute>();
  /** Rules and `_headers` blocks of files outside the static prefix (the front door): few, always written. */
  private readonly pinned: string[] = [];
  private readonly pinnedHeaders: string[] = [];

  constructor(
    private readonly workDir: string,
    private readonly budget: number,
    private readonly fallback: string,
    private readonly fs: OutputFs = nodeFs,
    staticFiles: readonly StaticFiles[] = [],
  ) {
    this.fs.mkdirSync(workDir, { recursive: true });
    this.spools = TIERS.map((_, i) => new LineWriter(path.join(workDir, `tier-${i}.ndjson`), this.fs));
    for (const { dir, files, headers } of staticFiles) {
      for (const file of files) this.pinned.push(`/${file} /${file} 200!`);
      this.pinnedHeaders.push(headerBlock(`/${dir}/*`, headers));
    }
  }

  add(planned: PlannedFile, headers: { etag: string; cacheControl: string; contentType: string }): void {
    if (!planned.file.startsWith(`${STATIC_PREFIX}/`)) {
      for (const form of planned.forms) this.pinned.push(literalRule(form, planned.file));
      this.pinnedHeaders.push(
        headerBlock(`/${planned.file}`, {
          'Content-Type': headers.contentType,
          ...CORS,
          ETag: headers.etag,
          'Cache-Control': headers.cacheControl,
        }),
      );
      return;
    }
    const rank = new Map<string, number>();
    for (const form of planned.forms) {
      const r = rank.get(form.route.name) ?? 0;
      rank.set(form.route.name, r + 1);
      if (Object.keys(form.route.query).length) this.routes.set(form.route.name, form.route);
      const tier = tierOf(form.route.name, r);
      const line: Spooled = {
        rule: literalRule(form, planned.file),
        k: form.query.length,
        file: planned.file,
        etag: headers.etag,
        cacheControl: headers.cacheControl,
      };
      this.spools[tier]!.write(`${JSON.stringify(line)}\n`);
      this.candidates[tier]!++;
    }
  }

  /** Stop spooling (idempotent); `finish` reads what was spooled. */
  close(): void {
    for (const s of this.spools) s.close();
  }

  /** Write `_redirects` and `_headers` into `dir`. */
  finish(dir: string): RuleStats {
    this.close();
    const escapes = [...this.routes.values()].flatMap((route) =>
      subsets(Object.keys(route.query)).map((keys) => ({
        k: keys.length,
        rule: escapeRule(route, keys, this.fallback),
      })),
    );
    // checkBudget() made room for the escapes of every route and the site's own files.
    const room = this.budget - escapes.length - 1 - this.pinned.length;
    const maxK = Math.max(0, ...escapes.map((e) => e.k));
    const groups = Array.from(
      { length: maxK + 1 },
      (_, k) => new LineWriter(path.join(this.workDir, `k-${k}.txt`), this.fs),
    );
    const headers = new LineWriter(path.join(dir, '_headers'), this.fs);
    headers.write(`/${STATIC_PREFIX}/*\n  Content-Type: ${JSON_TYPE}\n`);
    for (const [name, value] of Object.entries(CORS)) headers.write(`  ${name}: ${value}\n`);
    for (const block of this.pinnedHeaders) headers.write(block);
    const withHeaders = new Set<string>();
    const admitted = TIERS.map(() => 0);
    let literals = 0;
    for (let tier = 0; tier < TIERS.length; tier++) {
      for (const line of linesSync(path.join(this.workDir, `tier-${tier}.ndjson`), this.fs)) {
        if (literals >= room) break;
        const s = JSON.parse(line) as Spooled;
        groups[s.k]!.write(`${s.rule}\n`);
        literals++;
        admitted[tier]!++;
        if (!withHeaders.has(s.file)) {
          withHeaders.add(s.file);
          headers.write(`/${s.file}\n  ETag: ${s.etag}\n  Cache-Control: ${s.cacheControl}\n`);
        }
      }
    }
    headers.close();
    for (const g of groups) g.close();

    const out = new LineWriter(path.join(dir, '_redirects'), this.fs);
    out.write('# Generated by `fds build`. Literal rules serve pre-rendered files for exact requests; every other\n');
    out.write('# request reaches the fallback. Order matters (see src/publish/rules.ts for why this is sound).\n');
    for (const rule of this.pinned) out.write(`${rule}\n`);
    for (let k = maxK; k >= 0; k--) {
      for (const line of linesSync(path.join(this.workDir, `k-${k}.txt`), this.fs)) out.write(`${line}\n`);
      for (const e of escapes) if (e.k === k) out.write(`${e.rule}\n`);
    }
    out.write(`/* ${isFunction(this.fallback) ? this.fallback : `${this.fallback}/:splat`} 200!\n`);
    out.close();
    this.fs.rmSync(this.workDir, { recursive: true, force: true });
    return {
      total: this.pinned.length + literals + escapes.length + 1,
      literals: this.pinned.length + literals,
      escapes: escapes.length,
      budget: this.budget,
      tiers: TIERS.map((tier, i) => ({ tier, candidates: this.candidates[i]!, admitted: admitted[i]! })),
    };
  }
}
