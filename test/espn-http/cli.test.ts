import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { outage, startStandIn } from '../helpers/espn-standin.js';
import type { StandIn } from '../helpers/espn-standin.js';
import { WINDOW, espnFixture, storeState } from '../helpers/espn-sync.js';
import { ROOT, tempDir } from '../helpers/store.js';

/** Asynchronous on purpose: the stand-in answers from this process while the CLI runs. */
function fds(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function snapshot(file: string) {
  const db = openStore(file);
  try {
    return storeState(db);
  } finally {
    db.close();
  }
}

describe('fds sync --provider espn (end to end)', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startStandIn(espnFixture());
  });
  afterAll(() => standIn.close());

  it('documents the default window and the retry options', async () => {
    const help = await fds('sync', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/default: today\s+− 3 to today \+ 7 days, UTC/);
    expect(help.stdout).toMatch(/dates=YYYYMM&limit=500/);
    expect(help.stdout).toMatch(/--user-agent <text>/);
    expect(help.stdout).toMatch(/--timeout <ms>/);
    expect(help.stdout).toMatch(/--retries <n>/);
    expect(help.stdout).toMatch(/--full/);
  });

  it('exits 0 after a clean sync, then non-zero with the reasons and an untouched store during an outage', async () => {
    const db = path.join(tempDir(), 'store.sqlite');
    const args = [
      'sync',
      '--provider',
      'espn',
      '--base-url',
      standIn.url,
      '--core-url',
      standIn.url,
      '--from',
      WINDOW.from,
      '--to',
      WINDOW.to,
      '--leagues',
      'eng.1',
      '--db',
      db,
    ];

    const clean = await fds(...args);
    expect(clean.stderr).not.toMatch(/failed|fds:/); // npx may add its own warnings
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(
      /^sync espn: 1 leagues, 5 units ok, 0 failed, 4 not available, \d+ records written in [\d.]+s$/m,
    );
    // What it asked, by kind: the month's board, the finished match's summary and plays, …
    expect(clean.stdout).toMatch(/^espn: none hot; asked \d+ \([\d.]+ [KM]B\): board-month 1 · /m);
    const before = snapshot(db);
    expect(before.lastSuccessfulSyncAt).not.toBeNull();

    standIn.faults = outage;
    // --full: the plan would ask nothing again so soon.
    const down = await fds(...args, '--retries', '2', '--full');
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      /^failed: eng\.1 scoreboard 202603: HTTP 500 Internal Server Error \(gave up after 3 attempts\)$/m,
    );
    // Everything is asked (--full) and fails: the team list, 4 rosters, the month's board, the table.
    expect(down.stderr).toMatch(
      new RegExp(
        /^sync espn: 1 leagues, 0 units ok, 7 failed, 0 not available, 0 records written in [\d.]+s; /.source +
          /failures: 7× HTTP 500 Internal Server Error \(gave up after 3 attempts\)$/.source,
        'm',
      ),
    );
    expect(snapshot(db)).toEqual(before);
  });
});
