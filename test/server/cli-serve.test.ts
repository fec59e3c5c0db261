/** `fds serve` as a user runs it: a child process that serves, logs, and exits 0 on SIGTERM. */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApiStore } from '../api/helpers/api-store.js';
import { rawRequest } from '../api/helpers/targets.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { buildInto } from '../publish/helpers.js';

const CLI = [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/cli/main.ts')] as const;

interface Served {
  child: ChildProcessWithoutNullStreams;
  port: number;
  lines: string[];
  exited: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];

function serve(...args: string[]): Promise<Served> {
  return serveWith({}, ...args);
}

/** `fds serve`, with an IPC channel from this process when `ipc` (as `fds start` starts it). */
function serveWith(opts: { ipc?: boolean }, ...args: string[]): Promise<Served> {
  const child = spawn(CLI[0], [...CLI.slice(1), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true' },
    stdio: opts.ipc ? ['pipe', 'pipe', 'pipe', 'ipc'] : 'pipe',
  }) as ChildProcessWithoutNullStreams;
  children.push(child);
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${lines.join('\n')}`)), 30_000);
    child.stderr.on('data', (d: Buffer) => lines.push(`stderr: ${d.toString()}`));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      // The log is JSON lines; --welcome adds plain text for a person after the `listening` line.
      if (!line.startsWith('{')) return;
      const msg = JSON.parse(line) as { event?: string; url?: string };
      if (msg.event === 'listening') {
        clearTimeout(timer);
        resolve({ child, port: Number(new URL(msg.url!).port), lines, exited });
      }
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${lines.join('\n')}`)));
  });
}

/** The processes whose parent is `pid` (Linux: /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const alive = (pid: number) =>
  fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('fds serve', () => {
  let store: string;
  beforeAll(async () => {
    store = await buildApiStore();
  });

  it('documents its options', () => {
    const r = spawnSync(CLI[0], [...CLI.slice(1), 'serve', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const opt of [
      '--db <path>',
      '--dir <dir>',
      '--port <port>',
      '--host <host>',
      '--trust-proxy',
      '--cache-mb <n>',
      '--no-request-log',
    ])
      expect(r.stdout).toContain(opt);
  });

  it(
    'renders every request dynamically from a directory without ' + 'a build, logs each, and exits 0 on SIGTERM',
    async () => {
      const s = await serve('--db', store, '--dir', tempDir('fds-nobuild-'));
      const leagues = await rawRequest(s.port, 'GET', '/get/soccer/leagues?available=true');
      expect(leagues.status).toBe(200);
      expect(JSON.parse(leagues.body.toString()).meta.count).toBe(2);
      expect((await rawRequest(s.port, 'GET', '/health')).status).toBe(200);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      const events = s.lines.map((l) => JSON.parse(l) as { event?: string; url?: string; status?: number });
      expect(events.filter((e) => e.status !== undefined).map((e) => [e.url, e.status])).toEqual([
        ['/get/soccer/leagues?available=true', 200],
        ['/health', 200],
      ]);
      expect(events.at(-1)).toMatchObject({ event: 'shutdown', signal: 'SIGTERM' });
    },
  );

  it('logs a request it cannot parse with its 400, as it logs every request', async () => {
    const s = await serve('--db', store, '--dir', tempDir('fds-nobuild-'));
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(s.port, '127.0.0.1', () => socket.end('NOT HTTP\r\n\r\n'));
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const events = s.lines.map((l) => JSON.parse(l) as { status?: number; error?: string });
    expect(events.filter((e) => e.status !== undefined)).toEqual([
      expect.objectContaining({ status: 400, error: expect.any(String) }),
    ]);
  });

  it('with --no-request-log, answers without a line per request, and still says when it listens and stops', async () => {
    const s = await serve('--db', store, '--dir', tempDir('fds-nobuild-'), '--no-request-log');
    expect((await rawRequest(s.port, 'GET', '/get/soccer/leagues')).status).toBe(200);
    expect((await rawRequest(s.port, 'GET', '/nowhere')).status).toBe(404);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const events = s.lines.map((l) => JSON.parse(l) as { event?: string });
    expect(events.map((e) => e.event)).toEqual(['listening', 'shutdown']);
  });

  it.skipIf(!fs.existsSync('/proc/self/stat'))(
    'serves from a process of its own with its heap flags, which shuts down when the command is killed outright',
    async () => {
      const s = await serve('--db', store, '--dir', tempDir('fds-nobuild-'), '--no-request-log');
      const [server, ...others] = childrenOf(s.child.pid!);
      expect(others).toEqual([]);
      expect(fs.readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0')).toContain('--initial-old-space-size=64');
      expect((await rawRequest(s.port, 'GET', '/health')).status).toBe(200);
      s.child.kill('SIGKILL');
      await expect.poll(() => alive(server!), { timeout: 10_000 }).toBe(false);
      await expect(rawRequest(s.port, 'GET', '/health')).rejects.toThrow(/ECONNREFUSED/);
      // It shut down as on SIGTERM: its last words are the shutdown line.
      await expect.poll(() => s.lines.at(-1) ?? '').toContain('"event":"shutdown"');
    },
  );

  it.skipIf(!fs.existsSync('/proc/self/stat'))(
    'shuts down, its own process too, when the command that started it (fds start) is gone',
    async () => {
      const s = await serveWith({ ipc: true }, '--db', store, '--dir', tempDir('fds-nobuild-'), '--no-request-log');
      const [server] = childrenOf(s.child.pid!);
      // The starter's end, however it ends, is its IPC channel closing.
      s.child.disconnect();
      await expect.poll(() => alive(server!), { timeout: 10_000 }).toBe(false);
      await expect.poll(() => alive(s.child.pid!), { timeout: 10_000 }).toBe(false);
      await expect(rawRequest(s.port, 'GET', '/health')).rejects.toThrow(/ECONNREFUSED/);
    },
  );

  it('with --welcome, prints for a person where to point a browser and three requests that answer 200', async () => {
    const { out } = await buildInto(store);
    const s = await serve('--db', store, '--dir', out, '--welcome');
    const origin = `http://127.0.0.1:${s.port}`;
    await expect.poll(() => s.lines.filter((l) => l.startsWith('  curl ')).length).toBe(3);
    expect(s.lines).toContain(`Football Data Service is up: open ${origin}/ in a browser.`);
    const examples = s.lines
      .filter((l) => l.startsWith('  curl '))
      .map((l) => /^ {2}curl '([^']+)' {4}# \S/.exec(l)?.[1]);
    expect(examples.every((u) => u?.startsWith(`${origin}/`))).toBe(true);
    for (const url of examples) {
      const res = await rawRequest(s.port, 'GET', url!.slice(origin.length));
      expect(res.status, url).toBe(200);
    }
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });

  it('starts without a readable store and reports it through health', async () => {
    const s = await serve('--db', path.join(tempDir('fds-nostore-'), 'none.sqlite'));
    const health = await rawRequest(s.port, 'GET', '/health');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body.toString())).toMatchObject({
      status: 'unhealthy',
      database: { status: 'disconnected' },
    });
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  });
});
