/**
 * A goal at ESPN to a reader, end to end (issue 49, item 5): `fds live --provider espn` against the
 * loopback ESPN that answers as ESPN does now (test/helpers/espn-now.ts: all 16 leagues, a busy
 * matchday under way in real time), behind Varnish with deploy/varnish/fds.vcl and `--purge`.
 * Once the loop runs steady cycles, goals are added at the loopback ESPN (scoreGoal), one every
 * cycle + 2 s, each into a match in play (round-robin, sides alternating), while clients poll
 * THROUGH VARNISH every ~200 ms the goal league's date-less scoreboard, its live fixtures and the
 * match's events/{id}. A goal's age at a URL runs from the instant ESPN first shows it to the first
 * client answer that shows the new score; not seen within 60 s, it is missed.
 *
 *   node --import tsx bench/espn-edge.ts [--every 10,5] [--goals 40] [--weight real|light]
 *
 * Goal: p95 ≤ the live cycle + 1 s (11 s at the default 10 s, 6 s at --every 5), none missed. Also
 * prints what each cycle asked ESPN (from the cycle lines) and, per goal, when fds asked ESPN's board
 * and the match's summary after it, so that a late goal says where its time went. Needs varnishd and
 * the xkey vmod (Debian: varnish, varnish-modules); without them it says so and records nothing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startEspnNow } from '../test/helpers/espn-now.js';
import type { EspnNow, Goal, LiveMatch } from '../test/helpers/espn-now.js';
import { startLive } from '../test/deploy/live-edge.js';
import type { LiveLine, LiveProcess } from '../test/deploy/live-edge.js';
import { ROOT, freePort, percentile, startVarnish, varnishMissing } from '../test/deploy/varnish-helpers.js';
import type { Varnish } from '../test/deploy/varnish-helpers.js';
import { recordGoals } from './goals.js';
import type { Goal as BenchGoal } from './goals.js';

const { values } = parseArgs({
  options: {
    every: { type: 'string', default: '10,5' },
    goals: { type: 'string', default: '40' },
    /** The loopback ESPN's payload weight: real (ESPN's sizes, the default) or light. */
    weight: { type: 'string', default: 'real' },
    /** How long the first cycle (the whole window) may take, in minutes. */
    'start-minutes': { type: 'string', default: '15' },
  },
});
const cadences = values.every.split(',').map(Number);
const goalCount = Number(values.goals);
if (cadences.some((c) => !(c > 0)) || !(goalCount > 0)) throw new Error('espn-edge: --every and --goals take numbers');

/** A goal not seen at the edge within this is missed. */
const MISSED_AFTER = 60_000;
const POLL_MS = 200;
/** Clients poll a match's URLs from this long before its goal. */
const LEAD_MS = 1000;
/** A match closer to its end than this (kickoff + 100 min) is not given a goal: it could leave the live list first. */
const LATEST_AFTER_KICKOFF = 100 * 60_000;

const URLS = ['scoreboard', 'live fixtures', 'events/{id}'] as const;
type UrlName = (typeof URLS)[number];

/**
 * The compiled CLI (bin/fds.js runs build/bundle), compiled again when src/ changed since: a stale
 * bundle would measure code that is no longer there.
 */
function ensureFreshBuild(): void {
  const bundle = path.join(ROOT, 'build/bundle/main.js');
  const built = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
  const newer = (dir: string): boolean =>
    fs.readdirSync(dir, { withFileTypes: true }).some((d) => {
      const f = path.join(dir, d.name);
      return d.isDirectory() ? newer(f) : fs.statSync(f).mtimeMs > built;
    });
  if (built && !newer(path.join(ROOT, 'src'))) return;
  console.log('espn-edge: compiling the CLI (build/ is missing or older than src/)');
  execFileSync('npm', ['run', 'build:ts'], { cwd: ROOT, stdio: 'ignore' });
}

// ---------------------------------------------------------------------------------------------
// Clients

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** What of the API's answers is read here: the competitors' scores of an event or a summary header. */
interface Competition {
  competitors?: Array<{ homeAway?: string; score?: unknown }>;
}
interface Answer {
  events?: Array<{ id?: unknown; competitions?: Competition[] }>;
  header?: { competitions?: Competition[] };
}

function getJson(url: string): Promise<{ status: number; body: Answer | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { 'accept-encoding': 'identity' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: Answer | undefined;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** [home, away] of a competition's competitors, or undefined. */
function scoreOf(comp: Competition | undefined): [number, number] | undefined {
  const side = (h: string) => comp?.competitors?.find((c) => c.homeAway === h)?.score;
  const home = side('home');
  const away = side('away');
  if (home === undefined || away === undefined || home === null || away === null) return undefined;
  const n = (s: unknown) => Number(typeof s === 'object' && s !== null ? (s as { value?: unknown }).value : s);
  return [n(home), n(away)];
}

/** The event's score in an answer of each URL; undefined when the answer does not list the event. */
function scoreIn(name: UrlName, body: Answer | undefined, eventId: string): [number, number] | undefined {
  if (!body) return undefined;
  if (name === 'events/{id}') return scoreOf(body.header?.competitions?.[0]);
  const e = body.events?.find((x) => String(x.id) === eventId);
  return e ? scoreOf(e.competitions?.[0]) : undefined;
}

interface Seen {
  /** Date.now() when the answer was read. */
  at: number;
  status: number;
  score: [number, number] | undefined;
}

/** Polls one URL through the edge until `done()` says so; every answer is kept. */
async function poll(url: string, name: UrlName, eventId: string, done: (s: Seen[]) => boolean): Promise<Seen[]> {
  const seen: Seen[] = [];
  while (!done(seen)) {
    const t = Date.now();
    try {
      const r = await getJson(url);
      seen.push({
        at: Date.now(),
        status: r.status,
        score: r.status === 200 ? scoreIn(name, r.body, eventId) : undefined,
      });
    } catch {
      seen.push({ at: Date.now(), status: 0, score: undefined });
    }
    await sleep(Math.max(0, POLL_MS - (Date.now() - t)));
  }
  return seen;
}

// ---------------------------------------------------------------------------------------------
// One run: one cadence

interface GoalRun {
  goal: Goal;
  side: 'home' | 'away';
  match: LiveMatch;
  /** Per URL: ms from the goal to the first answer showing it; Infinity: missed; null: the answer never listed the match. */
  ages: Record<UrlName, number | null>;
  /** ms from the goal until fds asked ESPN the league's board, and the match's summary (undefined: not asked). */
  boardAsked: number | undefined;
  summaryAsked: number | undefined;
  /** ms from the goal until the cycle line of the cycle that asked the summary (its build published). */
  cycleDone: number | undefined;
}

interface CycleFigures {
  n: number;
  seconds: number;
  requests: number;
  bytes: number;
  byKind: Map<string, number>;
  hot: number;
  failed: boolean;
  text: string;
}

function parseCycle(l: LiveLine): CycleFigures | undefined {
  const n = /^cycle (\d+) /.exec(l.text)?.[1];
  if (!n) return undefined;
  const asked = / asked (\d+) \(([\d.]+) (KB|MB)\): ([^;]*)/.exec(l.text);
  const byKind = new Map<string, number>();
  for (const m of (asked?.[4] ?? '').matchAll(/([\w-]+) (\d+) ·/g)) byKind.set(m[1]!, Number(m[2]));
  const hot = /espn: hot ([^;]*);/.exec(l.text)?.[1]?.split(', ').length ?? 0;
  return {
    n: Number(n),
    seconds: Number(/([\d.]+)s in all/.exec(l.text)?.[1] ?? Number.NaN),
    requests: asked ? Number(asked[1]) : / asked nothing/.test(l.text) ? 0 : Number.NaN,
    bytes: asked ? Number(asked[2]) * (asked[3] === 'MB' ? 1e6 : 1e3) : 0,
    byKind,
    hot,
    failed: / FAILED /.test(l.text),
    text: l.text,
  };
}

const lineEpoch = (l: LiveLine) => performance.timeOrigin + l.at;

/** Waits until two cycles in a row after the first took less than 60 % of the cadence (at most `ms`). */
async function steady(live: LiveProcess, every: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const cs = live
      .cycles()
      .map(parseCycle)
      .filter((c): c is CycleFigures => c !== undefined && c.n >= 2);
    const last = cs.slice(-2);
    if (last.length === 2 && last.every((c) => c.seconds < every * 0.6)) return;
    if (live.exited()) throw new Error('fds live exited');
    await sleep(500);
  }
  console.log(`  (no two steady cycles in ${Math.round(ms / 1000)} s: measuring anyway)`);
}

async function runCadence(every: number): Promise<{ runs: GoalRun[]; cycles: CycleFigures[] }> {
  const espn: EspnNow = await startEspnNow({ weight: values.weight === 'light' ? 'light' : 'real' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-espn-edge-'));
  const port = await freePort();
  let varnish: Varnish | undefined;
  let live: LiveProcess | undefined;
  try {
    varnish = await startVarnish(port);
    const args = ['--provider', 'espn', '--base-url', espn.url, '--core-url', espn.url];
    args.push('--db', path.join(dir, 'store.sqlite'), '--out', path.join(dir, 'dist'));
    args.push('--no-rate-limiting', '--no-request-log', '--purge', `varnish:${varnish.url}/`);
    if (every !== 10) args.push('--every', String(every));
    const hot = await espn.hotLeagues();
    const inPlay = await espn.inPlay();
    console.log(
      `\n--every ${every}: loopback ESPN at ${espn.url} (offset ${espn.offsetMs / 3_600_000} h): ` +
        `${hot.length} leagues hot, ${inPlay.length} matches in play; starting fds live …`,
    );
    const t0 = Date.now();
    live = await startLive(args, port, Number(values['start-minutes']) * 60_000);
    const first = await live.waitFor(/^cycle 1 /, 60_000);
    console.log(`  serving after ${((Date.now() - t0) / 1000).toFixed(0)} s; ${first.text}`);
    await steady(live, every, 5 * 60_000);
    const firstMeasured = (parseCycle(live.cycles().at(-1)!)?.n ?? 0) + 1;
    console.log(`  steady from cycle ${firstMeasured - 1}; ${goalCount} goals, one every ${every + 2} s`);

    const runs: GoalRun[] = [];
    const pending: Promise<void>[] = [];
    const edge = varnish.url;
    let k = 0;
    for (let i = 0; i < goalCount; i++) {
      const slot = Date.now() + (every + 2) * 1000;
      const now = Date.now();
      const candidates = (await espn.inPlay(now))
        .filter((m) => now - m.kickoffMs < LATEST_AFTER_KICKOFF)
        .sort((a, b) => a.league.localeCompare(b.league) || a.eventId.localeCompare(b.eventId));
      if (!candidates.length) {
        console.log('  no match in play any more: stopping the goals early');
        break;
      }
      const match = candidates[k++ % candidates.length]!;
      const side = i % 2 === 0 ? 'home' : 'away';
      const urls: Record<UrlName, string> = {
        scoreboard: `${edge}/get/soccer/${match.league}/scoreboard`,
        'live fixtures': `${edge}/get/soccer/${match.league}/fixtures?status=live`,
        'events/{id}': `${edge}/get/soccer/${match.league}/events/${match.eventId}`,
      };
      let goal: Goal | undefined;
      const shows = (s: Seen) =>
        goal !== undefined &&
        s.at >= goal.atMs &&
        s.score !== undefined &&
        s.score[0] >= goal.home &&
        s.score[1] >= goal.away;
      const polls = URLS.map((name) =>
        poll(urls[name], name, match.eventId, (seen) => {
          if (!goal) return false;
          const last = seen.at(-1);
          return (last !== undefined && shows(last)) || Date.now() > goal.atMs + MISSED_AFTER;
        }),
      );
      await sleep(LEAD_MS);
      goal = await espn.scoreGoal(match.league, match.eventId, side);
      const g = goal;
      pending.push(
        Promise.all(polls).then((seens) => {
          const ages = {} as GoalRun['ages'];
          URLS.forEach((name, j) => {
            const seen = seens[j]!;
            const first = seen.find(shows);
            const listed = seen.some((s) => s.at >= g.atMs && s.score !== undefined);
            ages[name] = first ? first.at - g.atMs : listed ? Number.POSITIVE_INFINITY : null;
          });
          const after = (pred: (e: (typeof espn.log)[number]) => boolean) => {
            const e = espn.log.find((x) => x.at >= g.atMs && pred(x));
            return e ? e.at - g.atMs : undefined;
          };
          const boardAsked = after((e) => e.kind.startsWith('board') && e.path.includes(`/soccer/${g.league}/`));
          const summaryAsked = after((e) => e.kind === 'summary' && e.path.endsWith(`event=${g.eventId}`));
          const line =
            summaryAsked === undefined
              ? undefined
              : live!.cycles().find((l) => lineEpoch(l) >= g.atMs + summaryAsked && / build /.test(l.text));
          runs.push({
            goal: g,
            side,
            match,
            ages,
            boardAsked,
            summaryAsked,
            cycleDone: line ? lineEpoch(line) - g.atMs : undefined,
          });
        }),
      );
      await sleep(Math.max(0, slot - Date.now()));
    }
    await Promise.all(pending);
    // The cycles that ran while the goals were being measured.
    const cycles = live
      .cycles()
      .map(parseCycle)
      .filter((c): c is CycleFigures => c !== undefined && c.n >= firstMeasured);
    runs.sort((a, b) => a.goal.atMs - b.goal.atMs);
    return { runs, cycles };
  } finally {
    await live?.stop();
    await varnish?.stop();
    await espn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const s1 = (ms: number | undefined | null) =>
  ms === undefined || ms === null ? '–' : Number.isFinite(ms) ? (ms / 1000).toFixed(1) : 'missed';
const median = (xs: number[]) => percentile(xs, 50);

function describe(ages: number[]): string {
  if (!ages.length) return 'no samples';
  const missed = ages.filter((a) => !Number.isFinite(a)).length;
  const p = (q: number) => s1(percentile(ages, q));
  return `p50 ${p(50)} s, p95 ${p(95)} s, max ${p(100)} s over ${ages.length} goals, ${missed} missed`;
}

function report(every: number, runs: GoalRun[], cycles: CycleFigures[]): BenchGoal[] {
  console.log(`\n--every ${every}: ${runs.length} goals`);
  console.log(
    '  goal  at        match                 side  score  | board asked  summary asked  cycle line | ages (s): scoreboard  live fixtures  events/{id}',
  );
  for (const [i, r] of runs.entries()) {
    const at = new Date(r.goal.atMs).toISOString().slice(11, 19);
    const m = `${r.goal.league}/${r.goal.eventId}`.padEnd(21);
    console.log(
      `  ${String(i + 1).padStart(4)}  ${at}  ${m} ${r.side.padEnd(5)} ${`${r.goal.home}-${r.goal.away}`.padEnd(6)} | ` +
        `${s1(r.boardAsked).padStart(11)}  ${s1(r.summaryAsked).padStart(13)}  ${s1(r.cycleDone).padStart(10)} | ` +
        URLS.map((u) => s1(r.ages[u]).padStart(u.length)).join('  '),
    );
  }
  const all: number[] = [];
  const worstP95: number[] = [];
  console.log(`\n  goal → first client answer through Varnish that shows it (--every ${every}):`);
  for (const u of URLS) {
    const ages = runs.map((r) => r.ages[u]).filter((a): a is number => a !== null);
    const unlisted = runs.length - ages.length;
    all.push(...ages);
    if (ages.length) worstP95.push(percentile(ages, 95));
    console.log(`    ${u.padEnd(14)} ${describe(ages)}${unlisted ? ` (${unlisted} never listed the match)` : ''}`);
  }
  console.log(`    ${'overall'.padEnd(14)} ${describe(all)}`);
  const within = runs.map((r) => r.summaryAsked).filter((x): x is number => x !== undefined);
  const boards = runs.map((r) => r.boardAsked).filter((x): x is number => x !== undefined);
  console.log(
    `  fds asked the board p50 ${s1(median(boards))} s (max ${s1(percentile(boards, 100))} s) and the summary ` +
      `p50 ${s1(median(within))} s (max ${s1(percentile(within, 100))} s) after a goal; ` +
      `${runs.length - within.length} goals' summaries never asked`,
  );
  const kinds = [...new Set(cycles.flatMap((c) => [...c.byKind.keys()]))].sort();
  const reqs = cycles.map((c) => c.requests).filter(Number.isFinite);
  console.log(
    `  ESPN requests per cycle over ${cycles.length} cycles: median ${median(reqs)} ` +
      `(min ${Math.min(...reqs)}, max ${Math.max(...reqs)}), ` +
      `${Math.round(median(cycles.map((c) => c.bytes)) / 1000)} KB median; median by kind: ` +
      kinds.map((k) => `${k} ${median(cycles.map((c) => c.byKind.get(k) ?? 0))}`).join(', ') +
      `; hot leagues median ${median(cycles.map((c) => c.hot))}; cycle p50 ${median(cycles.map((c) => c.seconds))} s, ` +
      `max ${percentile(
        cycles.map((c) => c.seconds),
        100,
      )} s`,
  );
  // The catalogue (rosters, teams, tables) fills a new store a few requests a cycle; the live part is the rest.
  const catalogue = new Set(['roster', 'teams', 'standings']);
  const livePart = cycles.map(
    (c) => c.requests - [...c.byKind].reduce((t, [k, n]) => t + (catalogue.has(k) ? n : 0), 0),
  );
  console.log(
    `  of which the live part (boards, summaries, plays): median ${median(livePart)} ` +
      `(max ${percentile(livePart, 100)}); cycles with a FAILED unit: ${cycles.filter((c) => c.failed).length}`,
  );
  const typical = cycles.filter((c) => c.requests === median(reqs)).at(-1);
  if (typical) console.log(`  a typical cycle: ${typical.text}`);
  const goalS = every + 1;
  const p95 = percentile(all, 95);
  const worst = Math.max(...worstP95);
  const missed = all.filter((a) => !Number.isFinite(a)).length;
  return [
    {
      figure: `goal → edge, p95 (--every ${every})`,
      measured: `${s1(p95)} s (worst URL ${s1(worst)} s; ${runs.length} goals × 3 URLs)`,
      goal: `≤ ${goalS} s at each URL`,
      met: runs.length >= goalCount && p95 <= goalS * 1000 && worst <= goalS * 1000,
    },
    {
      figure: `goal → edge, missed in 60 s (--every ${every})`,
      measured: `${missed} of ${all.length}`,
      goal: 'none',
      met: all.length > 0 && missed === 0,
    },
  ];
}

// ---------------------------------------------------------------------------------------------

const missing = varnishMissing();
if (missing) {
  console.log(`espn-edge: skipped: ${missing}`);
} else {
  ensureFreshBuild();
  const goals: BenchGoal[] = [];
  try {
    for (const every of cadences) {
      const { runs, cycles } = await runCadence(every);
      goals.push(...report(every, runs, cycles));
    }
  } finally {
    agent.destroy();
  }
  recordGoals(...goals);
  console.log('');
  for (const g of goals) console.log(`${g.figure}: ${g.measured} (goal ${g.goal}) ${g.met ? 'met' : 'NOT met'}`);
}
