/**
 * How old an answer at the edge is, end to end, for `fds live` behind Varnish (deploy/varnish/fds.vcl):
 * a change in the world waits for the next cycle (on average half the interval), then the cycle's
 * sync and build, then the purge, then the cache's next fetch (the visibility lag). Runs the demo at
 * --every (default 15 s) for a few cycles, takes cycle and purge times from the cycle lines and the
 * lag from clients polling through Varnish, and prints the sum for the demo's cadence and ESPN's
 * (60 s; its sync also waits on ESPN's HTTP answers, which this does not measure).
 *
 *   node --import tsx bench/edge-age.ts [--every 15] [--cycles 4] [--leagues eng.1,esp.1]
 *
 * Needs varnishd and the xkey vmod (Debian: varnish, varnish-modules); without them, or without
 * `fds live --purge`, it measures the cycles alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt, hotUrls, measureEdge, startLive } from '../test/deploy/live-edge.js';
import { freePort, percentile, startVarnish, varnishMissing } from '../test/deploy/varnish-helpers.js';
import type { Varnish } from '../test/deploy/varnish-helpers.js';

const { values } = parseArgs({
  options: {
    every: { type: 'string', default: '15' },
    cycles: { type: 'string', default: '4' },
    leagues: { type: 'string' },
  },
});
const every = Number(values.every);
const cycles = Number(values.cycles);

ensureBuilt();
const noVarnish = varnishMissing();
const withEdge = !noVarnish;
if (!withEdge) console.log(`edge-age: measuring the cycles alone (${noVarnish})`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-edge-age-'));
const port = await freePort();
let varnish: Varnish | undefined;
const args = ['--provider', 'demo', '--db', path.join(dir, 'store.sqlite'), '--out', path.join(dir, 'dist')];
args.push('--every', String(every), '--no-request-log');
if (values.leagues) args.push('--leagues', values.leagues);
if (withEdge) {
  varnish = await startVarnish(port);
  args.push('--no-rate-limiting', '--purge', `varnish:${varnish.url}/`);
}

const live = await startLive(args, port, 600_000);
try {
  let lags: number[] = [];
  if (varnish) {
    const v = varnish;
    const league = values.leagues?.split(',')[0] ?? 'eng.1';
    const { urls } = await hotUrls(live.url, league);
    const run = await measureEdge({
      edge: v.url,
      origin: live.url,
      urls,
      clients: 4,
      seconds: cycles * every + 2,
      settleMs: 2000,
      originRequests: async () => (await v.counters('backend_req')).backend_req!,
    });
    lags = run.lags;
  }
  // Cycle 1 is the full sync before the server starts; the routine cycles 2.. are what is measured.
  await live.waitFor(new RegExp(`^cycle ${cycles + 1} `), (cycles + 2) * every * 1000 + 60_000);
  const lines = live.cycles().filter((l) => Number(/^cycle (\d+) /.exec(l.text)?.[1]) >= 2);
  const cycleSeconds = lines.map((l) => Number(/([\d.]+)s in all/.exec(l.text)?.[1] ?? Number.NaN));
  const purgeMs = lines
    .map((l) => /purged \d+ tags? in (\d+) ms|varnish[^;]*? \d+ tags? in (\d+) ms/.exec(l.text))
    .filter((m) => m !== null)
    .map((m) => Number(m[1] ?? m[2]));
  const cycleS = percentile(cycleSeconds, 50);
  const purgeS = purgeMs.length ? percentile(purgeMs, 50) / 1000 : 0;
  const lagS = lags.length ? percentile(lags.filter(Number.isFinite), 50) / 1000 : 0;

  console.log(`\n${lines.length} cycles at --every ${every}:`);
  for (const l of lines) console.log(`  ${l.text}`);
  console.log(
    `\ncycle (sync + build) p50 ${cycleS.toFixed(2)} s; purge p50 ${purgeMs.length ? `${purgeS * 1000} ms` : 'n/a'}; ` +
      `edge visibility lag p50 ${lags.length ? `${Math.round(lagS * 1000)} ms over ${lags.length} publishes` : 'n/a'}`,
  );
  console.log('\n| cadence | wait for the cycle (interval/2) | cycle | purge | edge lag | mean age at the edge |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, interval] of [
    [`demo (--every ${every})`, every],
    ['ESPN (60 s)', 60],
  ] as const) {
    const age = interval / 2 + cycleS + purgeS + lagS;
    console.log(
      `| ${name} | ${(interval / 2).toFixed(1)} s | ${cycleS.toFixed(2)} s | ${(purgeS * 1000).toFixed(0)} ms | ` +
        `${(lagS * 1000).toFixed(0)} ms | ${age.toFixed(1)} s (worst ${(interval + cycleS + purgeS + lagS).toFixed(1)} s) |`,
    );
  }
} finally {
  await live.stop();
  await varnish?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
