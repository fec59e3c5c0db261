/** The parts of the server benchmark (bench/serve.ts): request sampling, servers, load generators, cleanup. */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Children } from '../../bench/children.js';
import { paced, parseWrkReport, wrk } from '../../bench/load.js';
import { fileUrl, sampleRequests } from '../../bench/requests.js';
import {
  cpuPlan,
  fdsCommand,
  findExecutable,
  treeCpuSeconds,
  nginxConfig,
  onCpus,
  startNginx,
  startNodeStatic,
} from '../../bench/serve-targets.js';
import { tempDir } from '../helpers/store.js';
import { alive, recordingServer } from './helpers.js';

const NGINX = findExecutable(['/usr/sbin/nginx', '/usr/local/sbin/nginx']);
const WRK = findExecutable(['/usr/bin/wrk', '/usr/local/bin/wrk']);
const TASKSET = findExecutable(['/usr/bin/taskset', '/bin/taskset']);

const children = new Children();
afterEach(async () => {
  await children.killAll();
});

function release(entries: Array<{ request: string; file: string; status?: number }>): string {
  const dir = tempDir('fds-sb-release-');
  const lines = entries.map((e) =>
    JSON.stringify({ file: e.file, request: e.request, status: e.status ?? 200, bytes: 10 }),
  );
  fs.writeFileSync(path.join(dir, 'manifest.ndjson'), `${lines.join('\n')}\n`);
  return dir;
}

function fetchBody(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: target }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject);
  });
}

describe('request sampling', () => {
  const entries = Array.from({ length: 200 }, (_, i) => ({
    request: `/get/soccer/eng.1/fixtures?page=${i}`,
    file: `_s/get/soccer/eng.1/fixtures/page-${i},status-all.json`,
    status: i % 10 === 0 ? 404 : 200,
  }));

  it('draws the same requests for the same seed, each at most once, only among answers that are 200', () => {
    const dir = release(entries);
    const a = sampleRequests(dir, 50, 7);
    expect(a).toEqual(sampleRequests(dir, 50, 7));
    expect(a).toHaveLength(50);
    expect(new Set(a.map((s) => s.api)).size).toBe(50);
    const notOk = new Set(entries.filter((e) => e.status !== 200).map((e) => e.request));
    expect(a.filter((s) => notOk.has(s.api))).toEqual([]);
    for (const s of a) expect(entries.find((e) => e.request === s.api)!.file).toBe(s.file);
    expect(sampleRequests(dir, 50, 8).map((s) => s.api)).not.toEqual(a.map((s) => s.api));
  });

  it('takes every 200 answer, in mixed order, when asked for more than there are', () => {
    const all = sampleRequests(release(entries), 1000, 1).map((s) => s.api);
    expect([...all].sort()).toEqual(
      entries
        .filter((e) => e.status === 200)
        .map((e) => e.request)
        .sort(),
    );
    expect(all).not.toEqual(entries.filter((e) => e.status === 200).map((e) => e.request));
  });
});

describe('static baselines', () => {
  const file = '_s/get/soccer/eng.1/plays/event-1,important-true odd%name.json';
  function tree(): string {
    const dir = tempDir('fds-sb-tree-');
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), '{"the":"file"}');
    return dir;
  }

  it('serve-handler answers a release file at its file URL, names with commas and percent signs included', async () => {
    const s = await startNodeStatic(children, { dir: tree() });
    expect(await fetchBody(s.port, fileUrl(file))).toEqual({ status: 200, body: '{"the":"file"}' });
  });

  it.skipIf(!NGINX)('nginx answers a release file at its file URL, and the ceiling file at its own path', async () => {
    const scratch = tempDir('fds-sb-nginx-');
    const ceilingFile = path.join(scratch, 'ceiling.json');
    fs.writeFileSync(ceilingFile, 'xxxx');
    const s = await startNginx(children, NGINX!, { scratch, root: tree(), ceilingFile });
    expect(await fetchBody(s.port, fileUrl(file))).toEqual({ status: 200, body: '{"the":"file"}' });
    expect(await fetchBody(s.port, '/__ceiling')).toEqual({ status: 200, body: 'xxxx' });
  });

  it('configures nginx with one worker, no access log, listening on loopback only', () => {
    const conf = nginxConfig({ scratch: '/s', root: '/r', port: 8123, ceilingFile: '/s/c' });
    expect(conf).toMatch(/^worker_processes 1;$/m);
    expect(conf).toMatch(/^\s*access_log off;$/m);
    expect([...conf.matchAll(/^\s*listen (.*);$/gm)].map((m) => m[1])).toEqual(['127.0.0.1:8123']);
  });

  it('configures nginx as a production static server: sendfile, tcp_nopush and an open-file cache', () => {
    const conf = nginxConfig({ scratch: '/s', root: '/r', port: 8123, ceilingFile: '/s/c' });
    expect(conf).toMatch(/^\s*sendfile on;$/m);
    expect(conf).toMatch(/^\s*tcp_nopush on;$/m);
    // Room for every file of the broad sample (5,000 by default), kept for longer than a run.
    const cache = /^\s*open_file_cache max=(\d+) inactive=5m;$/m.exec(conf);
    expect(Number(cache?.[1])).toBeGreaterThanOrEqual(10_000);
    expect(conf).toMatch(/^\s*open_file_cache_valid 5m;$/m);
    expect(conf).not.toMatch(/gzip on/);
  });
});

describe('load generators', () => {
  it('paced sends rate × seconds requests, rotating through the targets, and counts failed answers', async () => {
    const server = await recordingServer();
    try {
      const r = await paced({
        port: server.port,
        paths: ['/a', '/b', '/missing'],
        seconds: 1,
        rate: 60,
        connections: 4,
      });
      expect(server.seen).toHaveLength(60);
      expect(server.seen.filter((p) => p === '/a')).toHaveLength(20);
      expect(server.seen.filter((p) => p === '/b')).toHaveLength(20);
      expect(r.requests).toBe(60);
      expect(r.errors).toBe(20);
      expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms);
    } finally {
      await server.close();
    }
  });

  it('reads the figures wrk-rotate.lua prints after wrk’s own report', () => {
    const out =
      'Running 1s test @ http://127.0.0.1:1\n  1 threads and 2 connections\nRequests/sec: 10.00\n' +
      '{"requests":3000,"durationUs":2000000,"bytes":1,"p50Us":250,"p99Us":1500,' +
      '"connectErrors":1,"readErrors":2,"writeErrors":3,"non2xx3xx":4,"timeouts":5}\n';
    expect(parseWrkReport(out)).toEqual({ requests: 3000, rps: 1500, p50Ms: 0.25, p99Ms: 1.5, errors: 15 });
    expect(() => parseWrkReport('Running 1s test\n')).toThrow(/no figures/);
  });

  it.skipIf(!WRK)('wrk sends every listed target and counts answers that are not 2xx as errors', async () => {
    const server = await recordingServer();
    try {
      const gen = wrk(WRK!, 1, children, tempDir('fds-sb-wrk-'));
      const paths = ['/one', '/two?x=1,2', '/missing'];
      const r = await gen.run({ port: server.port, paths, seconds: 1, connections: 2 });
      expect(new Set(server.seen)).toEqual(new Set(paths));
      // wrk counts answers; requests still in flight when its time is up were seen but are not counted.
      expect(r.requests).toBeLessThanOrEqual(server.seen.length);
      expect(r.requests).toBeGreaterThanOrEqual(server.seen.length - 2);
      const missing = server.seen.filter((p) => p === '/missing').length;
      expect(r.errors).toBeGreaterThanOrEqual(missing - 2);
      expect(r.errors).toBeLessThanOrEqual(missing);
    } finally {
      await server.close();
    }
  });
});

describe('CPU placement and CPU time', () => {
  it('puts the servers on one core and the load generator on the other, when there are two and taskset', () => {
    expect(cpuPlan(2, '/usr/bin/taskset')).toEqual({ server: '0', generator: '1' });
    expect(cpuPlan(4, '/usr/bin/taskset')).toEqual({ server: '0', generator: '1' });
    expect(cpuPlan(1, '/usr/bin/taskset')).toBeNull();
    expect(cpuPlan(2, null)).toBeNull();
  });

  it('runs a command as it is without CPUs, else through taskset on them', () => {
    expect(onCpus(undefined, 'wrk', ['-t', '1'])).toEqual(['wrk', ['-t', '1']]);
    if (TASKSET) expect(onCpus('1', 'wrk', ['-t', '1'])).toEqual([TASKSET, ['-c', '1', 'wrk', '-t', '1']]);
  });

  it.skipIf(!TASKSET)(
    'a pinned child and what it starts run only on the CPU asked for, in a group of its own',
    async () => {
      const c = new Children();
      try {
        const started = c.spawn(...onCpus('0', 'sh', ['-c', 'sleep 30 & echo $!; wait']), { captureStdout: true });
        const grandchild = await new Promise<number>((resolve) => {
          started.child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
        });
        for (const pid of [started.child.pid!, grandchild]) {
          const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
          expect(/^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1]).toBe('0');
        }
      } finally {
        await c.killAll(500);
      }
    },
  );

  it('sums the CPU time of a process and every process below it, one in a group of its own included', async () => {
    const c = new Children();
    // As `fds serve` starts itself again: a parent that waits, and a busy child leading a group of its own.
    const script = path.join(tempDir('fds-sb-cpu-'), 'parent.cjs');
    const busy = 'const end = Date.now() + 2500; while (Date.now() < end);';
    fs.writeFileSync(
      script,
      `const { spawn } = require('node:child_process');
       spawn(process.execPath, ['-e', ${JSON.stringify(busy)}], { detached: true, stdio: 'ignore' })
         .on('exit', () => process.exit(0));`,
    );
    try {
      const started = c.spawn(process.execPath, [script]);
      const root = started.child.pid!;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = treeCpuSeconds(root);
      const t0 = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const used = treeCpuSeconds(root) - before;
      const elapsed = (performance.now() - t0) / 1000;
      // The child is busy throughout: a core's worth on a quiet machine, less on a loaded one, never more than every core.
      expect(used).toBeGreaterThan(0.1);
      expect(used).toBeLessThanOrEqual(elapsed * os.availableParallelism() + 0.05);
      expect(treeCpuSeconds(2 ** 30)).toBe(0);
      await started.exited;
    } finally {
      await c.killAll(500);
    }
  });
});

describe('the CLI under test', () => {
  it('is the compiled bin/fds.js while build/ and its bundle are newer than every source, else src/ through tsx', () => {
    const root = tempDir('fds-sb-root-');
    const src = path.join(root, 'src/cli/main.ts');
    const compiled = path.join(root, 'build/cli/main.js');
    const bundle = path.join(root, 'build/bundle/main.js');
    for (const f of [src, compiled, bundle, path.join(root, 'src/types.d.ts')]) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, '');
    }
    const at = (f: string, seconds: number) => fs.utimesSync(f, seconds, seconds);
    at(src, 1000);
    at(compiled, 2000);
    at(bundle, 2000);
    expect(fdsCommand(root).argv.at(-1)).toBe(path.join(root, 'bin/fds.js'));
    at(src, 3000);
    expect(fdsCommand(root).argv).toEqual([process.execPath, '--import', 'tsx', src]);
    // Compiled again, but not bundled.
    at(compiled, 4000);
    expect(fdsCommand(root).argv).toContain('tsx');
    at(bundle, 4000);
    expect(fdsCommand(root).argv.at(-1)).toBe(path.join(root, 'bin/fds.js'));
    at(src, 1000);
    fs.writeFileSync(path.join(root, 'src/cli/new.ts'), '');
    expect(fdsCommand(root).argv).toContain('tsx');
  });
});

describe('child processes', () => {
  it('killAll ends each child’s whole process group, a process it started included', async () => {
    const c = new Children();
    const started = c.spawn('sh', ['-c', 'sleep 300 & echo $!; wait'], { captureStdout: true });
    const grandchild = await new Promise<number>((resolve) => {
      started.child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    });
    expect(alive(grandchild)).toBe(true);
    await c.killAll(500);
    await started.exited;
    await expect.poll(() => alive(grandchild), { timeout: 2000 }).toBe(false);
    expect(c.count).toBe(0);
  });
});
