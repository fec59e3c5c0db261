/**
 * Load generators of the server benchmark. Throughput is measured closed-loop at a fixed number of
 * connections with wrk (C, multi-threaded) when installed, else autocannon; latency at a fixed rate
 * with `paced`, an open-loop client here. Not autocannon's `overallRate`: it lets each connection
 * send its whole per-second quota back-to-back at the start of every second (lib/httpClient.js), so
 * its latencies are those of a saturating burst, not of a steady rate.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Children } from './children.js';
import { onCpus } from './serve-targets.js';

export interface LoadSpec {
  port: number;
  /** Request targets, sent in rotation. */
  paths: string[];
  seconds: number;
  connections: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts and answers other than 2xx. */
  errors: number;
  /**
   * The CPU seconds the server's processes used during the run, when measured (bench/serve.ts). Over
   * the run's seconds, the share of a core it kept busy: well below its one core, something other
   * than the server — the load generator, other work on the machine — set the rate.
   */
  serverCpuSeconds?: number;
}

export interface LoadGenerator {
  readonly name: string;
  run(spec: LoadSpec): Promise<LoadResult>;
}

const WRK_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-rotate.lua');

/** The JSON line bench/wrk-rotate.lua prints last, after wrk's own report. */
export function parseWrkReport(stdout: string): LoadResult {
  const line = stdout
    .trim()
    .split('\n')
    .findLast((l) => l.startsWith('{'));
  if (!line) throw new Error(`no figures in wrk's output:\n${stdout}`);
  const r = JSON.parse(line) as Record<string, number>;
  const seconds = r.durationUs! / 1e6;
  return {
    requests: r.requests!,
    rps: r.requests! / seconds,
    p50Ms: r.p50Us! / 1000,
    p99Ms: r.p99Us! / 1000,
    errors: r.connectErrors! + r.readErrors! + r.writeErrors! + r.non2xx3xx! + r.timeouts!,
  };
}

/** wrk's arguments for one run, after any taskset prefix: what a run by hand repeats. */
export function wrkArgs(threads: number, spec: Omit<LoadSpec, 'paths'>, list: string): string[] {
  const timing = ['-t', String(threads), '-c', String(spec.connections), '-d', `${spec.seconds}s`, '--timeout', '10s'];
  return [...timing, '-s', WRK_SCRIPT, `http://127.0.0.1:${spec.port}`, '--', list];
}

/** wrk, on the CPUs `cpus` when given (taskset's list). */
export function wrk(bin: string, threads: number, children: Children, scratch: string, cpus?: string): LoadGenerator {
  let lists = 0;
  return {
    name: `wrk (${threads} thread${threads === 1 ? '' : 's'}${cpus === undefined ? '' : `, on CPU ${cpus}`})`,
    async run(spec) {
      const list = path.join(scratch, `paths-${lists++}.txt`);
      fs.writeFileSync(list, `${spec.paths.join('\n')}\n`);
      return parseWrkReport(await children.run(...onCpus(cpus, bin, wrkArgs(threads, spec, list))));
    },
  };
}

/** autocannon runs in this process, which does nothing else while it runs; its latencies are whole ms. */
export const autocannonGenerator: LoadGenerator = {
  name: 'autocannon (in process; latencies in whole ms)',
  async run(spec) {
    const r = await autocannon({
      url: `http://127.0.0.1:${spec.port}`,
      connections: spec.connections,
      duration: spec.seconds,
      timeout: 10,
      requests: spec.paths.map((p) => ({ method: 'GET', path: p })),
    });
    return {
      requests: r.requests.total,
      rps: r.requests.total / r.duration,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      errors: r.errors + r.non2xx,
    };
  },
};

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Open loop at `rate` requests/s: each request is issued at its scheduled time whether or not earlier
 * ones have been answered, over at most `connections` keep-alive connections, so a slow server shows
 * as queueing in the latencies instead of silently lowering the rate (coordinated omission).
 */
export async function paced(spec: LoadSpec & { rate: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const total = Math.round(spec.rate * spec.seconds);
  const latencies: number[] = [];
  let errors = 0;
  const one = (target: string) =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      const req = http.get({ host: '127.0.0.1', port: spec.port, path: target, agent, timeout: 10_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode! >= 300) errors++;
          latencies.push(performance.now() - sent);
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        resolve();
      });
    });

  const inFlight: Array<Promise<void>> = [];
  const started = performance.now();
  await new Promise<void>((resolve) => {
    let sent = 0;
    // Timers fire late by up to a millisecond or so; everything due by then is sent at once.
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) * spec.rate) / 1000) + 1);
      for (; sent < due; sent++) inFlight.push(one(spec.paths[sent % spec.paths.length]!));
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
  };
}
