/**
 * Latency of dynamic renders (the render core, in process) on a demo store: p50/p99 for typical
 * requests and for the worst cases the API allows (largest pages, largest summary, longest play
 * stream, cold aggregates).
 *
 *   npx tsx bench/api-render.ts [--db data/demo-bench.sqlite] [--runs 300]
 *
 * Without a store at --db, one is synced from the demo provider first (all 16 leagues).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { render } from '../src/app/render.js';
import { openStore } from '../src/store/db.js';
import { StoreReader } from '../src/store/read/reader.js';
import { SERVE_MAP_BYTES } from '../src/store/store-source.js';
import { runSync } from '../src/sync/run-sync.js';
import { LEAGUE_SLUGS } from '../src/reference/leagues.js';
import { ymd } from '../src/util/time.js';
import { recordGoals } from './goals.js';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'data/demo-bench.sqlite' }, runs: { type: 'string', default: '300' } },
});
const file = values.db!;
const runs = Number(values.runs);

async function ensureStore(): Promise<void> {
  if (fs.existsSync(file)) return;
  const { createDemoProvider, demoReferenceInstant } = await import('../src/sync/providers/demo/index.js');
  const today = ymd(new Date());
  process.stderr.write(`syncing a demo store into ${file} (today ${today})…\n`);
  const db = openStore(file);
  const instant = demoReferenceInstant(today);
  await runSync(db, createDemoProvider({ seed: 1, today, scale: 1 }), {
    leagues: LEAGUE_SLUGS,
    concurrency: 8,
    clock: () => instant,
  });
  db.close();
}

await ensureStore();
// Opened as the server opens its store, memory map included: this is what a dynamic answer costs.
const store = StoreReader.open(file, { mapBytes: SERVE_MAP_BYTES });
const clock = () => new Date();
const one = <T>(sql: string): T => store.db.prepare(sql).pluck().get() as T;

const league = 'eng.1';
const date = one<string>(
  `SELECT scoreboard_date FROM matches WHERE league_slug = '${league}' GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1`,
);
const finished = one<string>(
  `SELECT id FROM matches WHERE league_slug = '${league}' AND state = 'post' ORDER BY kickoff DESC LIMIT 1`,
);
const club = one<string>(`SELECT club_id FROM league_clubs WHERE league_slug = '${league}' ORDER BY club_id LIMIT 1`);
const [bigLeague, bigSummary] = store.db
  .prepare('SELECT league_slug, match_id FROM match_summaries ORDER BY length(sections) DESC LIMIT 1')
  .raw()
  .get() as [string, string];
const [longLeague, longStream] = store.db
  .prepare('SELECT league_slug, match_id FROM play_streams ORDER BY count DESC LIMIT 1')
  .raw()
  .get() as [string, string];
const busiest = one<string>('SELECT league_slug FROM matches GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1');

/** The goal's request: a page of 100 events (the default page size), past the first. */
const FIXTURES_PAGE = `/get/soccer/${league}/fixtures?status=finished&page=2`;
const FIXTURES_GOAL_MS = 1;

const CASES: Array<[group: string, url: string]> = [
  ['typical', '/get/soccer/leagues'],
  ['typical', '/get/soccer/meta'],
  ['typical', `/get/soccer/${league}/scoreboard?dates=${date}`],
  ['typical', FIXTURES_PAGE],
  ['typical', `/get/soccer/${league}/events/${finished}`],
  ['typical', `/get/soccer/${league}/events/${finished}/plays`],
  ['typical', `/get/soccer/${league}/events/${finished}/plays?important=true`],
  ['typical', `/get/soccer/${league}/clubs`],
  ['typical', `/get/soccer/${league}/clubs/${club}`],
  ['typical', `/get/soccer/${league}/standings`],
  ['typical', `/get/soccer/${league}/fixtures?status=bogus`],
  ['worst', `/get/soccer/${busiest}/fixtures?limit=200`],
  ['worst', `/get/soccer/${busiest}/fixtures?limit=200&page=2&from=20000101&to=20991231`],
  ['worst', `/get/soccer/${busiest}/fixtures?limit=200&page=10000`],
  ['worst', `/get/soccer/${bigLeague}/events/${bigSummary}`],
  ['worst', `/get/soccer/${longLeague}/events/${longStream}/plays?limit=300`],
  ['worst', `/get/soccer/${longLeague}/events/${longStream}/plays?limit=300&important=true`],
  ['worst', '/openapi.json'],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const fmt = (ms: number) => ms.toFixed(2).padStart(8);
console.log(
  `store ${file}: ${one<number>('SELECT COUNT(*) FROM matches')} matches, ` +
    `${one<number>('SELECT coalesce(SUM(count), 0) FROM play_streams')} plays; ${runs} runs per request\n`,
);
console.log(
  `${'group'.padEnd(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}` +
    `${'max ms'.padStart(8)}${'KiB'.padStart(8)}  request`,
);
for (const [group, url] of CASES) {
  const q = url.indexOf('?');
  const req = {
    method: 'GET',
    path: q === -1 ? url : url.slice(0, q),
    rawQuery: q === -1 ? '' : url.slice(q + 1),
    headers: {},
  };
  let bytes = 0;
  for (let i = 0; i < 20; i++) bytes = render(req, { store, clock }).body.length;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    render(req, { store, clock });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  if (url === FIXTURES_PAGE) {
    const p50 = percentile(times, 50);
    recordGoals({
      figure: 'render of a 100-event fixtures page, p50',
      measured: `${p50.toFixed(2)} ms (${(bytes / 1024).toFixed(0)} KiB)`,
      goal: `≤ ${FIXTURES_GOAL_MS} ms`,
      met: p50 <= FIXTURES_GOAL_MS,
    });
  }
  console.log(
    `${group.padEnd(8)}${fmt(percentile(times, 50))}${fmt(percentile(times, 99))}${fmt(times.at(-1)!)}` +
      `${(bytes / 1024).toFixed(0).padStart(8)}  ${url}`,
  );
}

// Cold aggregates: a fresh connection computes league coverage and store totals on its first request.
const cold: number[] = [];
for (let i = 0; i < 20; i++) {
  const fresh = StoreReader.open(file);
  const t = performance.now();
  render({ method: 'GET', path: '/get/soccer/leagues', rawQuery: '', headers: {} }, { store: fresh, clock });
  render({ method: 'GET', path: '/get/soccer/meta', rawQuery: '', headers: {} }, { store: fresh, clock });
  cold.push(performance.now() - t);
  fresh.close();
}
cold.sort((a, b) => a - b);
console.log(
  `${'cold'.padEnd(8)}${fmt(percentile(cold, 50))}${fmt(percentile(cold, 99))}${fmt(cold.at(-1)!)}${''.padStart(8)}` +
    '  /leagues + /meta on a fresh connection (coverage and totals computed)',
);
store.close();
