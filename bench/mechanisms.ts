/**
 * What each speed mechanism gains on its own (docs/performance.md): `fds build` after a routine sync,
 * as a process of its own, with every mechanism on and with each one switched off (FDS_WITHOUT,
 * src/util/switches.ts), the configurations taken in turn round after round, each run from the same
 * releases. Two steps from the loop's steady state (three releases kept, as after a few cycles): a
 * minute of a live matchday and a day on; and the first build after a full one, as a CI job with no
 * cached releases but the full build's makes it.
 *
 *   npx tsx bench/mechanisms.ts [--scale 1] [--runs 15] [--only recycle,day-worker] [--dir .tmp/bench]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { currentRelease, releaseLayout } from '../src/release/layout.js';
import { demoReferenceInstant } from '../src/sync/providers/demo/index.js';
import { MECHANISMS, WITHOUT_ENV } from '../src/util/switches.js';
import { ORIGIN } from './build-runs.js';
import { BENCH_TODAY, syncDemo, syncDemoRoutine } from './demo.js';
import { median } from './median.js';
import { textTable } from './table.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    runs: { type: 'string', default: '15' },
    only: { type: 'string' },
    dir: { type: 'string', default: '.tmp/bench' },
  },
});
const scale = Number(values.scale);
const runs = Number(values.runs);
const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '../bin/fds.js');
const root = path.resolve(values.dir!, `mechanisms-${scale}`);
const mechanisms = values.only ? values.only.split(',') : [...MECHANISMS];
const unknown = mechanisms.filter((m) => !(MECHANISMS as readonly string[]).includes(m));
if (unknown.length) {
  console.error(`--only: no mechanism ${unknown.join(', ')} (there are: ${MECHANISMS.join(', ')})`);
  process.exit(2);
}

execFileSync(process.execPath, [path.join(here, '../node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: path.join(here, '..'),
  stdio: 'inherit',
});
execFileSync(process.execPath, [path.join(here, '../scripts/bundle.mjs')], { stdio: 'inherit' });

function fdsBuild(db: string, out: string, env: NodeJS.ProcessEnv = {}): { seconds: number; stdout: string } {
  const started = performance.now();
  const res = spawnSync(process.execPath, [BIN, 'build', '--db', db, '--out', out, '--fallback', ORIGIN], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  if (res.status !== 0) throw new Error(`fds build failed: ${res.stderr}`);
  return { seconds: (performance.now() - started) / 1000, stdout: res.stdout };
}

/** A copy of a store file (its log folded in first, by the sync that closed it). */
const copyStore = (from: string, to: string) => fs.copyFileSync(from, to);

/** Saved releases, restored as hard links before each run (as the full build or the loop left them). */
function saveReleases(out: string, to: string) {
  fs.rmSync(to, { recursive: true, force: true });
  execFileSync('cp', ['-al', releaseLayout(out).root, to]);
  return { root: to, published: path.basename(currentRelease(out)!) };
}

function restore(saved: { root: string; published: string } | null, dir: string): string {
  const out = path.join(dir, 'dist');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (!saved) return out;
  execFileSync('cp', ['-al', saved.root, releaseLayout(out).root]);
  fs.symlinkSync(path.join(path.basename(releaseLayout(out).root), saved.published), out);
  return out;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
fs.rmSync(root, { recursive: true, force: true });
fs.mkdirSync(root, { recursive: true });
const db = path.join(root, 'demo.sqlite');
const out = path.join(root, 'dist');
process.stderr.write(`scale ${scale}: syncing the demo and building in full…\n`);
await syncDemo(db, BENCH_TODAY, scale);
fdsBuild(db, out);
const noon = demoReferenceInstant(BENCH_TODAY).getTime();

interface Step {
  name: string;
  db: string;
  /** null: a full build into an empty directory. */
  releases: { root: string; published: string } | null;
  /** The mechanisms that act on this step. */
  mechanisms: readonly string[];
}
/** Only a build that renders much runs with the bounded heap; every other mechanism is an incremental build's. */
const FULL_ONLY = ['bounded-heap'];
const incremental = mechanisms.filter((m) => !FULL_ONLY.includes(m));
const full = mechanisms.filter((m) => FULL_ONLY.includes(m));
const steps: Step[] = [];
// The first build after a full one, a day on.
const firstDb = path.join(root, 'first.sqlite');
copyStore(db, firstDb);
await syncDemoRoutine(firstDb, new Date(noon + DAY), scale);
const afterFull = saveReleases(out, path.join(root, 'saved-full'));
if (full.length) steps.push({ name: 'full build', db, releases: null, mechanisms: full });
steps.push({ name: 'first after full, +1 day', db: firstDb, releases: afterFull, mechanisms: incremental });
// The loop's steady state: two cycles after the full build, so the releases a loop keeps are there.
for (const at of [noon + MINUTE, noon + 2 * MINUTE]) {
  await syncDemoRoutine(db, new Date(at), scale);
  fdsBuild(db, out);
}
const steady = saveReleases(out, path.join(root, 'saved-steady'));
const minuteDb = path.join(root, 'minute.sqlite');
copyStore(db, minuteDb);
await syncDemoRoutine(minuteDb, new Date(noon + 3 * MINUTE), scale);
steps.push({ name: 'steady, +1 minute', db: minuteDb, releases: steady, mechanisms: incremental });
const dayDb = path.join(root, 'day.sqlite');
copyStore(db, dayDb);
await syncDemoRoutine(dayDb, new Date(noon + 2 * MINUTE + DAY), scale);
steps.push({ name: 'steady, +1 day', db: dayDb, releases: steady, mechanisms: incremental });

const rows: string[][] = [];
for (const step of steps) {
  const configs = ['', ...step.mechanisms];
  process.stderr.write(`${step.name}: ${runs} rounds of ${configs.length} builds…\n`);
  const times = new Map<string, number[]>(configs.map((c) => [c, []]));
  const ratios = new Map<string, number[]>(configs.map((c) => [c, []]));
  let rendered = '';
  for (let round = 0; round < runs; round++) {
    const order = configs.map((_, i) => configs[(i + round) % configs.length]!);
    const seen = new Map<string, number>();
    for (const config of order) {
      const out = restore(step.releases, path.join(root, 'run'));
      const { seconds, stdout } = fdsBuild(step.db, out, { [WITHOUT_ENV]: config });
      if (!config) rendered = /(incremental: [^;]*|nothing changed[^;]*)/.exec(stdout)?.[1] ?? stdout.trim();
      seen.set(config, seconds);
      times.get(config)!.push(seconds);
    }
    for (const config of configs) ratios.get(config)!.push(seen.get(config)! / seen.get('')!);
  }
  const base = median(times.get('')!);
  for (const config of configs) {
    const t = times.get(config)!;
    const ratio = median(ratios.get(config)!);
    rows.push([
      step.name,
      config ? `without ${config}` : 'all on',
      median(t).toFixed(3),
      `${Math.min(...t).toFixed(3)}–${Math.max(...t).toFixed(3)}`,
      config ? ratio.toFixed(3) : '',
      config ? `${Math.min(...ratios.get(config)!).toFixed(3)}–${Math.max(...ratios.get(config)!).toFixed(3)}` : '',
      config ? `${((1 - 1 / ratio) * 100).toFixed(1)} %` : '',
    ]);
  }
  process.stderr.write(`${step.name}: all on ${base.toFixed(3)} s (${rendered})\n`);
}
fs.rmSync(path.join(root, 'run'), { recursive: true, force: true });
console.log(
  `\nspeed mechanisms, demo scale ${scale}: \`fds build\` as a process, median of ${runs} rounds taken in turn\n` +
    textTable(['step', 'configuration', 'median s', 'range s', 'off ÷ on', 'off ÷ on, range', 'gain'], rows, 2),
);
console.log('gain: the share of the build without the mechanism that the mechanism saves (median of per-round ratios)');
