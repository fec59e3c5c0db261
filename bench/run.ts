/**
 * `npm run bench`: every benchmark, one after another, in one run (docs/performance.md). Each is
 * its own script, runnable alone; this runner sequences them, stops at the first failure, and ends
 * with the goals each recorded (goals.ts), met or not.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GOALS_FILE_ENV, goalsTable, readGoals } from './goals.js';

const BENCHES: Array<{ name: string; script: string; args?: string[] }> = [
  // At real weight, scale 1 and 2: sync throughput, full/incremental build, build ÷ cp -r, the store, peak RSS.
  { name: 'build', script: 'bench/build.ts' },
  // Dynamic render latency of the render core, in process.
  { name: 'api render', script: 'bench/api-render.ts', args: ['--db', '.tmp/bench/scale-1/demo.sqlite'] },
  // Server throughput/latency: static hits and dynamic renders of `fds serve`, next to nginx (or serve-handler).
  {
    name: 'server',
    script: 'bench/serve.ts',
    args: ['--db', '.tmp/bench/scale-1/demo.sqlite', '--dist', '.tmp/bench/scale-1/dist'],
  },
  // The Netlify Function as Netlify's bundler packs it: archive size and cold start, one season and three.
  {
    name: 'function, one season',
    script: 'bench/function-cold.ts',
    args: ['--db', '.tmp/bench/scale-1/demo.sqlite', '--runs', '3'],
  },
  { name: 'function, three seasons', script: 'bench/function-cold.ts', args: ['--seasons', '3', '--runs', '3'] },
  // What a Netlify deploy uploads after one demo minute of a matchday, against the first deploy.
  { name: 'deploy upload', script: 'bench/deploy-upload.ts' },
  // fds live behind Varnish: how old an answer at the edge is, end to end.
  { name: 'edge age', script: 'bench/edge-age.ts' },
  // fds live --provider espn behind Varnish: a goal at the loopback ESPN to a client answer, at 10 s and 5 s cycles.
  { name: 'espn edge age', script: 'bench/espn-edge.ts' },
  // What the ESPN sync asks on a busy matchday of 16 leagues, per live cycle and per hour.
  { name: 'espn request bill', script: 'bench/espn-bill.ts' },
];

const goalsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-bench-goals-'));
const goalsFile = path.join(goalsDir, 'goals.ndjson');
try {
  for (const bench of BENCHES) {
    process.stderr.write(`\n== ${bench.name} ==\n`);
    const res = spawnSync(process.execPath, ['--import', 'tsx', bench.script, ...(bench.args ?? [])], {
      stdio: 'inherit',
      env: { ...process.env, [GOALS_FILE_ENV]: goalsFile },
    });
    if (res.status !== 0) {
      process.stderr.write(`bench ${bench.name} failed (exit ${res.status})\n`);
      process.exitCode = 1;
      break;
    }
  }
  if (!process.exitCode)
    console.log(`\ngoals (docs/performance.md), as this run measured them\n${goalsTable(readGoals(goalsFile))}`);
} finally {
  fs.rmSync(goalsDir, { recursive: true, force: true });
}
