/**
 * Server benchmark (CONTRACT §8, server part): `fds serve` answering from a build (static hits) and
 * from an empty directory (every request rendered from the store), next to a static baseline — nginx
 * when installed, else serve-handler — on the same files and the same sampled requests, all measured
 * in this run. Prints req/s, p50 and p99 at saturation (32 connections), p50/p99 at a fixed 1k req/s,
 * the ratios to the baseline, and the goals next to them. Timings are printed, never asserted.
 *
 *   node --import tsx bench/serve.ts [--db F --dist D] [--requests 2000] [--broad 5000] [--seconds 6] [--rounds 3] [--without nginx,wrk]
 *
 * `--broad`: a second, larger sample (115 MB at scale 1, more than the server's default 64 MiB of
 * hot-file memory holds), sent to the baseline and to an fds static server of its own: what a client asking for
 * more files than are hot (a crawler, a mirror) gets. Not a goal of the issue; shown so that every
 * run says what the hot-file memory does not cover.
 *
 * Saturated rates are the median of `--rounds` runs per target, the targets taken in turn in each
 * round: a single 6 s run of one server then another varied by ±7 % from run to run on 2 cores. The
 * paced runs take rounds the same way, and the p99 judged is the round with the median p99.
 *
 * Without a store at --db (or a build at --dist) a scale-1 demo store and its build are made first.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { currentRelease } from '../src/publish/release.js';
import { DEFAULT_CACHE_BYTES } from '../src/server/file-bodies.js';
import { Children } from './children.js';
import { ensureDemoBuild } from './demo.js';
import { recordGoals } from './goals.js';
import { median, medianBy } from './median.js';
import type { LoadResult } from './load.js';
import { autocannonGenerator, paced, wrk } from './load.js';
import { sampleRequests } from './requests.js';
import { textTable } from './table.js';
import type { SampledRequest } from './requests.js';
import {
  NGINX_CEILING_PATH,
  findExecutable,
  fdsCommand,
  startFds,
  startNginx,
  startNodeStatic,
} from './serve-targets.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.tmp/bench/scale-1/demo.sqlite' },
    dist: { type: 'string', default: '.tmp/bench/scale-1/dist' },
    requests: { type: 'string', default: '2000' },
    // A second sample, larger than the server's default hot-file memory holds (DEFAULT_CACHE_BYTES): 0 leaves it out.
    broad: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '1' },
    connections: { type: 'string', default: '32' },
    threads: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '6' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    rate: { type: 'string', default: '1000' },
    'rate-seconds': { type: 'string', default: '5' },
    // `nginx` and/or `wrk`: measure with the fallbacks even when these are installed.
    without: { type: 'string', default: '' },
  },
});

function positive(name: keyof typeof values, zero = false): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < (zero ? 0 : 1))
    throw new Error(`--${name} must be a ${zero ? 'whole number' : 'positive integer'}`);
  return n;
}
const opts = {
  requests: positive('requests'),
  broad: positive('broad', true),
  seed: positive('seed'),
  connections: positive('connections'),
  threads: positive('threads'),
  seconds: positive('seconds'),
  warmup: positive('warmup'),
  rounds: positive('rounds'),
  rate: positive('rate'),
  rateSeconds: positive('rate-seconds'),
};
const without = new Set(values.without!.split(',').filter(Boolean));

interface Target {
  label: string;
  port: number;
  paths: string[];
  /** Also measured at the fixed rate (the broad sample is measured saturated only). */
  paced: boolean;
  /**
   * The sampled requests `paths` stand for, in the same order: each is checked to answer 200 with its
   * file's bytes before anything is timed. None for the ceiling.
   */
  sample: SampledRequest[];
}

interface Measured {
  target: Target;
  /** The median of `rounds` by rate. */
  saturated: LoadResult;
  /** The median of `rateRounds` by p99 (null: not paced). */
  atRate: LoadResult | null;
  rounds: LoadResult[];
  rateRounds: LoadResult[];
}

const CACHE_MIB = DEFAULT_CACHE_BYTES / 2 ** 20;

/** How much of a sample of `bytes` the server's default hot-file memory holds. */
function memoryShare(bytes: number): string {
  if (bytes <= DEFAULT_CACHE_BYTES) return `the default ${CACHE_MIB} MiB of hot-file memory holds it all`;
  return `more than the default ${CACHE_MIB} MiB of hot-file memory holds: up to ${Math.round((100 * DEFAULT_CACHE_BYTES) / bytes)} % of it`;
}

const GOALS = { static: { ratio: 0.5, p99Ms: 5 }, dynamic: { ratio: 0.08, p99Ms: 10 } };

function get(agent: http.Agent, port: number, target: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: target, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** Every sampled request answers 200 on every target (else there is nothing to time); counts byte mismatches. */
async function check(target: Target, release: string): Promise<number> {
  const { sample } = target;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let differ = 0;
  const failed: string[] = [];
  try {
    for (let i = 0; i < sample.length; i += 8) {
      await Promise.all(
        sample.slice(i, i + 8).map(async (s, j) => {
          const url = target.paths[i + j]!;
          const answer = await get(agent, target.port, url);
          if (answer.status !== 200) failed.push(`${answer.status} ${url}`);
          else if (!answer.body.equals(fs.readFileSync(path.join(release, s.file)))) differ++;
        }),
      );
    }
  } finally {
    agent.destroy();
  }
  if (failed.length) {
    throw new Error(
      `${target.label}: ${failed.length} sampled requests did not answer 200, e.g. ${failed.slice(0, 3).join('; ')}`,
    );
  }
  return differ;
}

function versionOf(bin: string): string {
  const out = spawnSync(bin, ['-v'], { encoding: 'utf8' });
  return /nginx\/(\S+)/.exec(`${out.stderr}${out.stdout}`)?.[1] ?? '';
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const int = (x: number) => Math.round(x).toLocaleString('en-US');

const children = new Children();
process.on('exit', () => children.killAllNow());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    children.killAllNow();
    process.exit(128 + os.constants.signals[signal]);
  });
}

const loadBefore = os.loadavg()[0]!.toFixed(1);
const db = path.resolve(values.db!);
const dist = path.resolve(values.dist!);
await ensureDemoBuild(db, dist, 1);
const release = currentRelease(dist)!;
const sample = sampleRequests(release, opts.requests, opts.seed);
const meanBytes = Math.round(sample.reduce((sum, s) => sum + s.bytes, 0) / sample.length);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-servebench-'));

try {
  const nginxBin = without.has('nginx') ? null : findExecutable(['/usr/sbin/nginx', '/usr/local/sbin/nginx']);
  const wrkBin = without.has('wrk') ? null : findExecutable(['/usr/bin/wrk', '/usr/local/bin/wrk']);
  const generator = wrkBin ? wrk(wrkBin, opts.threads, children, scratch) : autocannonGenerator;
  const fds = fdsCommand();
  const kB = `${(meanBytes / 1000).toFixed(1)} kB`;

  // A static server is sent each request's file URL, fds its API URL; a ceiling target is checked for nothing.
  const targetOf =
    (url: (s: SampledRequest) => string) =>
    (label: string, port: number, asked: SampledRequest[], paced: boolean): Target => ({
      label,
      port,
      paths: asked.map(url),
      sample: asked,
      paced,
    });
  const ofFiles = targetOf((s) => s.fileUrl);
  const ofApi = targetOf((s) => s.api);
  const targets: Target[] = [];
  let baselineName: string;
  let baselinePort: number;
  if (nginxBin) {
    const ceilingFile = path.join(scratch, 'ceiling.json');
    fs.writeFileSync(ceilingFile, Buffer.alloc(meanBytes, 'x'));
    const nginx = await startNginx(children, nginxBin, { scratch, root: release, ceilingFile });
    baselineName = `nginx ${versionOf(nginxBin)}`.trim();
    baselinePort = nginx.port;
    const label = `ceiling: nginx, one ${kB} file`;
    targets.push({ label, port: nginx.port, paths: [NGINX_CEILING_PATH], sample: [], paced: false });
  } else {
    const ceiling = await startNodeStatic(children, { bytes: meanBytes });
    baselineName = 'serve-handler';
    baselinePort = (await startNodeStatic(children, { dir: release })).port;
    const label = `ceiling: node:http, constant ${kB}`;
    targets.push({ label, port: ceiling.port, paths: ['/'], sample: [], paced: false });
  }
  targets.push(ofFiles(baselineName, baselinePort, sample, true));
  const staticFds = await startFds(children, fds, { db, dir: dist });
  const emptyDir = path.join(scratch, 'no-build');
  fs.mkdirSync(emptyDir);
  const dynamicFds = await startFds(children, fds, { db, dir: emptyDir });
  targets.push(ofApi('fds static (--dir build)', staticFds.port, sample, true));
  targets.push(ofApi('fds dynamic (--dir empty)', dynamicFds.port, sample, true));
  const broad = opts.broad ? sampleRequests(release, opts.broad, opts.seed + 1) : [];
  const broadBytes = broad.reduce((sum, s) => sum + s.bytes, 0);
  const broadMB = (broadBytes / 1e6).toFixed(0);
  if (broad.length) {
    const files = `${int(broad.length)} files, ${broadMB} MB`;
    targets.push(ofFiles(`${baselineName}, ${files}`, baselinePort, broad, false));
    // A server of its own: going round the broad sample pushes the hot sample out of the memory, and
    // a hot round after it on the same server would be measured partly from disk while it came back.
    const broadStatic = await startFds(children, fds, { db, dir: dist });
    targets.push(ofApi(`fds static, ${files}`, broadStatic.port, broad, false));
  }

  const log = (line: string) => process.stderr.write(`${line}\n`);
  const mismatches: string[] = [];
  for (const t of targets.filter((x) => x.sample.length)) {
    log(`checking ${t.label}: ${t.sample.length} requests…`);
    const differ = await check(t, release);
    if (differ) mismatches.push(`${t.label}: ${differ} of ${t.sample.length} bodies differ from the file`);
  }

  const measured: Measured[] = [];
  for (const target of targets) {
    const spec = { port: target.port, paths: target.paths, connections: opts.connections };
    log(`${target.label}: warm-up ${opts.warmup} s…`);
    await generator.run({ ...spec, seconds: opts.warmup });
    measured.push({ target, saturated: null!, atRate: null!, rounds: [], rateRounds: [] });
  }
  // The paced runs take the targets in turn too: a few seconds of other work on the machine raise
  // the p99 of whichever target runs then (once nginx's own, in one 5 s run, to 8.9 ms of a 5 ms goal).
  for (let round = 1; round <= opts.rounds; round++) {
    for (const m of measured.filter((x) => x.target.paced)) {
      log(`round ${round} of ${opts.rounds}: ${m.target.label}, ${opts.rate}/s for ${opts.rateSeconds} s…`);
      const spec = { port: m.target.port, paths: m.target.paths, connections: opts.connections };
      m.rateRounds.push(await paced({ ...spec, seconds: opts.rateSeconds, rate: opts.rate }));
    }
  }
  for (let round = 1; round <= opts.rounds; round++) {
    for (const m of measured) {
      log(`round ${round} of ${opts.rounds}: ${m.target.label}, ${opts.seconds} s at ${opts.connections} connections…`);
      const spec = { port: m.target.port, paths: m.target.paths, connections: opts.connections };
      m.rounds.push(await generator.run({ ...spec, seconds: opts.seconds }));
    }
  }
  for (const m of measured) {
    m.saturated = medianBy(m.rounds, (r) => r.rps);
    m.atRate = m.rateRounds.length ? medianBy(m.rateRounds, (r) => r.p99Ms) : null;
  }

  const [ceiling, base, stat, dyn, broadBase, broadFds] = measured as [
    Measured,
    Measured,
    Measured,
    Measured,
    Measured?,
    Measured?,
  ];
  const rate = int(opts.rate);
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(
    `\nserver (${int(sample.length)} requests sampled with seed ${opts.seed} from the build's manifest, mean ${kB};` +
      ` HTTP/1.1 keep-alive, no compression asked for)`,
  );
  console.log(`  fds: ${fds.how} serve --no-rate-limiting --no-request-log (as nginx's access_log off)`);
  console.log(
    nginxBin
      ? `  ${baselineName}: 1 worker, access_log off, sendfile`
      : `  ${without.has('nginx') ? 'nginx left out (--without nginx)' : 'nginx not installed'}: ` +
          'the baseline is serve-handler in a node:http server',
  );
  console.log(
    `  ${baselineName} is sent each request's file URL under the release (/_s/get/…json) — a static server ` +
      'cannot resolve API query strings; fds gets the API URLs',
  );
  console.log(
    `  saturated: ${generator.name}, ${opts.connections} connections, ${opts.seconds} s per target and round, ` +
      `the median of ${opts.rounds} rounds taking the targets in turn (after a ${opts.warmup} s warm-up); ` +
      `at ${rate}/s: open-loop paced client (node:http), ${opts.rateSeconds} s, the round with the median p99 of ` +
      `${opts.rounds} taking the targets in turn`,
  );
  console.log(
    mismatches.length
      ? `  checked first: every request answered 200; but ${mismatches.join('; ')}`
      : '  checked first: every sampled request answered 200 with exactly the file’s bytes on every target',
  );
  console.log(
    `  machine: ${os.availableParallelism()} cores, load average ${loadBefore} before and ${load} after the run ` +
      '(other work on the machine shows in the tail latencies)',
  );
  const header = [
    'target',
    'req/s',
    'rounds',
    'p50 ms',
    'p99 ms',
    'errors',
    `@${rate}/s: p50 ms`,
    'p99 ms',
    'rounds',
    'errors',
  ];
  const rows = measured.map(({ target, saturated: s, atRate: r, rounds, rateRounds }) => [
    target.label,
    int(s.rps),
    rounds.map((x) => `${(x.rps / 1000).toFixed(1)}k`).join(' '),
    ms(s.p50Ms),
    ms(s.p99Ms),
    int(rounds.reduce((sum, x) => sum + x.errors, 0)),
    ms(r?.p50Ms ?? Number.NaN),
    ms(r?.p99Ms ?? Number.NaN),
    rateRounds.map((x) => ms(x.p99Ms)).join(' '),
    int(rateRounds.reduce((sum, x) => sum + x.errors, 0)),
  ]);
  console.log(`\n${textTable(header, rows, 1)}\n`);

  /** The median of the rounds' ratios (a round's two runs are the closest in time), with each round's. */
  const ratioOf = (m: Measured, to: Measured) => {
    const ratios = m.rounds.map((x, i) => x.rps / to.rounds[i]!.rps);
    const ratio = median(ratios);
    return { ratio, text: `${ratio.toFixed(3).padStart(6)} (rounds ${ratios.map((x) => x.toFixed(3)).join(' ')})` };
  };
  const verdict = (m: Measured, goal: { ratio: number; p99Ms: number }) => {
    const { ratio, text } = ratioOf(m, base);
    const p99 = m.atRate!.p99Ms;
    const met = ratio >= goal.ratio && p99 <= goal.p99Ms;
    recordGoals({
      figure: `${m.target.label} ÷ ${baselineName}`,
      measured: `${ratio.toFixed(3)}, p99 ${ms(p99)} ms at ${rate}/s`,
      goal: `≥ ${goal.ratio}, p99 ≤ ${goal.p99Ms} ms${nginxBin ? '' : ' (set against nginx: indicative)'}`,
      met,
    });
    return (
      // Three places: at two, a ratio just under the goal printed as the goal beside "NOT met".
      `${text}   goal ≥ ${goal.ratio} ` +
      `with p99 ≤ ${goal.p99Ms} ms at ${rate}/s (${ms(p99)} ms): ${met ? 'met' : 'NOT met'}`
    );
  };
  console.log(`fds static ÷ ${baselineName}  ${verdict(stat, GOALS.static)}`);
  console.log(`fds dynamic ÷ ${baselineName} ${verdict(dyn, GOALS.dynamic)}`);
  if (broadBase && broadFds) {
    const { text } = ratioOf(broadFds, broadBase);
    console.log(
      `fds static ÷ ${baselineName}, ${int(broad.length)} files (${broadMB} MB; ${memoryShare(broadBytes)}) ` +
        `${text.trim()}: not a goal`,
    );
  }
  if (!nginxBin) console.log('  (the goals are set against nginx; against serve-handler they are only indicative)');
  const fastest = Math.max(base.saturated.rps, stat.saturated.rps, dyn.saturated.rps);
  console.log(
    `load generator: ${int(ceiling.saturated.rps)} req/s against the ceiling target; the fastest server ran at ` +
      `${((100 * fastest) / ceiling.saturated.rps).toFixed(0)} % of that`,
  );
} finally {
  await children.killAll();
  fs.rmSync(scratch, { recursive: true, force: true });
}
