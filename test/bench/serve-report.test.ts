/** The server benchmark's report (bench/serve-report.ts): which ratio decides a goal, and what it says beside it. */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GOALS_FILE_ENV, readGoals } from '../../bench/goals.js';
import type { LoadResult } from '../../bench/load.js';
import type { Measured, Report } from '../../bench/serve-report.js';
import { coresOf, perCpuSecond, report } from '../../bench/serve-report.js';
import { tempDir } from '../helpers/store.js';

/** A 6 s saturated run at `rps` with the server busy `cores` of the time. */
function run(rps: number, cores: number): LoadResult {
  return { requests: rps * 6, rps, p50Ms: 1, p99Ms: 2, errors: 0, serverCpuSeconds: cores * 6 };
}

function measured(label: string, rounds: LoadResult[], paced = true): Measured {
  const target = { label, port: 1, pid: 1, paths: ['/x'], sample: [], paced };
  const atRate = paced ? { requests: 5000, rps: 1000, p50Ms: 0.3, p99Ms: 1, errors: 0 } : null;
  return { target, saturated: rounds[1]!, atRate, rounds, rateRounds: atRate ? [atRate] : [] };
}

function input(m: Measured[]): Report {
  return {
    measured: m,
    sampled: 3000,
    sampleBytes: 201e6,
    kB: '67.1 kB',
    opts: { seed: 1, rate: 1000, connections: 32, seconds: 6, rounds: 3, warmup: 2, rateSeconds: 5 },
    fdsHow: 'node bin/fds.js (build/)',
    baselineName: 'nginx 1.22.1',
    nginx: 'installed',
    generator: 'wrk (1 thread, on CPU 1)',
    pinned: { server: '0', generator: '1' },
    mismatches: [],
    loadBefore: '0.5',
    broad: 0,
    broadBytes: 0,
  };
}

function printed(r: Report): string {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  try {
    report(r);
  } finally {
    spy.mockRestore();
  }
  return lines.join('\n');
}

afterEach(() => {
  delete process.env[GOALS_FILE_ENV];
});

describe('the server report', () => {
  it('takes requests per CPU second of each server: its rate on a core of its own', () => {
    expect(perCpuSecond(run(20_000, 0.5))).toBe(40_000);
    expect(coresOf(run(20_000, 0.5))).toBeCloseTo(0.5);
    expect(perCpuSecond({ requests: 10, rps: 1, p50Ms: 1, p99Ms: 1, errors: 0 })).toBeNaN();
  });

  it('decides the goals on the ratio per CPU second when the load generator held the baseline back, and says so', () => {
    // nginx at half a core (wrk's pace): its rate is not its own. fds static fills its core.
    const base = [run(30_000, 0.5), run(30_000, 0.5), run(30_000, 0.5)];
    const stat = [run(18_000, 1), run(18_000, 1), run(18_000, 1)];
    const dyn = [run(3_000, 1), run(3_000, 1), run(3_000, 1)];
    const goals = path.join(tempDir('fds-sb-report-'), 'goals.ndjson');
    process.env[GOALS_FILE_ENV] = goals;
    const out = printed(
      input([
        measured('ceiling', [run(32_000, 0.5), run(32_000, 0.5), run(32_000, 0.5)], false),
        measured('nginx 1.22.1', base),
        measured('fds static (--dir build)', stat),
        measured('fds dynamic (--dir empty)', dyn),
      ]),
    );
    // 18,000 per CPU second against 60,000: 0.3, where the rates alone give 0.6.
    expect(out).toMatch(
      /^fds static ÷ nginx 1\.22\.1 +0\.300 \(rounds 0\.300 0\.300 0\.300\) +goal ≥ 0\.5 .*NOT met$/m,
    );
    expect(out).toMatch(
      /the ratio of the rates: 0\.600 \(rounds 0\.600 0\.600 0\.600\); nginx 1\.22\.1 at 50 % of a core, fds at 100 %/,
    );
    expect(out).toMatch(/^fds dynamic ÷ nginx 1\.22\.1 +0\.050 .*goal ≥ 0\.08 .*NOT met$/m);
    expect(out).toMatch(/nginx 1\.22\.1 kept 50 % of its core busy: the load generator or other work/);
    expect(out).toContain('each server on CPU 0 (all its threads), the load generator on CPU 1 (taskset)');
    expect(out).toContain('open_file_cache');
    expect(out).toContain('201 MB in all: more than the default 64 MiB of hot-file memory holds');
    const recorded = readGoals(goals);
    expect(recorded.map((g) => [g.measured.split(',')[0], g.met])).toEqual([
      ['0.300 per CPU second (rates 0.600)', false],
      ['0.050 per CPU second (rates 0.100)', false],
    ]);
  });

  it('says nothing of a held-back baseline when it filled its core; both ratios then agree', () => {
    const base = [run(60_000, 1), run(60_000, 1), run(60_000, 1)];
    const stat = [run(36_000, 1), run(36_000, 1), run(36_000, 1)];
    const dyn = [run(6_000, 1), run(6_000, 1), run(6_000, 1)];
    const out = printed(
      input([
        measured('ceiling', base, false),
        measured('nginx 1.22.1', base),
        measured('fds static (--dir build)', stat),
        measured('fds dynamic (--dir empty)', dyn),
      ]),
    );
    expect(out).toMatch(/^fds static ÷ nginx 1\.22\.1 +0\.600 .*: met$/m);
    expect(out).toMatch(/the ratio of the rates: 0\.600/);
    expect(out).toMatch(/^fds dynamic ÷ nginx 1\.22\.1 +0\.100 .*: met$/m);
    expect(out).not.toContain('kept');
  });

  it('falls back to the ratio of the rates when no CPU time was measured', () => {
    const bare = (rps: number): LoadResult => ({ requests: rps * 6, rps, p50Ms: 1, p99Ms: 2, errors: 0 });
    const out = printed(
      input([
        measured('ceiling', [bare(9), bare(9), bare(9)], false),
        measured('nginx 1.22.1', [bare(100), bare(100), bare(100)]),
        measured('fds static (--dir build)', [bare(70), bare(70), bare(70)]),
        measured('fds dynamic (--dir empty)', [bare(10), bare(10), bare(10)]),
      ]),
    );
    expect(out).toMatch(/^fds static ÷ nginx 1\.22\.1 +0\.700 /m);
    expect(out).not.toContain('per CPU second of each server');
  });
});
