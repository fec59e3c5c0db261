/**
 * `npm run bench`: every benchmark, one after another, in one run (CONTRACT §8). Each is its own
 * script, runnable alone; this runner only sequences them and stops at the first failure.
 */
import { spawnSync } from 'node:child_process';

const BENCHES: Array<{ name: string; script: string; args?: string[] }> = [
  // Sync throughput, full/incremental build, build ÷ cp -r, peak RSS at scale 1 and 4.
  { name: 'build', script: 'bench/build.ts' },
  // Dynamic render latency of the render core, in process.
  { name: 'api render', script: 'bench/api-render.ts', args: ['--db', '.tmp/bench/scale-1/demo.sqlite'] },
  // Server throughput/latency: static hits and dynamic renders of `fds serve`, next to nginx (or serve-handler).
  {
    name: 'server',
    script: 'bench/serve.ts',
    args: ['--db', '.tmp/bench/scale-1/demo.sqlite', '--dist', '.tmp/bench/scale-1/dist'],
  },
];

for (const bench of BENCHES) {
  process.stderr.write(`\n== ${bench.name} ==\n`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', bench.script, ...(bench.args ?? [])], {
    stdio: 'inherit',
  });
  if (res.status !== 0) {
    process.stderr.write(`bench ${bench.name} failed (exit ${res.status})\n`);
    process.exit(1);
  }
}
