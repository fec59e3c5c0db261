/**
 * What the ESPN sync asks, on a busy matchday of 16 leagues (docs/performance.md, "The request
 * bill"): the loopback ESPN (test/helpers/espn-now.ts) and the sync share a simulated clock, so hours
 * of `fds live` cycles at its own cadence (10 s while a league is hot, 5 minutes otherwise, waking at
 * the next hot start) run in a minute. Every request is put down to the part of the plan that asked
 * it — live, window, settle, catalogue — by what the store says of its match after the cycle:
 *
 * - per live cycle: requests and bytes against the floor (one board per hot league, two across
 *   Eastern midnight, plus the summary and plays of each match whose board entry changed), and
 *   against what the plan before it asked (a board per league per day of today − 3 … today + 7, the
 *   summary and plays of every unfinished match of the window);
 * - per hour: window refreshes, settles and the catalogue;
 * - completeness: with ESPN answering the days after tomorrow empty, one sync into an empty store
 *   keeps every fixture of the next 7 days.
 *
 *   node --import tsx bench/espn-bill.ts [--hours 2] [--scale 1] [--weight real|light]
 */
import { parseArgs } from 'node:util';
import { LEAGUE_SLUGS } from '../src/reference/leagues.js';
import type { DB } from '../src/store/db.js';
import { HttpClient } from '../src/sync/http/fetch-json.js';
import { EspnProvider } from '../src/sync/providers/espn.js';
import { runSync } from '../src/sync/run-sync.js';
import type { SyncReport } from '../src/sync/run-sync.js';
import { nextCycleIn } from '../src/live/cadence.js';
import { addDays, ymd } from '../src/util/time.js';
import { easternYmd, startEspnNow } from '../test/helpers/espn-now.js';
import type { EspnNow, LogEntry } from '../test/helpers/espn-now.js';
import { removeTempDirs, tempStore } from '../test/helpers/store.js';
import { EspnPlan } from '../src/sync/plan/espn-plan.js';
import { recordGoals } from './goals.js';
import { textTable } from './table.js';
import { kbOrMb } from '../src/util/thousands.js';

const { values } = parseArgs({
  options: {
    hours: { type: 'string', default: '2' },
    scale: { type: 'string', default: '1' },
    /** The loopback ESPN's payload weight: real (ESPN's sizes, the default) or light. */
    weight: { type: 'string', default: 'real' },
  },
});
const HOURS = Number(values.hours);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const EVERY = 10_000;
const IDLE = 300_000;

type Part = 'live' | 'window' | 'settle' | 'catalogue';
interface Tally {
  requests: number;
  bytes: number;
}
const add = (t: Tally, l: LogEntry) => {
  t.requests++;
  t.bytes += l.bytes;
};

/** `fds sync`'s default fixture window at an instant: today − 3 … today + 7 (UTC days). */
const windowOf = (at: number) => ({ from: ymd(addDays(new Date(at), -3)), to: ymd(addDays(new Date(at), 7)) });

function sync(db: DB, espn: EspnNow, at: number, http: HttpClient): Promise<SyncReport> {
  const now = new Date(at);
  const provider = new EspnProvider({
    baseUrl: espn.url,
    coreUrl: espn.url,
    ...windowOf(at),
    leagues: LEAGUE_SLUGS,
    store: () => db,
    clock: () => now,
    http,
  });
  return runSync(db, provider, { leagues: LEAGUE_SLUGS, concurrency: 4, clock: () => now });
}

/** Each match's state, kickoff and record hash, by league/id. */
function matches(db: DB) {
  const rows = db.prepare('SELECT league_slug AS league, id, state, kickoff, hash FROM matches').all() as Array<{
    league: string;
    id: string;
    state: string;
    kickoff: string;
    hash: string;
  }>;
  return new Map(rows.map((r) => [`${r.league}/${r.id}`, r]));
}

const leagueOf = (p: string) => /soccer\/(?:leagues\/)?([a-z]+\.\d)\//.exec(p)?.[1] ?? '';
const eventOf = (p: string) => /(?:event=|events\/)(\w+)/.exec(p)?.[1] ?? '';

/** ESPN's fixtures in [from, to), from its month boards (which the empty-days option leaves whole). */
async function fixtures(espn: EspnNow, from: number, to: number): Promise<number> {
  let n = 0;
  for (const league of LEAGUE_SLUGS)
    for (const month of new Set([easternYmd(from).slice(0, 6), easternYmd(to).slice(0, 6)])) {
      const r = await fetch(`${espn.url}/apis/site/v2/sports/soccer/${league}/scoreboard?dates=${month}&limit=500`, {
        headers: { 'user-agent': 'football-data-service-bench/1.0 (+https://example.org)' },
      });
      const board = (await r.json()) as { events: Array<{ date: string }> };
      n += board.events.filter((e) => Date.parse(e.date) >= from && Date.parse(e.date) < to).length;
    }
  return n;
}

const startAt = Date.now();
// Warm up for an hour (the first sync fills the window, the catalogue fills), then measure.
let simNow = startAt - HOUR;
const espn = await startEspnNow({
  matchdayAt: new Date(startAt),
  clock: () => simNow,
  scale: Number(values.scale),
  weight: values.weight === 'light' ? 'light' : 'real',
});
const { db } = tempStore();
const http = new HttpClient();
try {
  // A store as a running loop has it: the first sync two hours before the measured span, then cycles.
  const perCycle: Array<{
    hot: number;
    live: Tally;
    floor: number;
    boards: number;
    floorBoards: number;
    violations: string[];
    old: number;
  }> = [];
  const perPart: Record<Part, Tally> = {
    live: { requests: 0, bytes: 0 },
    window: { requests: 0, bytes: 0 },
    settle: { requests: 0, bytes: 0 },
    catalogue: { requests: 0, bytes: 0 },
  };
  const sizes = { board: [] as number[], summary: [] as number[], plays: [] as number[] };
  let cycles = 0;
  let report: SyncReport | undefined;
  while (simNow < startAt + HOURS * HOUR) {
    const before = matches(db);
    // Hot as the cycle starts, as the plan reads the store.
    const plan = new EspnPlan(db, LEAGUE_SLUGS, {
      ...windowOf(simNow),
      seasons: [],
      full: false,
      clock: () => new Date(simNow),
    });
    const hot = plan.hotLeagues();
    espn.reset();
    report = await sync(db, espn, simNow, http);
    const after = matches(db);
    const measured = simNow >= startAt;
    cycles++;
    if (measured) {
      const windowStart = `${windowOf(simNow).from.replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3')}T00:00:00Z`;
      const changed = new Set([...after].filter(([k, m]) => before.get(k)?.hash !== m.hash).map(([k]) => k));
      const live: Tally = { requests: 0, bytes: 0 };
      const violations: string[] = [];
      let boards = 0;
      let changedRequests = 0;
      const settledLeagues = new Set<string>();
      for (const l of espn.log) {
        const league = leagueOf(l.path);
        const key = `${league}/${eventOf(l.path)}`;
        const m = after.get(key);
        let part: Part;
        if (l.kind === 'board-month') part = 'window';
        else if (l.kind === 'board-day') {
          part = 'live';
          boards++;
          if (!hot.includes(league)) violations.push(`board of cold ${league}`);
          sizes.board.push(l.bytes);
        } else if (l.kind === 'summary' || l.kind === 'plays') {
          (l.kind === 'summary' ? sizes.summary : sizes.plays).push(l.bytes);
          if (m && m.kickoff < windowStart) part = 'catalogue';
          else if (changed.has(key) || m?.state === 'in') part = 'live';
          else if (m?.state === 'post') {
            part = 'settle';
            settledLeagues.add(league);
          } else {
            part = 'live';
            violations.push(`${l.kind} of ${key} (${m?.state ?? 'unknown'}, unchanged)`);
          }
          if (part === 'live' && changed.has(key)) changedRequests++;
          if (part === 'live' && l.kind === 'plays' && !changed.has(key))
            violations.push(`plays of ${key}, whose board did not change`);
        } else if (l.kind === 'standings') part = settledLeagues.has(league) ? 'settle' : 'catalogue';
        else part = 'catalogue';
        add(perPart[part], l);
        if (part === 'live') add(live, l);
      }
      if (hot.length) {
        // The floor: the Eastern days of the hot matches, and what the changed matches cost.
        const floorBoards = hot.reduce((n, league) => n + plan.hotDays(league).length, 0);
        if (boards > floorBoards) violations.push(`${boards} boards for ${floorBoards}`);
        // The plan before this one: a board per league per day of the window, and the summary and
        // plays (one page) of every unfinished match of it, every cycle.
        const unfinished = [...after.values()].filter((m) => m.state !== 'post' && m.kickoff >= windowStart).length;
        perCycle.push({
          hot: hot.length,
          live,
          floor: floorBoards + changedRequests,
          boards,
          floorBoards,
          violations,
          old: LEAGUE_SLUGS.length * 11 + 2 * unfinished,
        });
      }
    }
    simNow += nextCycleIn(report.upstream, EVERY, IDLE, simNow);
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const avgSize = (xs: number[]) => mean(xs.filter((b) => b > 0));
  const live = perCycle.map((c) => c.live.requests);
  const old = perCycle.map((c) => c.old);
  const oldBytes = mean(
    perCycle.map(
      (c) =>
        LEAGUE_SLUGS.length * 11 * avgSize(sizes.board) +
        ((c.old - LEAGUE_SLUGS.length * 11) / 2) * (avgSize(sizes.summary) + avgSize(sizes.plays)),
    ),
  );
  const violations = perCycle.flatMap((c) => c.violations);
  console.log(
    `\nESPN request bill: ${cycles} cycles over ${HOURS + 1} simulated hours (the last ${HOURS} measured), ` +
      `${perCycle.length} of them live; hot leagues per live cycle: median ${median(perCycle.map((c) => c.hot))}, ` +
      `matches in play now: ${(await espn.inPlay(startAt)).length}`,
  );
  console.log(
    textTable(
      ['per live cycle', 'requests', 'bytes'],
      [
        ['this plan (median)', String(median(live)), kbOrMb(median(perCycle.map((c) => c.live.bytes)))],
        ['this plan (mean)', mean(live).toFixed(1), kbOrMb(mean(perCycle.map((c) => c.live.bytes)))],
        ['floor: hot boards + changed matches (mean)', mean(perCycle.map((c) => c.floor)).toFixed(1), ''],
        ['the plan before (mean, computed)', mean(old).toFixed(0), kbOrMb(oldBytes)],
      ],
      2,
    ),
  );
  const hours = HOURS;
  console.log(
    textTable(
      ['per hour', 'requests', 'bytes'],
      (Object.entries(perPart) as Array<[Part, Tally]>).map(([part, t]) => [
        part,
        (t.requests / hours).toFixed(0),
        kbOrMb(t.bytes / hours),
      ]),
      2,
    ),
  );
  if (violations.length) console.log(`off the plan: ${violations.slice(0, 10).join('; ')}`);

  // Completeness, with the days after tomorrow answered empty: one sync into an empty store.
  espn.options.emptyBeyondTomorrow = true;
  simNow = startAt;
  const fresh = tempStore().db;
  await sync(fresh, espn, simNow, new HttpClient({}));
  const stored = fresh
    .prepare('SELECT count(*) FROM matches WHERE kickoff >= ? AND kickoff < ?')
    .pluck()
    .get(
      `${new Date(simNow).toISOString().slice(0, 19)}Z`,
      `${new Date(simNow + 7 * DAY).toISOString().slice(0, 19)}Z`,
    ) as number;
  const all = await fixtures(espn, simNow, simNow + 7 * DAY);
  console.log(`completeness: ${stored} of the ${all} fixtures of the next 7 days stored`);

  recordGoals(
    {
      figure: 'ESPN live cycle: requests off the plan',
      measured: `${violations.length} (median ${median(live)} requests per live cycle, floor ${median(perCycle.map((c) => c.floor))})`,
      goal: '0',
      met: violations.length === 0,
    },
    {
      figure: 'ESPN: fixtures of the next 7 days with empty days after tomorrow',
      measured: `${stored} of ${all}`,
      goal: 'all',
      met: stored === all,
    },
  );
} finally {
  await espn.close();
  removeTempDirs();
}
