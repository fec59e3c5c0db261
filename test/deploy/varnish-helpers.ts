/**
 * Varnish for tests: is Debian's varnishd with the xkey vmod here, start one in front of a port with
 * deploy/varnish/fds.vcl, read its counters, and a few HTTP odds and ends the Varnish tests share.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const VCL_FILE = path.join(ROOT, 'deploy/varnish/fds.vcl');
/** Where Debian's varnish-modules puts the xkey vmod, in this machine's multiarch directory (x86_64, aarch64, …). */
export const XKEY_VMOD = xkeyVmod();

function xkeyVmod(): string {
  const lib = '/usr/lib';
  const tail = 'varnish/vmods/libvmod_xkey.so';
  let dirs: string[] = [];
  try {
    dirs = fs.readdirSync(lib).filter((d) => d.endsWith('-linux-gnu'));
  } catch {
    // no /usr/lib: the check below says the vmod is missing
  }
  const found = dirs.map((d) => path.join(lib, d, tail)).find((f) => fs.existsSync(f));
  return found ?? path.join(lib, `${os.arch() === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu`, tail);
}

const run = promisify(execFile);

/** `name` on PATH or in the sbin directories a non-root PATH may lack; null when absent. */
export function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** Why the Varnish tests cannot run here, or null when they can. */
export function varnishMissing(): string | null {
  if (!findProgram('varnishd')) return 'varnishd is not installed';
  if (!fs.existsSync(XKEY_VMOD)) return `the xkey vmod (${XKEY_VMOD}, Debian's varnish-modules) is not installed`;
  return null;
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `port` accepts a connection; rejects after `ms`, or as soon as `alive()` says no. */
export async function waitForPort(port: number, ms: number, alive: () => boolean = () => true): Promise<void> {
  const end = performance.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (!alive()) throw new Error(`the process meant to listen on port ${port} has exited`);
    if (performance.now() > end) throw new Error(`nothing listens on port ${port} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Varnish {
  port: number;
  url: string;
  /** varnishd's own output so far (the manager's log, VCL compiler errors). */
  output(): string;
  /** MAIN.* counters by short name: `counters('backend_req')`. */
  counters(...names: string[]): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * varnishd in the foreground with deploy/varnish/fds.vcl, its backend port replaced by
 * `backendPort`. The VCL copy and the working directory live in a world-readable temporary
 * directory, since varnishd started as root compiles and runs the VCL as its own users.
 */
export async function startVarnish(backendPort: number, opts: { storage?: string } = {}): Promise<Varnish> {
  const varnishd = findProgram('varnishd');
  if (!varnishd) throw new Error('varnishd is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-varnish-'));
  fs.chmodSync(dir, 0o755);
  const vcl = path.join(dir, 'fds.vcl');
  const text = fs.readFileSync(VCL_FILE, 'utf8');
  if (!text.includes('.port = "8080";')) throw new Error(`${VCL_FILE} no longer says .port = "8080";`);
  fs.writeFileSync(vcl, text.replace('.port = "8080";', `.port = "${backendPort}";`));
  fs.chmodSync(vcl, 0o644);
  const workdir = path.join(dir, 'n');
  const port = await freePort();
  const args = ['-F', '-a', `127.0.0.1:${port}`, '-f', vcl, '-n', workdir, '-s', opts.storage ?? 'malloc,128m'];
  args.push('-p', `vcl_path=${dir}`);
  const child: ChildProcess = spawn(varnishd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  let exited = false;
  const done = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(killed);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 20_000, () => !exited);
  } catch (err) {
    await stop();
    throw new Error(`varnishd did not start: ${(err as Error).message}\n${output}`);
  }
  const varnishstat = findProgram('varnishstat') ?? 'varnishstat';
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async counters(...names) {
      const fields = names.flatMap((n) => ['-f', `MAIN.${n}`]);
      const { stdout } = await run(varnishstat, ['-n', workdir, '-1', ...fields]);
      const values: Record<string, number> = {};
      for (const line of stdout.split('\n')) {
        const m = /^MAIN\.(\S+)\s+(\d+)/.exec(line);
        if (m) values[m[1]!] = Number(m[2]);
      }
      for (const n of names) values[n] ??= 0;
      return values;
    },
    stop,
  };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request, the whole answer read; `localAddress` picks the client's address on loopback. */
export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; localAddress?: string; agent?: http.Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers, localAddress: opts.localAddress, agent: opts.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Nearest-rank percentile of `values` (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
