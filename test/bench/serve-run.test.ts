/**
 * bench/serve.ts run whole, as `npm run bench:serve` runs it, on a small demo build and with the
 * shortest durations. What it measures is printed, never asserted; these tests hold it to what it
 * prints and to leaving no process behind, whether it succeeds or fails.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentRelease } from '../../src/release/layout.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { buildInto, demoStore } from '../publish/helpers.js';
import { processesUnder } from './helpers.js';

const SHORT = ['--seconds', '1', '--warmup', '1', '--rate', '50', '--rate-seconds', '1', '--rounds', '2'];

/** Runs the bench with its own TMPDIR, which every process it starts inherits: that is how leftovers are found. */
function runBench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; tmp: string }> {
  const tmp = tempDir('fds-sb-run-');
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, tmp })));
}

describe('the server benchmark', () => {
  let db: string;
  let out: string;
  beforeAll(async () => {
    db = await demoStore({ scale: 0.1, leagues: ['eng.1'] });
    ({ out } = await buildInto(db));
  });

  it('prints each server’s figures and the ratios to the named baseline, then leaves no process running', async () => {
    const r = await runBench(['--db', db, '--dist', out, '--requests', '20', ...SHORT]);
    expect(r.code, r.stderr).toBe(0);
    for (const label of ['ceiling: ', 'fds static (--dir build)', 'fds dynamic (--dir empty)']) {
      expect(r.stdout).toContain(`\n${label}`);
    }
    // The median of the two rounds' ratios, and each round's.
    const ratio = String.raw`\d+\.\d{3} \(rounds \d+\.\d{3} \d+\.\d{3}\)`;
    expect(r.stdout).toMatch(
      new RegExp(`^fds static ÷ (nginx [\\d.]+|serve-handler) +${ratio} +goal ≥ 0\\.5 with p99 ≤ 5 ms`, 'm'),
    );
    expect(r.stdout).toMatch(
      new RegExp(`^fds dynamic ÷ (nginx [\\d.]+|serve-handler) +${ratio} +goal ≥ 0\\.08 with p99 ≤ 10 ms`, 'm'),
    );
    // Decided per CPU second of each server, with the ratio of the rates and each server's share of its core beside it.
    expect(r.stdout).toMatch(
      /^ +the ratio of the rates: \d+\.\d{3} \(rounds [\d. ]+\); .* at \d+ % of a core, fds at \d+ %$/m,
    );
    // The paced runs take the targets in turn, round after round, as the saturated ones do.
    expect(r.stderr).toMatch(/round 2 of 2: fds dynamic \(--dir empty\), 50\/s for 1 s/);
    expect(r.stdout).toContain('the round with the median p99 of 2 taking the targets in turn');
    expect(processesUnder(r.tmp)).toEqual([]);
  });

  it('fails when a sampled request is not answered 200, and still stops every server it started', async () => {
    const release = currentRelease(out)!;
    const broken = tempDir('fds-sb-broken-');
    fs.cpSync(release, broken, { recursive: true });
    const first = JSON.parse(fs.readFileSync(path.join(broken, 'manifest.ndjson'), 'utf8').split('\n')[0]!) as {
      file: string;
    };
    fs.rmSync(path.join(broken, first.file));
    const r = await runBench(['--db', db, '--dist', broken, '--requests', '100000', ...SHORT]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/sampled requests did not answer 200/);
    expect(processesUnder(r.tmp)).toEqual([]);
  });
});
