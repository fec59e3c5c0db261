/**
 * The rule plan: the rewrite rules and headers that reach a release's files, generated from the route
 * table and written in the target's dialect (dialect.ts; Netlify's `_redirects` and `_headers`,
 * netlify/rules/dialect.ts, are what the rules below are spelled in).
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
 * then the literals without conditions; then the pages (below); then the catch-all.
 *
 * WHY IT IS SOUND under Netlify's matching (docs/publishing.md; conditions match as a
 * subset, extra parameters are ignored, a key's last `key=value` occurrence counts, bare keys never
 * match, keys are compared raw and values percent-decoded, first match wins, no fall-through).
 * Take a request at path p and let R be the set of its route's query keys it carries with `=`.
 * Suppose it is answered by literal(P, C → F). Then p is P (up to one trailing slash, which the
 * router also ignores) and C ⊆ R. If C ≠ R then |R| > |C| and escape(route, R) — which matches the
 * request, since every key of R is present and a placeholder matches any value, even an empty one —
 * comes earlier: contradiction. So C = R: for every route key the request carries, its last value
 * decodes to C's token, and every other route key is absent. The render core reads the query the
 * same way — the premise netlify/query.ts states and tests pin: the same keys are given, with the same
 * value wherever one is a token — and ignores unknown keys, so it sees exactly the request C, whose answer
 * F holds (plan.ts keeps a spelling only when it validates to the pre-rendered request's key).
 * Every request that meets no literal reaches the fallback, which is always right. Soundness never
 * depends on which literals the budget admits: leaving one out only sends its requests to the
 * fallback, so the budget is spent by expected traffic (reach.ts). Property tests resolve generated
 * requests through netlify-redirector to check this.
 *
 * PAGES. Just before the catch-all, literal rules keep the paths outside the API that the release
 * ships as files on those files: the front door's assets, one rule each (`/_fd/frontdoor.js`), when
 * the release has them — any other path under `/_fd/` is the fallback's, a 404 in the API's shape,
 * never a rewrite to a missing file — and, with the edge router, the files under `/_s/`, which its
 * rewrites land on (netlify/edge/router.ts says how direct requests are kept off them). The front door itself, `/`,
 * is a route of the table pre-rendered to `index.html` and reached by its literal like any other.
 * No API route lives under any of these paths, so they change nothing above.
 *
 * HYBRID (`fds build --origin URL`). An admitted literal whose request is volatile (reach.ts
 * `volatileOf`: a live match's, a day's around the snapshot, the change feed) rewrites to the origin,
 * asked exactly the literal's request, instead of to its file: by the argument above the request is
 * C, so the origin — which answers every request rightly — gives its answer. And after every escape,
 * one rule per route whose answer without a key means "today" (the date-less scoreboard) sends it to
 * the origin: a request reaches it only when it carries none of its route's keys.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { AnyRoute } from '../../api/route.js';
import { CORS } from '../../api/headers.js';
import type { OutputFs } from '../../util/lines.js';
import { LineWriter, linesSync } from '../../util/lines.js';
import type { PlannedFile, RequestForm } from '../plan/plan.js';
import { STATIC_PREFIX } from '../../release/file-name.js';
import type { ReachCount, ReachPolicy, Standing } from '../plan/reach.js';
import { noReach } from '../plan/reach.js';
import { ROUTES, ROUTES_BY_NAME } from '../../app/routes.js';
import type { Carried, Spooled } from './rule-spool.js';
import { carriable, carriedLine, spoolLine, uncarry, unspool } from './rule-spool.js';
import type { SegmentSummary } from './spool-segments.js';
import { SegmentWriter } from './spool-segments.js';
import { LinkedSegments } from './linked-segments.js';
import { Admission, cutoff } from './budget-cut.js';
import { ASSET_DIR, ASSET_HEADERS } from '../../frontdoor/paths.js';
import type { BuildSettings } from './rule-settings.js';
import { literalQuery, literalRequest, splitLiteral, subsets } from './rule-text.js';
import type { RuleDialect } from './dialect.js';
import { HeaderPlan } from './header-plan.js';
import { routeSharedHeaders } from '../../api/cache-tags.js';

export interface RuleStats {
  total: number;
  literals: number;
  /** Rules that send volatile requests to the origin of a hybrid build (`--origin`). */
  toOrigin: number;
  escapes: number;
  /** Rules that keep non-API paths on their files (see PAGES above). */
  pages: number;
  budget: number;
  /** Literal spellings that were candidates for a rule. */
  candidates: number;
  /** Pre-rendered requests a literal rule reaches, in their shortest spelling; and of the hot set. */
  reach: ReachCount;
  /** Bytes of `_headers`, and the files in it with a block of their own (header-plan.ts). */
  headersBytes: number;
  headerExceptions: number;
}

/**
 * Collects literal candidates while the build streams — spooled to one file with their priority
 * (the next build carries them over from it), while a count per priority and the candidates the
 * budget may still admit stay in memory (budget-cut.ts) — then admits them lowest priority first
 * within the budget (in plan order within a priority, so the output is reproducible) and writes the rules.
 */
export class RulePlanner {
  private readonly spool: SegmentWriter;
  private readonly linked: LinkedSegments;
  /** `_headers`: by path pattern, plus the files whose Cache-Control is not their pattern's. */
  private readonly headerPlan = new HeaderPlan();
  private readonly perPriority = new Map<number, number>();
  private readonly routes = new Map<string, AnyRoute>();
  private readonly counted = noReach();
  /** Headers of files outside `_s/` (the front door): written whatever is admitted. */
  private readonly pinnedHeaders: Array<{ path: string; headers: Record<string, string> }> = [];
  private readonly admission: Admission;

  constructor(
    private readonly workDir: string,
    private readonly settings: BuildSettings,
    private readonly reach: ReachPolicy,
    /** How the rules are written; null: the target writes none, and the plan is only spooled for the next build. */
    private readonly dialect: RuleDialect | null,
    private readonly fs: OutputFs = nodeFs,
  ) {
    this.admission = new Admission(settings.ruleBudget);
    const tally = { perPriority: this.perPriority, counted: this.counted, addRoute: (n: string) => this.addRoute(n) };
    this.linked = new LinkedSegments(reach, this.admission, tally);
    this.fs.mkdirSync(workDir, { recursive: true });
    // Written in the background: it is read only by the next build.
    this.spool = new SegmentWriter(path.join(workDir, 'spool'), this.fs);
  }

  /** `segment`: the spool segment the file's candidates go to (spool-segments.ts). */
  add(
    planned: PlannedFile,
    headers: { etag: string; cacheControl: string; contentType: string },
    segment: string,
  ): void {
    const { file } = planned;
    if (!file.startsWith(`${STATIC_PREFIX}/`)) {
      // Outside `_s/` no blanket block gives the type and CORS: the file's own block does. No ETag:
      // Netlify makes its own for every file it serves (header-plan.ts).
      const { contentType, cacheControl } = headers;
      const shared = routeSharedHeaders(planned.route, cacheControl);
      const own = { 'Content-Type': contentType, ...CORS, 'Cache-Control': cacheControl, ...shared };
      this.pinnedHeaders.push({ path: `/${file}`, headers: own });
    } else this.headerPlan.file(file, headers.cacheControl);
    // A request's shortest spelling is also one of its forms: its standing is worked out once.
    const standings = new Map<RequestForm, Standing>();
    const standingOf = (form: RequestForm) => {
      let standing = standings.get(form);
      if (!standing) {
        standing = this.reach.standing(form);
        standings.set(form, standing);
      }
      return standing;
    };
    const hot = new Set<RequestForm>();
    for (const request of planned.requests) {
      this.counted.requests++;
      if (this.reach.hotOf(standingOf(request))) {
        this.counted.hot++;
        hot.add(request);
      }
    }
    const { etag, cacheControl } = headers;
    const spool = (form: RequestForm, k: number, request: string, shortest: boolean) => {
      const standing = standingOf(form);
      const p = this.reach.priorityOf(standing, shortest, hot.has(form));
      // Spelled out, not spread: a full build spools every candidate, and an object spread costs
      // microseconds where this costs a tenth of one.
      const { level, hotq, league, id, day, live } = standing;
      const route = form.route.name;
      const one = shortest ? 1 : 0;
      const spooled: Spooled = {
        level,
        hotq,
        league,
        id,
        day,
        live,
        k,
        shortest: one,
        file,
        route,
        etag,
        cacheControl,
        request,
      };
      const line = spoolLine(spooled);
      this.spool.write(segment, file, line, spooled, route, carriable(file, hotq));
      if (k >= 0) this.admission.offer(p, line);
      return p;
    };
    for (const form of planned.forms) {
      if (Object.keys(form.route.query).length) this.routes.set(form.route.name, form.route);
      // plan.ts puts each request's shortest spelling first among its spellings, the very object.
      const p = spool(form, form.query.length, literalRequest(form), planned.requests.includes(form));
      this.perPriority.set(p, (this.perPriority.get(p) ?? 0) + 1);
    }
    // A request no literal rule can express is counted all the same: the next build carries its count over.
    for (const request of planned.requests) if (!planned.forms.includes(request)) spool(request, -1, '', true);
  }

  /**
   * A file's candidates as the published build spooled them (`lines`), carried over: the file is
   * untouched, so only what follows the snapshot day is computed again — and the standing of a match
   * that `changed` says changed (asked once per candidate: the caller remembers its last answer).
   * False when one cannot be carried over: nothing was added then.
   * `manifestLine`: the file's line in the published manifest, for its Cache-Control (header-plan.ts).
   */
  carry(
    file: string,
    lines: readonly string[],
    changed: (league: string, id: string) => boolean,
    manifestLine: string,
    segment: string,
  ): boolean {
    const carried: Carried[] = [];
    for (const line of lines) {
      const c = uncarry(line);
      if (!c || !carriable(file, c.hotq)) return false;
      carried.push(c);
    }
    this.headerPlan.manifestLine(manifestLine);
    for (const c of carried) {
      // `changed` remembers its last answer: a match's candidates (and files) come together.
      const moved = c.level === 'match' && !!c.league && !!c.id && changed(c.league, c.id);
      if (moved) {
        const now = this.reach.matchNow(c.league, c.id);
        c.day = now?.day ?? '';
        c.live = now?.live ?? false;
      }
      const hot = c.shortest === 1 && this.reach.hotOf(c);
      const p = this.reach.priorityOf(c, c.shortest === 1, hot);
      const line = carriedLine(c, moved);
      this.spool.write(segment, file, line, c, c.route, true);
      if (c.k >= 0) this.admission.offer(p, line);
      if (c.shortest) {
        this.counted.requests++;
        if (hot) this.counted.hot++;
      }
      if (c.k < 0) continue;
      this.addRoute(c.route);
      this.perPriority.set(p, (this.perPriority.get(p) ?? 0) + 1);
    }
    return true;
  }

  /**
   * A segment of the published spool (in `from`) whose files are all carried over untouched: linked
   * as it is, its candidates counted from its summary (linked-segments.ts). `manifestLines`: the
   * segment's published manifest lines, for their Cache-Control (header-plan.ts).
   */
  link(from: string, summary: SegmentSummary, manifestLines?: Buffer): void {
    this.linked.add(this.spool.link(from, summary), summary);
    if (manifestLines) this.headerPlan.manifestLines(manifestLines);
  }

  private addRoute(name: string): void {
    if (this.routes.has(name)) return;
    const route = ROUTES_BY_NAME.get(name);
    if (route && Object.keys(route.query).length) this.routes.set(name, route);
  }

  /** Every spooled candidate on file (the next build carries them over); fails if a write did. */
  spooled(): Promise<void> {
    return this.spool.done();
  }

  /** Stop spooling (idempotent). */
  close(): void {
    this.spool.close();
  }

  /**
   * Write the rules and headers into `dir` in the target's dialect (none without one); keep the spool
   * as `spoolTo` (the next build carries from it).
   */
  finish(dir: string, spoolTo?: string): RuleStats {
    this.close();
    const d = this.dialect;
    const stats = d ? this.write(dir, d) : this.unwritten();
    this.spool.finish();
    if (spoolTo) {
      // What a build killed before it cleaned up may have left there.
      this.fs.rmSync(spoolTo, { recursive: true, force: true });
      this.fs.renameSync(this.spool.dir, spoolTo);
    }
    this.fs.rmSync(this.workDir, { recursive: true, force: true });
    return stats;
  }

  /** No rules: what was planned, counted. */
  private unwritten(): RuleStats {
    const none = { total: 0, literals: 0, toOrigin: 0, escapes: 0, pages: 0, headersBytes: 0, headerExceptions: 0 };
    const reach = { ...this.counted, reached: 0, hotReached: 0 };
    return { ...none, budget: this.settings.ruleBudget, candidates: this.candidates(), reach };
  }

  private candidates(): number {
    return [...this.perPriority.values()].reduce((a, b) => a + b, 0);
  }

  private write(dir: string, d: RuleDialect): RuleStats {
    const { ruleBudget: budget, fallback, router, origin } = this.settings;
    const escapes = [...this.routes.values()].flatMap((route) =>
      subsets(Object.keys(route.query)).map((keys) => ({
        k: keys.length,
        rule: d.escape(route, keys, fallback),
      })),
    );
    const pages = d.pages(dir, router, this.fs);
    const todays = origin ? ROUTES.filter((r) => r.today).map((r) => d.today(r, origin)) : [];
    // checkBudget() made room for the escapes of every route, every page rule and every rule for
    // today's answers, so this is never negative.
    const room = budget - escapes.length - pages.length - todays.length - 1;
    const cut = cutoff(this.perPriority, room);
    this.linked.holdAdmitted(this.spool.dir, cut, this.fs);
    const maxK = Math.max(0, ...escapes.map((e) => e.k));
    // The admitted literals by their number of conditions, written out as they come (the heap of a
    // large build has little room to spare at its end).
    const groups = Array.from(
      { length: maxK + 1 },
      (_, k) => new LineWriter(path.join(this.workDir, `k-${k}.txt`), this.fs),
    );
    const pinned = this.pinnedHeaders.map((p) => d.block(p.path, p.headers));
    if (this.fs.existsSync(path.join(dir, ASSET_DIR))) pinned.unshift(d.block(`/${ASSET_DIR}/*`, ASSET_HEADERS));
    const headersText = this.headerPlan.text(pinned, d.block);
    this.fs.writeFileSync(path.join(dir, d.headersFile), headersText);
    const reach = { ...this.counted, reached: 0, hotReached: 0 };
    let literals = 0;
    let toOrigin = 0;
    for (const line of this.admission.admitted(cut)) {
      const s = unspool(line);
      literals++;
      const query = () => literalQuery(splitLiteral(s.request).conds);
      if (origin && this.reach.volatileOf(s, s.route, query)) {
        // A literal's conditions are the request's every route key: the origin is asked exactly that.
        groups[s.k]!.write(`${d.toOrigin(s.request, origin)}\n`);
        toOrigin++;
        continue;
      }
      groups[s.k]!.write(`${d.literal(s.request, s.file)}\n`);
      reach.reached += s.shortest;
      // Heat is not spooled (it follows the snapshot day): worked out as carry() and add() do.
      if (s.shortest === 1 && this.reach.hotOf(s)) reach.hotReached++;
    }
    for (const g of groups) g.close();

    const out = new LineWriter(path.join(dir, d.rulesFile), this.fs);
    for (const line of d.preamble) out.write(`${line}\n`);
    for (let k = maxK; k >= 0; k--) {
      for (const line of linesSync(path.join(this.workDir, `k-${k}.txt`), this.fs)) out.write(`${line}\n`);
      for (const e of escapes) if (e.k === k) out.write(`${e.rule}\n`);
    }
    // After every escape: only a request carrying none of its route's keys gets here.
    for (const rule of todays) out.write(`${rule}\n`);
    for (const rule of pages) out.write(`${rule}\n`);
    out.write(`${d.catchAll(fallback)}\n`);
    out.close();
    return {
      total: literals + escapes.length + pages.length + todays.length + 1,
      literals,
      toOrigin: toOrigin + todays.length,
      escapes: escapes.length,
      pages: pages.length,
      budget,
      candidates: this.candidates(),
      reach,
      headersBytes: Buffer.byteLength(headersText),
      headerExceptions: this.headerPlan.exceptionCount,
    };
  }
}
