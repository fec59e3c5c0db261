/**
 * The rule budget is spent by expected traffic (docs/publishing.md Reach): the hot set always gets its
 * rules, league-level requests come next, then per-match requests by their match's closeness to
 * the snapshot — live, then yesterday/today/tomorrow, then outward — shortest spellings before the
 * others. Reach is judged by Netlify's own rule engine (@netlify/redirects) over the generated rules.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/app/routes.js';
import { NetlifyCdn, webRequest } from '../helpers/netlify-cdn.js';
import { check } from '../../src/check/check.js';
import { snapshotClock } from '../../src/publish/build.js';
import type { NetlifyBuildSummary as BuildSummary } from '../../src/netlify/build.js';
import { readManifestSync } from '../../src/release/manifest.js';
import type { PlannedFile, RequestForm } from '../../src/publish/plan/plan.js';
import { buildPlan, defaultSpelling } from '../../src/publish/plan/plan.js';
import { ReachPolicy } from '../../src/publish/plan/reach.js';
import { currentRelease } from '../../src/release/layout.js';
import { fallbackRuleCount } from '../../src/publish/rules/rule-settings.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { parseYmd } from '../../src/util/time.js';
import { buildInto, demoStore } from './helpers.js';

let db: string;
let store: StoreReader;
let policy: ReachPolicy;
let plan: PlannedFile[];
let snapshotDay: number;
/** Match id → its UTC day and whether it is live, read straight from the store. */
let matches: Map<string, { day: number; live: boolean }>;

const dayNumber = (ymd: string) => parseYmd(ymd)!.getTime() / 86_400_000;

beforeAll(async () => {
  db = await demoStore();
  store = StoreReader.open(db);
  const at = snapshotClock(store)();
  policy = new ReachPolicy(store, at);
  plan = [...buildPlan(store)];
  snapshotDay = Math.floor(at.getTime() / 86_400_000);
  const raw = new Database(db, { readonly: true });
  const rows = raw.prepare('SELECT league_slug, id, scoreboard_date, state FROM matches').all() as Array<{
    league_slug: string;
    id: string;
    scoreboard_date: string;
    state: string;
  }>;
  raw.close();
  matches = new Map(
    rows.map((r) => [`${r.league_slug}/${r.id}`, { day: dayNumber(r.scoreboard_date), live: r.state === 'in' }]),
  );
});
afterAll(() => store?.close());

const queryString = (f: RequestForm) => f.query.map(([k, v]) => `${k}=${v}`).join('&');

/** The order the contract asks for, computed from the store without the build's code (hot: the one definition). */
function expectedOrder(planned: PlannedFile, form: RequestForm): number[] {
  const shortest = planned.requests.includes(form) ? 0 : 1;
  const level = form.route.reach!.level;
  if (shortest === 0 && policy.isHot(form)) return [0, level === 'league' ? 0 : 1];
  if (level === 'league') return [1, shortest];
  const league = planned.request.params.league!;
  const m = matches.get(`${league}/${planned.request.params.eventId}`)!;
  const closeness = m.live ? 0 : Math.max(1, Math.abs(m.day - snapshotDay));
  return [2, closeness, shortest];
}

const compare = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

async function reachedForms(summary: BuildSummary, out: string) {
  const cdn = await NetlifyCdn.open(currentRelease(out)!);
  const reached: Array<{ order: number[]; yes: boolean; label: string }> = [];
  for (const planned of plan) {
    for (const form of planned.forms) {
      const answer = await cdn.rules(webRequest('GET', form.path, queryString(form))!);
      reached.push({
        order: expectedOrder(planned, form),
        yes: answer.kind === 'file' && answer.file === planned.file,
        label: `${form.path}?${queryString(form)}`,
      });
    }
  }
  expect(reached.filter((r) => r.yes).length).toBe(summary.rules!.literals);
  return reached;
}

describe('reach', () => {
  it('gives the whole hot set rules within the default budget, as Netlify matches them', async () => {
    const { out, summary } = await buildInto(db);
    const release = currentRelease(out)!;
    const cdn = await NetlifyCdn.open(release);
    let hot = 0;
    for (const entry of readManifestSync(path.join(release, 'manifest.ndjson'))) {
      for (const url of [entry.request, ...entry.aliases]) {
        const form = defaultSpelling(url)!;
        if (!policy.isHot(form)) continue;
        hot++;
        const answer = await cdn.rules(webRequest('GET', form.path, queryString(form))!);
        expect(answer.kind === 'file' && answer.file, `${url} asked as ${form.path}?${queryString(form)}`).toBe(
          entry.file,
        );
      }
    }
    // League-level requests and some matches of the three days around the snapshot.
    expect(hot).toBeGreaterThan(30);
    expect(summary.reach).toMatchObject({ hot, hotReached: hot });
    const report = await check({ dir: out, db, sample: 20 });
    expect(report.reach).toEqual(summary.reach);
  });

  it.each([
    ['among the matches', (hotAndLeague: number, perMatch: number) => hotAndLeague + Math.floor(perMatch / 3)],
    ['just past the hot set', (_: number, __: number, hot: number) => hot + 5],
  ])(
    'spends a tight budget cut %s on the hot set, then league-level requests, then matches by closeness',
    async (_, room) => {
      const ranked = plan.flatMap((p) => p.forms.map((f) => expectedOrder(p, f))).sort(compare);
      const hot = ranked.filter((o) => o[0] === 0).length;
      const hotAndLeague = ranked.filter((o) => o[0]! < 2).length;
      const literalRoom = room(hotAndLeague, ranked.length - hotAndLeague, hot);
      // The floor counts room for a page rule per front-door asset and `/_s/*`; this release has the assets'.
      const budget = fallbackRuleCount(ROUTES) - 1 + literalRoom;
      const { out, summary } = await buildInto(db, undefined, { ruleBudget: budget });
      expect(summary.rules!.literals).toBe(literalRoom);
      const reached = await reachedForms(summary, out);
      const lastIn = reached.filter((r) => r.yes).reduce((a, r) => (compare(r.order, a.order) > 0 ? r : a));
      const firstOut = reached.filter((r) => !r.yes).reduce((a, r) => (compare(r.order, a.order) < 0 ? r : a));
      expect(
        compare(lastIn.order, firstOut.order),
        `${lastIn.label} got a rule, ${firstOut.label} did not`,
      ).toBeLessThanOrEqual(0);
      expect(summary.reach!.hotReached).toBe(summary.reach!.hot);
    },
  );

  it('puts live matches first among matches, and a shortest spelling before its other spellings', () => {
    const perMatch = plan.filter((p) => p.route.reach?.level === 'match');
    const live = perMatch.find((p) => matches.get(`${p.request.params.league}/${p.request.params.eventId}`)?.live);
    const far = perMatch.find((p) => {
      const m = matches.get(`${p.request.params.league}/${p.request.params.eventId}`)!;
      return !m.live && Math.abs(m.day - snapshotDay) > 3 && p.forms.some((f) => !p.requests.includes(f));
    })!;
    expect(far).toBeDefined();
    const withAlternatives = far.forms.find((f) => !far.requests.includes(f))!;
    const shortest = far.requests[0]!;
    const priority = (form: RequestForm, isShortest: boolean) =>
      policy.priorityOf(policy.standing(form), isShortest, false);
    expect(priority(shortest, true)).toBeLessThan(priority(withAlternatives, false));
    if (live) {
      expect(priority(live.forms.at(-1)!, false)).toBeLessThan(priority(shortest, true));
    }
  });
});
