/** The server benchmark's report (bench/serve.ts): how it measured, the table, the ratios and their goals. */
import os from 'node:os';
import { DEFAULT_CACHE_BYTES } from '../src/server/file-bodies.js';
import { recordGoals } from './goals.js';
import type { LoadResult } from './load.js';
import { median } from './median.js';
import type { SampledRequest } from './requests.js';
import { textTable } from './table.js';

export interface Target {
  label: string;
  port: number;
  /** The server's process, whose CPU time (its and its children's) is measured. */
  pid: number;
  paths: string[];
  /** Also measured at the fixed rate (the broad sample is measured saturated only). */
  paced: boolean;
  /**
   * The sampled requests `paths` stand for, in the same order: each is checked to answer 200 with its
   * file's bytes before anything is timed. None for the ceiling.
   */
  sample: SampledRequest[];
}

export interface Measured {
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

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');

/** A run's seconds, as wrk measured them. */
const secondsOf = (r: LoadResult) => (r.rps > 0 ? r.requests / r.rps : Number.NaN);
/** The share of one core the server kept busy during a run (NaN: not measured). */
export const coresOf = (r: LoadResult) => (r.serverCpuSeconds ?? Number.NaN) / secondsOf(r);
/** Requests answered per CPU second of the server: its rate on a core of its own. */
export const perCpuSecond = (r: LoadResult) => r.requests / (r.serverCpuSeconds ?? Number.NaN);
/** Below this share of its core, a server's rate was set by something else (the generator, other work). */
const SATURATED = 0.9;
const pct = (x: number) => (Number.isFinite(x) ? `${Math.round(100 * x)} %` : '—');
export const int = (x: number) => Math.round(x).toLocaleString('en-US');

export interface Report {
  /** The ceiling, the baseline, fds static, fds dynamic, then the broad sample's baseline and fds, if measured. */
  measured: Measured[];
  sampled: number;
  /** The sample's bytes in all. */
  sampleBytes: number;
  /** The sample's mean size, as printed. */
  kB: string;
  opts: {
    seed: number;
    rate: number;
    connections: number;
    seconds: number;
    rounds: number;
    warmup: number;
    rateSeconds: number;
  };
  /** How fds was run (bench/serve-targets.ts `fdsCommand`). */
  fdsHow: string;
  baselineName: string;
  nginx: 'installed' | 'left out' | 'not installed';
  generator: string;
  /** The CPUs the servers and the load generator were pinned to (null: the scheduler's choice). */
  pinned: { server: string; generator: string } | null;
  /** Targets whose bodies differed from the files, as lines. */
  mismatches: string[];
  loadBefore: string;
  /** The broad sample's requests and bytes (0: not measured). */
  broad: number;
  broadBytes: number;
}

export function report(input: Report): void {
  const { measured, opts, baselineName, mismatches, loadBefore, kB, broad, broadBytes } = input;
  const againstNginx = input.nginx === 'installed';
  const broadMB = (broadBytes / 1e6).toFixed(0);
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
    `\nserver (${int(input.sampled)} requests sampled with seed ${opts.seed} from the build's manifest, mean ${kB}, ` +
      `${(input.sampleBytes / 1e6).toFixed(0)} MB in all: ${memoryShare(input.sampleBytes)}; ` +
      'HTTP/1.1 keep-alive, no compression asked for)',
  );
  console.log(`  fds: ${input.fdsHow} serve --no-rate-limiting --no-request-log (as nginx's access_log off)`);
  console.log(
    againstNginx
      ? `  ${baselineName}: 1 worker, access_log off, sendfile, tcp_nopush, open_file_cache (as a production static server)`
      : `  ${input.nginx === 'left out' ? 'nginx left out (--without nginx)' : 'nginx not installed'}: ` +
          'the baseline is serve-handler in a node:http server',
  );
  console.log(
    `  ${baselineName} is sent each request's file URL under the release (/_s/get/…json) — a static server ` +
      'cannot resolve API query strings; fds gets the API URLs',
  );
  console.log(
    input.pinned
      ? `  each server on CPU ${input.pinned.server} (all its threads), the load generator on CPU ${input.pinned.generator} (taskset)`
      : '  servers and load generator on the CPUs the scheduler gives them (not pinned)',
  );
  console.log(
    `  saturated: ${input.generator}, ${opts.connections} connections, ${opts.seconds} s per target and round, ` +
      `the median of ${opts.rounds} rounds taking the targets in turn (after a ${opts.warmup} s warm-up), ` +
      "each server's CPU time read from /proc over each run; " +
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
    'CPU',
    'req/CPU-s',
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
    pct(median(rounds.map(coresOf))),
    int(median(rounds.map(perCpuSecond))),
    ms(s.p50Ms),
    ms(s.p99Ms),
    int(rounds.reduce((sum, x) => sum + x.errors, 0)),
    ms(r?.p50Ms ?? Number.NaN),
    ms(r?.p99Ms ?? Number.NaN),
    rateRounds.map((x) => ms(x.p99Ms)).join(' '),
    int(rateRounds.reduce((sum, x) => sum + x.errors, 0)),
  ]);
  console.log(`\n${textTable(header, rows, 1)}\n`);

  /**
   * The median of the rounds' ratios (a round's two runs are the closest in time), with each round's:
   * of requests per CPU second when the CPU time was measured, else of the rates.
   */
  const ratioOf = (m: Measured, to: Measured, of: (r: LoadResult) => number) => {
    const ratios = m.rounds.map((x, i) => of(x) / of(to.rounds[i]!));
    const ratio = median(ratios);
    return { ratio, text: `${ratio.toFixed(3).padStart(6)} (rounds ${ratios.map((x) => x.toFixed(3)).join(' ')})` };
  };
  const byCpu = Number.isFinite(perCpuSecond(base.saturated));
  const verdict = (m: Measured, goal: { ratio: number; p99Ms: number }) => {
    const { ratio, text } = ratioOf(m, base, byCpu ? perCpuSecond : (r) => r.rps);
    const p99 = m.atRate!.p99Ms;
    const met = ratio >= goal.ratio && p99 <= goal.p99Ms;
    const rates = ratioOf(m, base, (r) => r.rps).ratio;
    recordGoals({
      figure: `${m.target.label} ÷ ${baselineName}`,
      measured: `${ratio.toFixed(3)}${byCpu ? ` per CPU second (rates ${rates.toFixed(3)})` : ''}, p99 ${ms(p99)} ms at ${rate}/s`,
      goal: `≥ ${goal.ratio}, p99 ≤ ${goal.p99Ms} ms${againstNginx ? '' : ' (set against nginx: indicative)'}`,
      met,
    });
    return (
      // Three places: at two, a ratio just under the goal printed as the goal beside "NOT met".
      `${text}   goal ≥ ${goal.ratio} ` +
      `with p99 ≤ ${goal.p99Ms} ms at ${rate}/s (${ms(p99)} ms): ${met ? 'met' : 'NOT met'}`
    );
  };
  /** The rates' ratio beside it, and how busy each server was: they agree when both filled their core. */
  const rates = (m: Measured) => {
    const { text } = ratioOf(m, base, (r) => r.rps);
    const busy = `${baselineName} at ${pct(median(base.rounds.map(coresOf)))} of a core, fds at ${pct(median(m.rounds.map(coresOf)))}`;
    return `    the ratio of the rates: ${text.trim()}; ${busy}`;
  };
  if (byCpu) console.log('ratios of requests per CPU second of each server (its rate on a core of its own):');
  console.log(`fds static ÷ ${baselineName}  ${verdict(stat, GOALS.static)}`);
  if (byCpu) console.log(rates(stat));
  console.log(`fds dynamic ÷ ${baselineName} ${verdict(dyn, GOALS.dynamic)}`);
  if (byCpu) console.log(rates(dyn));
  const baseCores = median(base.rounds.map(coresOf));
  if (baseCores < SATURATED) {
    console.log(
      `  ${baselineName} kept ${pct(baseCores)} of its core busy: the load generator or other work on the machine set ` +
        'its rate, so the ratio of the rates is pulled towards 1; the ratio per CPU second is what wrk gives on a quiet machine',
    );
  }
  if (broadBase && broadFds) {
    const { text } = ratioOf(broadFds, broadBase, byCpu ? perCpuSecond : (r) => r.rps);
    console.log(
      `fds static ÷ ${baselineName}, ${int(broad)} files (${broadMB} MB; ${memoryShare(broadBytes)}) ` +
        `${text.trim()}: not a goal`,
    );
  }
  if (!againstNginx) console.log('  (the goals are set against nginx; against serve-handler they are only indicative)');
  const fastest = Math.max(base.saturated.rps, stat.saturated.rps, dyn.saturated.rps);
  console.log(
    `load generator: ${int(ceiling.saturated.rps)} req/s against the ceiling target; the fastest server ran at ` +
      `${((100 * fastest) / ceiling.saturated.rps).toFixed(0)} % of that`,
  );
}
