/**
 * The servers the server benchmark measures, each a child process on 127.0.0.1: `fds serve` as a user
 * runs it, nginx with a generated config (the static baseline when installed), and the node:http
 * stand-ins of bench/static-server.ts. A target is ready once it answers HTTP.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Children, Started } from './children.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Running {
  port: number;
  started: Started;
  /** Its process id: its CPU time is summed over it and the processes it started. */
  pid: number;
}

/**
 * Where the benchmark's processes run: each server on `server`, the load generator on `generator`
 * (taskset's CPU lists). A static server and fds then each have one core to themselves, all their
 * threads included, and never share it with the load generator; left to the scheduler, the two
 * moved between the cores from run to run (docs/performance.md, "Serving").
 */
export interface CpuPlan {
  server: string;
  generator: string;
}

/** One core for the servers and one for the load generator, when there are two and taskset is installed. */
export function cpuPlan(cores = os.availableParallelism(), taskset = findExecutable(TASKSET)): CpuPlan | null {
  if (cores < 2 || taskset === null) return null;
  return { server: '0', generator: '1' };
}

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'];

/** `command args` run on `cpus` (taskset execs the command: same process, same group), or as it is. */
export function onCpus(cpus: string | undefined, command: string, args: string[]): [string, string[]] {
  if (cpus === undefined) return [command, args];
  const taskset = findExecutable(TASKSET);
  if (taskset === null) throw new Error('taskset is not installed: cannot pin to a CPU');
  return [taskset, ['-c', cpus, command, ...args]];
}

/**
 * User and system CPU seconds of process `root` and every live process below it (nginx's worker;
 * the process `fds serve` starts itself again as, which leads a group of its own), from the kernel's
 * tick counts; softirq work done in a process's time, such as loopback delivery of what it sends,
 * counts as its own. NaN without /proc.
 */
export function treeCpuSeconds(root: number): number {
  if (!fs.existsSync('/proc/self/stat')) return Number.NaN;
  const procs: Array<{ pid: number; ppid: number; ticks: number }> = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    // After the command's closing parenthesis: state, ppid, … utime (14th field of the line), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    procs.push({ pid: Number(name), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  const inTree = new Set([root]);
  let ticks = 0;
  // Parents before children is not /proc's order: go round until no process joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (p.ticks >= 0 && (p.pid === root || inTree.has(p.ppid))) {
        inTree.add(p.pid);
        ticks += p.ticks;
        p.ticks = -1;
        grew = true;
      }
    }
  }
  return ticks / CLOCK_TICKS;
}

/** USER_HZ, the unit of /proc/PID/stat's times: 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS = 100;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function answers(port: number, target: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: target, timeout: 1000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** Poll until the server answers `target` at all; fail at once when its process exits. */
export async function waitUntilServing(
  name: string,
  port: number,
  target: string,
  started: Started,
  timeoutMs = 30_000,
) {
  let exited: number | string | null = null;
  void started.exited.then((code) => {
    exited = code;
  });
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (exited !== null) throw new Error(`${name} exited (${exited}) before serving: ${started.stderr().trim()}`);
    if (await answers(port, target)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not answer on 127.0.0.1:${port} within ${timeoutMs / 1000} s: ${started.stderr()}`);
}

/**
 * How to run the CLI: `bin/fds.js` (the compiled build/, what a user runs) when build/ holds every
 * source file compiled, and bundled, after its last change; else straight from src/ through tsx, saying why.
 */
export function fdsCommand(root = ROOT): { argv: string[]; how: string } {
  const src = path.join(root, 'src');
  const sources = fs
    .readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  // bin/fds.js runs the bundle made from the compiled tree after it (scripts/bundle.mjs).
  const bundle = path.join(root, 'build/bundle/main.js');
  const bundled = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : -1;
  const stale = sources.some((f) => {
    const compiled = path.join(root, 'build', f.replace(/\.ts$/, '.js'));
    const changed = fs.statSync(path.join(src, f)).mtimeMs;
    return !fs.existsSync(compiled) || fs.statSync(compiled).mtimeMs < changed || bundled < changed;
  });
  if (!stale) return { argv: [process.execPath, path.join(root, 'bin/fds.js')], how: 'node bin/fds.js (build/)' };
  return {
    argv: [process.execPath, '--import', 'tsx', path.join(root, 'src/cli/main.ts')],
    how: 'node --import tsx src/cli/main.ts (build/ is older than src/; `npm run build:ts` to bench the compiled CLI)',
  };
}

export async function startFds(
  children: Children,
  fds: { argv: string[] },
  opts: { db: string; dir: string; cpus?: string },
): Promise<Running> {
  const port = await freePort();
  const [node, ...args] = fds.argv;
  // No rate limit, and no request log: nginx runs with access_log off.
  const serveArgs = ['serve', '--db', opts.db, '--dir', opts.dir, '--port', String(port), '--host', '127.0.0.1'];
  const quiet = ['--no-rate-limiting', '--no-request-log'];
  const started = children.spawn(...onCpus(opts.cpus, node!, [...args, ...serveArgs, ...quiet]), { cwd: ROOT });
  await waitUntilServing('fds serve', port, '/health', started);
  return { port, started, pid: started.child.pid! };
}

/** A node:http stand-in from bench/static-server.ts: serve-handler over `dir`, or `bytes` constant bytes. */
export async function startNodeStatic(
  children: Children,
  opts: ({ dir: string } | { bytes: number }) & { cpus?: string },
): Promise<Running> {
  const port = await freePort();
  const mode = 'dir' in opts ? ['--dir', opts.dir] : ['--bytes', String(opts.bytes)];
  const script = path.join(ROOT, 'bench/static-server.ts');
  const args = ['--import', 'tsx', script, '--port', String(port), ...mode];
  const started = children.spawn(...onCpus(opts.cpus, process.execPath, args), { cwd: ROOT });
  await waitUntilServing('static-server.ts', port, '/', started);
  return { port, started, pid: started.child.pid! };
}

export const NGINX_CEILING_PATH = '/__ceiling';
/** More descriptors than the broad sample has files: every file asked for stays open. */
const OPEN_FILE_CACHE_MAX = 20_000;

/**
 * nginx as a production static server is set up: sendfile with tcp_nopush, and an open-file cache
 * (descriptors, sizes and lookups of the files asked for kept, so a hit costs no open() or stat();
 * a release's files never change once published). One worker — one core, as fds's one event loop —
 * loopback only, no access log, keep-alive without a request cap (as node's server).
 * NGINX_CEILING_PATH answers one fixed file, for the load generator's ceiling. Started by root,
 * nginx's worker would switch to `nobody`, who cannot read a build in a private directory; `asRoot`
 * keeps it root instead.
 *
 * Without the open-file cache nginx answered the bench's requests ~10–25 % slower per CPU second,
 * which is most of why this bench once printed static ÷ nginx 0.59 where a wrk run against a
 * production-configured nginx gave 0.30–0.34 (docs/performance.md, "Serving").
 */
export function nginxConfig(opts: {
  scratch: string;
  root: string;
  port: number;
  ceilingFile: string;
  asRoot?: boolean;
}): string {
  const tmp = (name: string) => path.join(opts.scratch, name);
  return `${opts.asRoot ? 'user root root;\n' : ''}worker_processes 1;
daemon off;
pid ${tmp('nginx.pid')};
error_log ${tmp('nginx-error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${tmp('nginx-body')};
  proxy_temp_path ${tmp('nginx-proxy')};
  fastcgi_temp_path ${tmp('nginx-fastcgi')};
  uwsgi_temp_path ${tmp('nginx-uwsgi')};
  scgi_temp_path ${tmp('nginx-scgi')};
  types { application/json json; text/html html; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  open_file_cache max=${OPEN_FILE_CACHE_MAX} inactive=5m;
  open_file_cache_valid 5m;
  open_file_cache_min_uses 1;
  open_file_cache_errors on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${opts.port};
    root ${opts.root};
    location = ${NGINX_CEILING_PATH} { alias ${opts.ceilingFile}; }
  }
}
`;
}

export async function startNginx(
  children: Children,
  bin: string,
  opts: { scratch: string; root: string; ceilingFile: string; cpus?: string },
): Promise<Running> {
  const port = await freePort();
  const conf = path.join(opts.scratch, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig({ ...opts, port, asRoot: process.getuid?.() === 0 }));
  const args = ['-p', opts.scratch, '-c', conf, '-e', path.join(opts.scratch, 'nginx-error.log')];
  // The master's affinity passes to its worker.
  const started = children.spawn(...onCpus(opts.cpus, bin, args));
  await waitUntilServing('nginx', port, NGINX_CEILING_PATH, started);
  return { port, started, pid: started.child.pid! };
}

/** The first of `candidates` that is an executable file, else null. */
export function findExecutable(candidates: string[]): string | null {
  for (const c of candidates) {
    try {
      fs.accessSync(c, fs.constants.X_OK);
      return c;
    } catch {
      // not there: try the next
    }
  }
  return null;
}
