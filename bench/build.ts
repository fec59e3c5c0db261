/**
 * Build benchmark (docs/performance.md, the build's part), per demo scale: sync time, full build
 * time and files/s, the full build against a plain `cp -r` of the same tree in the same run
 * (medians of three of each), a no-change rebuild, and each build's peak RSS — measured in a child
 * process per build, so the numbers are the build's own, running the compiled code as `fds build`
 * does (bench/build-child.mjs).
 *
 * Then the publishing loop of `fds live` (docs/publishing.md, "Incremental builds"): from the store
 * synced at the reference noon (a matchday with matches under way), a routine sync one minute later
 * and the incremental build after it — the freshness delay the loop adds — and a routine sync one
 * day later and its build, run in this process as `fds live` runs them (the compiled code, as the
 * full builds). Each as seconds and as a ratio of the full build measured in this run, with the
 * files it rendered and wrote. Build times here are the build's own (its summary), without process
 * start.
 *
 * And the day step as a CI job after each sync makes it: on a copy of the store and the releases as
 * the full build left them, a routine sync one day later, then `fds build` as a process of its own
 * (bin/fds.js, the compiled CLI): the first incremental build after a full one, process start and
 * all, against the full build's time with process start.
 *
 *   npx tsx bench/build.ts [--scales 1,4] [--dir .tmp/bench]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/db.js';
import os from 'node:os';
import { demoReferenceInstant } from '../src/sync/providers/demo/index.js';
import { BENCH_TODAY, syncDemo, syncDemoRoutine } from './demo.js';
import { CLI_RUNS, ORIGIN, RUNS, buildInChild, cliDayStep, fullBuildsAndCopies } from './build-runs.js';
import { recordGoals } from './goals.js';
import { median } from './median.js';
import { textTable } from './table.js';

const { values } = parseArgs({
  options: {
    scales: { type: 'string', default: '1,4' },
    dir: { type: 'string', default: '.tmp/bench' },
    today: { type: 'string', default: BENCH_TODAY },
  },
});

const here = path.dirname(fileURLToPath(import.meta.url));
execFileSync(process.execPath, [path.join(here, '../node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: path.join(here, '..'),
  stdio: 'inherit',
});
// …and bundled, as bin/fds.js runs it (the day step below runs `fds build`).
execFileSync(process.execPath, [path.join(here, '../scripts/bundle.mjs')], { stdio: 'inherit' });
/** The loop builds with the same compiled code, as `fds live` does (and so carries over what the child built). */
const compiled = <T>(module: string): Promise<T> => import(pathToFileURL(path.join(here, '../build', module)).href);
const { build } = await compiled<typeof import('../src/publish/build.js')>('publish/build.js');
const { StoreReader } = await compiled<typeof import('../src/store/read/reader.js')>('store/read/reader.js');
const { SERVE_MAP_BYTES } = await compiled<typeof import('../src/server/store-source.js')>('server/store-source.js');

const HEAP_CAP_MIB = 48;
/** 300 MB, the goal's bound, in the MiB the table prints. */
const PEAK_RSS_MIB = Math.floor(300e6 / 2 ** 20);
/**
 * How much more a larger scale's full build may peak at and still count as not growing: run-to-run
 * noise (single scale-1 builds peaked anywhere from 186 to 204 MiB on one machine in one session), and
 * memory the collector frees. The extra at scale 4 sits in the render workers' malloc arenas (smaps):
 * at the peak of live malloc (heaptrack), short-lived Buffers (bodies, inflated summaries, better-sqlite3's
 * blob copies), freed only when V8 collects them, held ~10 MB more than at scale 1, where each league has
 * a third as many full-size fixtures pages to render one after another. Nothing is held per file or match.
 */
const RSS_GROWTH_PCT = 10;
/** The day step, the no-change rebuild and the live cycle at scale 1 each take at most this long. */
const STEP_GOAL_S = 1;
const s = (x: number) => x.toFixed(1);
/** Seconds for the figures held to a second: one decimal would print 0.96 s as 1.0. */
const s2 = (x: number) => x.toFixed(2);
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
const load = () => os.loadavg()[0]!.toFixed(1);
const rows: string[][] = [];
const peaks: Array<{ scale: number; rssMiB: number }> = [];
const header = [
  'scale',
  'matches',
  'sync s',
  'records/s',
  'files',
  'MB',
  'rules',
  `full build s (median of ${RUNS})`,
  'files/s',
  `cp -r s (median of ${RUNS})`,
  'build ÷ cp',
  // The fastest copy is the one that only copied memory (none of the disk's writeback waited on):
  // the ratio the ≤ 2.0 goal does not hold against, shown so that every run says so.
  'build ÷ fastest cp',
  'no-change s',
  'peak RSS MiB',
  `RSS, ${HEAP_CAP_MIB} MiB heap`,
];
const loopRows: string[][] = [];
const loopHeader = [
  'scale',
  'step',
  'sync s',
  'units',
  'records',
  'build s',
  'rendered',
  'written',
  'deleted',
  'sync+build s',
  'build ÷ full',
  '(sync+build) ÷ full',
  'load',
];
const MINUTE = 60_000;
/** The loop's steady cycles: the minutes after the first two builds, which take the spare and start from an empty tree. */
const STEADY_MINUTES = [3, 4, 5, 6, 7];
const DAY = 86_400_000;
const loadBefore = load();

for (const scale of values.scales!.split(',').map(Number)) {
  const dir = path.resolve(values.dir!, `scale-${scale}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = path.join(dir, 'demo.sqlite');
  const out = path.join(dir, 'dist');
  process.stderr.write(`scale ${scale}: syncing the demo…\n`);
  const synced = await syncDemo(db, values.today!, scale);
  const counter = openStore(db);
  const matches = counter.prepare('SELECT COUNT(*) FROM matches').pluck().get() as number;
  // The store as a function would ship it: its log folded into the file.
  counter.pragma('wal_checkpoint(TRUNCATE)');
  counter.close();
  const storeMB = fs.statSync(db).size / 1e6;

  process.stderr.write(`scale ${scale}: full builds and copies…\n`);
  const { builds, copies } = fullBuildsAndCopies(dir, db, out);
  const full = builds[0]!;
  const cp = median(copies);
  const fastestCp = Math.min(...copies);
  const buildTimes = builds.map((b) => b.seconds);
  const buildSeconds = median(buildTimes);
  const buildRange = `${s(Math.min(...buildTimes))}–${s(Math.max(...buildTimes))}`;
  const peakRss = median(builds.map((b) => b.rssMiB));
  const again = buildInChild(db, out);
  const fullOwn = median(builds.map((b) => b.summary.seconds));
  loopRows.push([String(scale), 'full build', '', '', '', s(fullOwn), String(full.summary.rendered)]);
  loopRows.push([
    ...[String(scale), 'no change', '', '', '', s(again.summary.seconds), '0', '0', '0', s(again.summary.seconds)],
    ...[pct(again.summary.seconds, fullOwn), pct(again.summary.seconds, fullOwn), load()],
  ]);

  const noon = demoReferenceInstant(values.today!).getTime();
  process.stderr.write(`scale ${scale}: routine sync, +1 day, and fds build in a process of its own…\n`);
  const cli = await cliDayStep(dir, db, out, new Date(noon + DAY), scale);
  loopRows.push([
    ...[
      String(scale),
      `+1 day, fds build (${s2(cli.range[0])}–${s2(cli.range[1])})`,
      s(cli.sync.seconds),
      String(cli.sync.units),
    ],
    ...[String(cli.sync.written), s(cli.seconds), cli.rendered, cli.written, '', s(cli.sync.seconds + cli.seconds)],
    ...[pct(cli.seconds, buildSeconds), pct(cli.sync.seconds + cli.seconds, buildSeconds), load()],
  ]);

  // The loop: a minute into the matchday, then a day on (each a routine sync and an incremental build).
  // In one process with one store reader, read through a memory map, and two older releases kept, as
  // `fds live` runs them. The first build after a full one takes the full build's spare, the second
  // starts from an empty tree; from the third on the loop recycles (publish/reuse/recycle.ts), the
  // steady state the live-cycle goal is held to: the median of its five cycles, so one cycle the
  // machine slowed does not decide it.
  const reader = StoreReader.open(db, { mapBytes: SERVE_MAP_BYTES });
  const steadyCycles: number[] = [];
  const minutes = [1, 2, ...STEADY_MINUTES].map((m) => ({
    step: `+${m} minute${m === 1 ? '' : 's'}`,
    at: noon + m * MINUTE,
    steady: STEADY_MINUTES.includes(m),
  }));
  const dayOn = { step: '+1 day', at: minutes.at(-1)!.at + DAY, steady: false };
  for (const { step, at, steady } of [...minutes, dayOn]) {
    process.stderr.write(`scale ${scale}: routine sync and build, ${step}…\n`);
    const sync = await syncDemoRoutine(db, new Date(at), scale);
    const built = await build({ store: reader, out, keepReleases: 2, fallback: ORIGIN });
    const total = sync.seconds + built.seconds;
    if (steady) steadyCycles.push(total);
    loopRows.push([
      ...[String(scale), step, s(sync.seconds), String(sync.units)],
      ...[String(sync.written), s(built.seconds)],
      ...[String(built.rendered), String(built.added + built.changed), String(built.deleted), s(total)],
      ...[pct(built.seconds, fullOwn), pct(total, fullOwn), load()],
    ]);
  }
  reader.close();
  if (scale === 1) {
    recordGoals(
      {
        figure: 'day step: fds build after +1 day, scale 1',
        measured: `${s2(cli.seconds)} s (median of ${CLI_RUNS} runs, ${s2(cli.range[0])}–${s2(cli.range[1])}, process start included)`,
        goal: `≤ ${STEP_GOAL_S} s`,
        met: cli.seconds <= STEP_GOAL_S,
      },
      {
        figure: 'no-change rebuild, scale 1',
        measured: `${s2(again.seconds)} s (process start included)`,
        goal: `≤ ${STEP_GOAL_S} s`,
        met: again.seconds <= STEP_GOAL_S,
      },
      {
        figure: 'live cycle: routine sync + build, a minute on, steady state, scale 1',
        measured: `${s2(median(steadyCycles))} s (median of ${steadyCycles.length} cycles, ${s2(Math.min(...steadyCycles))}–${s2(Math.max(...steadyCycles))})`,
        goal: `≤ ${STEP_GOAL_S} s`,
        met: median(steadyCycles) <= STEP_GOAL_S,
      },
    );
  }
  // V8 grows its heap lazily, so uncapped RSS overstates what a build needs; a full build under a
  // small fixed heap cap shows the live memory does not grow with the store.
  const capped = buildInChild(db, path.join(dir, 'dist-capped'), true, HEAP_CAP_MIB);
  recordGoals(
    ...(scale === 1
      ? [{ figure: 'store size, scale 1', measured: `${s(storeMB)} MB`, goal: '≤ 200 MB', met: storeMB <= 200 }]
      : []),
    {
      figure: `full build ÷ cp -r, scale ${scale}`,
      measured: `${s(buildSeconds)} ÷ ${s(cp)} s = ${(buildSeconds / cp).toFixed(2)} (medians of ${RUNS})`,
      goal: '≤ 2.0',
      met: buildSeconds / cp <= 2,
    },
  );
  peaks.push({ scale, rssMiB: peakRss });
  rows.push([
    String(scale),
    String(matches),
    s(synced.seconds),
    String(Math.round(synced.written / synced.seconds)),
    String(full.summary.files),
    s(full.summary.bytes / 1e6),
    String(full.summary.rules?.total ?? 0),
    `${s(buildSeconds)} (${buildRange})`,
    String(Math.round(full.summary.files / buildSeconds)),
    s(cp),
    s(buildSeconds / cp),
    s(buildSeconds / fastestCp),
    s(again.seconds),
    `${peakRss.toFixed(0)} (${builds.map((m) => m.rssMiB.toFixed(0)).join(', ')}) / ${again.rssMiB.toFixed(0)}`,
    capped.rssMiB.toFixed(0),
  ]);
}

/** Peak RSS of each scale's full build, for the goal that it stays within 300 MB and does not grow. */
const largestPeak = Math.max(...peaks.map((p) => p.rssMiB));
if (peaks.length) {
  recordGoals({
    figure: `peak RSS, full build, scale ${peaks.map((p) => p.scale).join(' / ')}`,
    measured: `${peaks.map((p) => p.rssMiB.toFixed(0)).join(' / ')} MiB`,
    goal: `≤ 300 MB (${PEAK_RSS_MIB} MiB)`,
    met: largestPeak <= PEAK_RSS_MIB,
  });
}
// Growth needs a second scale to show (`--scales 1` alone says nothing of it).
if (peaks.length > 1) {
  const first = peaks[0]!;
  const growth = largestPeak - first.rssMiB;
  recordGoals({
    figure: `peak RSS growth, scale ${first.scale} → ${peaks.at(-1)!.scale}`,
    measured: `${growth.toFixed(0)} MiB (${pct(growth, first.rssMiB)})`,
    // The data grows fourfold: growth that followed it would show as tens of percent.
    goal: `does not grow (≤ ${RSS_GROWTH_PCT} % for noise)`,
    met: largestPeak <= first.rssMiB * (1 + RSS_GROWTH_PCT / 100),
  });
}

function table(title: string, head: string[], body: string[][]): void {
  console.log(`\n${title}\n${textTable(head, body)}`);
}

table(
  `build (demo provider; times include process start; peak RSS: the median of the ${RUNS} full builds (each in brackets) / the no-change build)`,
  header,
  rows,
);
table(
  `publishing loop (fds live): routine sync + incremental build in one process; build times are the build's own; ` +
    `${os.availableParallelism()} cores, load average ${loadBefore} at the start`,
  loopHeader,
  loopRows,
);
console.log(
  '"+1 day, fds build": a day after the full build, on a copy of its store and releases, `fds build` as a process ' +
    'of its own (process start included, against the full build with process start): the first incremental build ' +
    `after a full one, as a CI job makes it after each sync; the median of ${CLI_RUNS} runs (fastest–slowest in brackets), ` +
    'each from the releases as the full build left them',
);
