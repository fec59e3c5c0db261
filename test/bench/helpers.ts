/** Loopback servers and process checks for the server-benchmark tests. */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback server that records every request target and answers 404 for targets starting `/missing`. */
export async function recordingServer(): Promise<{ port: number; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const status = req.url?.startsWith('/missing') ? 404 : 200;
    res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Running (not a zombie waiting to be reaped: a killed orphan may stay one in a container). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function procText(pid: string, file: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'latin1');
  } catch {
    return '';
  }
}

/**
 * Live processes started with `dir` in their environment (TMPDIR: every descendant inherits it) or on
 * their command line, and the members of their process groups — nginx clears its workers' environment
 * and renames them, but they stay in their master's group.
 */
export function processesUnder(dir: string): number[] {
  const pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const groupOf = (pid: string) => {
    const stat = procText(pid, 'stat');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2];
  };
  const marked = pids.filter(
    (pid) => procText(pid, 'environ').split('\0').includes(`TMPDIR=${dir}`) || procText(pid, 'cmdline').includes(dir),
  );
  // Only groups the marked processes lead: the bench itself shares the test runner's group.
  const groups = new Set(marked.filter((pid) => groupOf(pid) === pid));
  return pids
    .filter((pid) => (marked.includes(pid) || groups.has(groupOf(pid) ?? '')) && alive(Number(pid)))
    .map(Number);
}
