/**
 * The builds bench/build.ts measures, each in a child process of its own, as `fds build` runs them,
 * and the day step as a CI job runs `fds build` after a sync. The compiled code they run is compiled
 * by bench/build.ts first.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NetlifyBuildSummary as BuildSummary } from '../src/netlify/build.js';
import { currentRelease, releaseLayout } from '../src/release/layout.js';
import { openStore } from '../src/store/db.js';
import { syncDemoRoutine } from './demo.js';
import type { DemoWeight } from '../src/sync/providers/demo/index.js';
import { median } from './median.js';
import { BUILD_HEAP_FLAGS, BUILD_MALLOC_ENV } from '../src/cli/build-heap.js';

/**
 * Builds send what they did not pre-render to an origin: the scale-4 store is too large for the
 * Netlify Function (the build would refuse, docs/deploying.md, "Netlify's limits"), and every scale
 * is built the same way.
 */
export const ORIGIN = 'https://origin.example';

export interface Measured {
  summary: BuildSummary;
  seconds: number;
  rssMiB: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** Builds measured in a child run the compiled code, as `fds build` does: bench/build.ts compiles it first, so it is this code. */
const CHILD = path.join(here, 'build-child.mjs');

/** Full builds, and copies of the first one's tree with `cp -r`, timed at each scale: the medians reported. */
export const RUNS = 3;

function time(fn: () => void): number {
  const started = performance.now();
  fn();
  return (performance.now() - started) / 1000;
}

/** One build in a child process: its summary, its time with process start, and the child's peak RSS. */
export function buildInChild(db: string, out: string, full = false, heapMiB?: number): Measured {
  const started = performance.now();
  // As `fds build` runs (bin/fds.js, build-heap.ts), and the smaller cap when asked for (a later flag wins).
  const heap = [...BUILD_HEAP_FLAGS, ...(heapMiB ? [`--max-old-space-size=${heapMiB}`] : [])];
  const args = [...heap, CHILD, '--db', db, '--out', out, '--fallback', ORIGIN, ...(full ? ['--full'] : [])];
  const env = { ...BUILD_MALLOC_ENV, ...process.env };
  const res = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24, env });
  if (res.status !== 0) throw new Error(`build failed: ${res.stderr}`);
  const { summary, maxRssKiB } = JSON.parse(res.stdout) as { summary: BuildSummary; maxRssKiB: number };
  return { summary, seconds: (performance.now() - started) / 1000, rssMiB: maxRssKiB / 1024 };
}

/** Runs of the day step as a process of its own, each on a fresh copy of the releases: the median is reported. */
export const CLI_RUNS = 9;

/**
 * The first incremental build after the full one, one day later, as `fds build` runs on its own: on
 * a copy of the store and of the releases (hard links), so the loop bench/build.ts runs next starts from the same state.
 * The store is synced once; each run starts from a fresh copy of the releases as the full build left
 * them. A run of about a second moves by ±10 % with what the disk is writing back (docs/performance.md).
 */
export async function cliDayStep(dir: string, db: string, out: string, at: Date, scale: number, weight?: DemoWeight) {
  const side = path.join(dir, 'cli');
  fs.rmSync(side, { recursive: true, force: true });
  fs.mkdirSync(side);
  const sideDb = path.join(side, 'demo.sqlite');
  // The store's file as it is (its log checkpointed into it first), not a VACUUM INTO copy: a
  // compacted store made the day step ~4 % faster than the store a CI job has synced in place.
  const store = openStore(db);
  store.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  fs.copyFileSync(db, sideDb);
  const sync = await syncDemoRoutine(sideDb, at, scale, weight);
  const root = path.join(dir, '.dist.releases');
  const runs: Array<{ seconds: number; rendered: string; written: string }> = [];
  for (let run = 0; run < CLI_RUNS; run++) {
    const releases = path.join(side, '.dist.releases');
    const sideOut = path.join(side, 'dist');
    fs.rmSync(releases, { recursive: true, force: true });
    fs.rmSync(sideOut, { force: true });
    execFileSync('cp', ['-al', root, releases]);
    fs.symlinkSync(path.join('.dist.releases', path.basename(currentRelease(out)!)), sideOut);
    const started = performance.now();
    const res = spawnSync(
      process.execPath,
      [path.join(here, '../bin/fds.js'), 'build', '--db', sideDb, '--out', sideOut, '--fallback', ORIGIN],
      { encoding: 'utf8' },
    );
    const seconds = (performance.now() - started) / 1000;
    if (res.status !== 0) throw new Error(`fds build failed: ${res.stderr}`);
    const rendered = /incremental: (\d[\d,]*) rendered: (\d[\d,]*) written/.exec(res.stdout);
    // At a small scale a day may bring no match into the sync's window: nothing to build is an answer too.
    const unchanged = /: nothing changed since the published build/.test(res.stdout);
    if (!rendered && !unchanged) throw new Error(`fds build did not build incrementally: ${res.stdout}`);
    const count = (s: string) => s.replaceAll(',', '');
    runs.push({
      seconds,
      rendered: rendered ? count(rendered[1]!) : '0',
      written: rendered ? count(rendered[2]!) : '0',
    });
  }
  fs.rmSync(side, { recursive: true, force: true });
  const seconds = runs.map((r) => r.seconds);
  return { sync, ...runs[0]!, seconds: median(seconds), range: [Math.min(...seconds), Math.max(...seconds)] as const };
}

/**
 * A scale's full builds, and copies of the first one's tree with `cp -r`, `RUNS` of each, taken in
 * turn, each into space the one before freed (as the first build writes into the space the scale's
 * directory freed when it was cleared); the caller reports the median of each. Either moves by 2× and
 * more on this disk as the kernel finds memory for it: single copies took 0.5–6.0 s at scale 1 and up
 * to 8.7 s at scale 4, and single full builds at scale 1 took 2.8–6.4 s. The first build goes into
 * `out`; the later ones into directories of their own, as new as the first build's, so none starts
 * from a release it could reuse (removed once measured).
 */
export function fullBuildsAndCopies(dir: string, db: string, out: string): { builds: Measured[]; copies: number[] } {
  const builds: Measured[] = [buildInChild(db, out)];
  const copies: number[] = [];
  const copy = path.join(dir, 'copy');
  for (let run = 0; run < RUNS; run++) {
    copies.push(time(() => execFileSync('cp', ['-r', currentRelease(out)!, copy])));
    fs.rmSync(copy, { recursive: true, force: true });
    if (builds.length === RUNS) break;
    const side = path.join(dir, `dist-full-${run + 2}`);
    builds.push(buildInChild(db, side));
    fs.rmSync(releaseLayout(side).root, { recursive: true, force: true });
    fs.rmSync(side, { force: true });
  }
  return { builds, copies };
}

/** One function's share of a CPU profile: where it is, and the milliseconds sampled in it. */
export interface ProfileLine {
  where: string;
  ms: number;
}

/**
 * `fn` run under V8's sampling profiler (this thread only), and where its time went: milliseconds of
 * self time by function and by part of the code (a folder of src/, Node's own, the collector, idle),
 * most first. The whole profile is written to `file` (open it in Chrome's DevTools).
 */
export async function profiled<T>(
  file: string,
  fn: () => Promise<T>,
): Promise<{ result: T; byFunction: ProfileLine[]; byPart: ProfileLine[]; totalMs: number }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  let result: T | undefined;
  let failed: unknown = null;
  try {
    result = await fn();
  } catch (err) {
    failed = err ?? new Error('failed');
  }
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  if (failed) throw failed;
  fs.writeFileSync(file, JSON.stringify(profile));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the delta to the next one.
  for (let i = 0; i < samples.length; i++) {
    const next = deltas[i + 1] ?? 0;
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + next / 1000);
  }
  const byFunction = new Map<string, number>();
  const byPart = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const file = url.replace(/^file:\/\//, '');
    const src = /\/(?:src|build)\/(.+)$/.exec(file)?.[1];
    const part = !url
      ? functionName || '(anonymous)'
      : src
        ? src.split('/').slice(0, -1).join('/') || src
        : url.startsWith('node:')
          ? 'node:internal'
          : (/node_modules\/([^/]+)/.exec(file)?.[1] ?? path.basename(file));
    const name = `${functionName || '(anonymous)'} ${src ?? path.basename(file)}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byPart.set(part, (byPart.get(part) ?? 0) + ms);
    totalMs += ms;
  }
  const top = (m: Map<string, number>) => [...m].map(([where, ms]) => ({ where, ms })).sort((a, b) => b.ms - a.ms);
  return { result: result as T, byFunction: top(byFunction), byPart: top(byPart), totalMs };
}
