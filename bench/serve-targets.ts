/**
 * The servers the server benchmark measures, each a child process on 127.0.0.1: `fds serve` as a user
 * runs it, nginx with a generated config (the static baseline when installed), and the node:http
 * stand-ins of bench/static-server.ts. A target is ready once it answers HTTP.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Children, Started } from './children.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Running {
  port: number;
  started: Started;
}

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
  opts: { db: string; dir: string },
): Promise<Running> {
  const port = await freePort();
  const [node, ...args] = fds.argv;
  // No rate limit, and no request log: nginx runs with access_log off.
  const serveArgs = ['serve', '--db', opts.db, '--dir', opts.dir, '--port', String(port), '--host', '127.0.0.1'];
  const quiet = ['--no-rate-limiting', '--no-request-log'];
  const started = children.spawn(node!, [...args, ...serveArgs, ...quiet], { cwd: ROOT });
  await waitUntilServing('fds serve', port, '/health', started);
  return { port, started };
}

/** A node:http stand-in from bench/static-server.ts: serve-handler over `dir`, or `bytes` constant bytes. */
export async function startNodeStatic(children: Children, opts: { dir: string } | { bytes: number }): Promise<Running> {
  const port = await freePort();
  const mode = 'dir' in opts ? ['--dir', opts.dir] : ['--bytes', String(opts.bytes)];
  const script = path.join(ROOT, 'bench/static-server.ts');
  const started = children.spawn(process.execPath, ['--import', 'tsx', script, '--port', String(port), ...mode], {
    cwd: ROOT,
  });
  await waitUntilServing('static-server.ts', port, '/', started);
  return { port, started };
}

export const NGINX_CEILING_PATH = '/__ceiling';

/**
 * One worker, loopback only, no access log, keep-alive without a request cap (as node's server);
 * otherwise nginx's stock static serving (sendfile, no open-file cache). NGINX_CEILING_PATH answers
 * one fixed file, for the load generator's ceiling. Started by root, nginx's worker would switch to
 * `nobody`, who cannot read a build in a private directory; `asRoot` keeps it root instead.
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
  opts: { scratch: string; root: string; ceilingFile: string },
): Promise<Running> {
  const port = await freePort();
  const conf = path.join(opts.scratch, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig({ ...opts, port, asRoot: process.getuid?.() === 0 }));
  const args = ['-p', opts.scratch, '-c', conf, '-e', path.join(opts.scratch, 'nginx-error.log')];
  const started = children.spawn(bin, args);
  await waitUntilServing('nginx', port, NGINX_CEILING_PATH, started);
  return { port, started };
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
