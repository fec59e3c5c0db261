/**
 * `fds live` end to end, as a person runs it: a child process that syncs, builds and serves on a
 * loopback port, then publishes a new release every cycle whose scoreboard shows the live matches
 * further on — served from the new build without a restart — and exits 0 soon after SIGTERM.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/store.js';
import { dayOf, iso, matchdayNoon } from '../demo/helpers.js';

interface Event {
  id: string;
  status: { clock: number; type: { state: string; name: string } };
}

/** A running `fds live`: its output so far, and a way to wait for a line. */
function startLive(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'live', ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true' },
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** The first match of `re` in stdout after `from` characters, waiting for it up to `ms`. */
  async function waitFor(re: RegExp, from = 0, ms = 90_000): Promise<{ match: RegExpExecArray; end: number }> {
    const deadline = Date.now() + ms;
    for (;;) {
      const rest = stdout.slice(from);
      const match = re.exec(rest);
      if (match) return { match, end: from + match.index + match[0].length };
      if (child.exitCode !== null) throw new Error(`fds live exited (${child.exitCode}): ${stderr}\n${stdout}`);
      if (Date.now() > deadline) throw new Error(`no ${re} in time; stdout:\n${stdout}\nstderr:\n${stderr}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
  return { child, waitFor, exited, output: () => ({ stdout, stderr }) };
}

/** The manifest entry of the current release for one pre-rendered file. */
function manifestEntry(out: string, file: string): { etag: string } {
  const lines = fs.readFileSync(path.join(out, 'manifest.ndjson'), 'utf8').split('\n').filter(Boolean);
  const entry = lines.map((l) => JSON.parse(l) as { file: string; etag: string }).find((e) => e.file === file);
  if (!entry) throw new Error(`${file} is not in the manifest`);
  return entry;
}

describe('fds live', { timeout: 180_000 }, () => {
  let running: ChildProcess | null = null;
  afterAll(() => {
    if (running && running.exitCode === null) running.kill('SIGKILL');
  });

  it('serves, publishes a release per cycle in which the live matches moved on, and stops on SIGTERM', async () => {
    const dir = tempDir('fds-live-');
    const out = path.join(dir, 'dist');
    // Noon of an eng.1 matchday: a match in each half and one at half-time, and the clock runs on from there.
    const start = matchdayNoon(['eng.1']);
    const day = dayOf(start);
    const live = startLive([
      ...['--leagues', 'eng.1', '--weight', 'light', '--every', '1', '--port', '0', '--workers', '0'],
      ...['--db', path.join(dir, 'store.sqlite'), '--out', out, '--start', iso(start), '--no-from-matchday'],
    ]);
    running = live.child;

    const serving = await live.waitFor(/serving (http:\/\/127\.0\.0\.1:\d+)/);
    const origin = serving.match[1]!;
    expect(live.output().stdout).toMatch(/^cycle 1 at \S+: sync \d+ units, \d+ records changed in/m);
    const board = async (query = '') => {
      const res = await fetch(`${origin}/get/soccer/eng.1/scoreboard${query}`);
      expect(res.status).toBe(200);
      return { etag: res.headers.get('etag'), events: ((await res.json()) as { events: Event[] }).events };
    };

    // The date-less scoreboard is the demo clock's day, with its matches under way.
    const today = await board();
    expect(today.events.filter((e) => e.status.type.state === 'in')).toHaveLength(3);

    const file = `_s/get/soccer/eng.1/scoreboard/dates-${day}.json`;
    const first = await board(`?dates=${day}`);
    expect(first.etag).toBe(manifestEntry(out, file).etag);
    // A later cycle publishes a new release, and the server answers from it without a restart.
    const published = await live.waitFor(/^cycle [2-9]\d* at .*published (r-\d+)/m, serving.end, 30_000);
    expect(published.match[1]).not.toBe('r-000001');
    const later = await board(`?dates=${day}`);
    expect(later.etag).toBe(manifestEntry(out, file).etag);
    expect(later.etag).not.toBe(first.etag);
    const before = new Map(first.events.map((e) => [e.id, e]));
    const ticking = first.events.filter(
      (e) => e.status.type.state === 'in' && e.status.type.name !== 'STATUS_HALFTIME',
    );
    expect(ticking).toHaveLength(2);
    for (const e of later.events) {
      const was = before.get(e.id)!;
      if (ticking.includes(was)) expect(e.status.clock, e.id).toBeGreaterThan(was.status.clock);
      else if (was.status.type.state !== 'in') expect(e, e.id).toEqual(was);
    }

    const stopAt = Date.now();
    live.child.kill('SIGTERM');
    const code = await live.exited;
    expect(code).toBe(0);
    expect(Date.now() - stopAt).toBeLessThan(8_000);
    expect(live.output().stdout).toContain('SIGTERM: stopping');
    await expect(fetch(`${origin}/health`)).rejects.toThrow();
  });
});
