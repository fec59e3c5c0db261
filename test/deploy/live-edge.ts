/**
 * `fds live` behind a cache, measured from outside: run the CLI as a child, then drive keep-alive
 * clients at the cache while polling the origin, and work out per publish how long the cache took
 * to serve what the origin serves (visibility lag) and how many client requests reached the origin.
 * Shared by test/deploy/varnish.test.ts and bench/edge-age.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, percentile, request, waitForPort } from './varnish-helpers.js';

export const FDS_BIN = path.join(ROOT, 'bin/fds.js');

/** The compiled CLI, built once if it is missing (CI builds it in `npm ci`'s prepare). */
export function ensureBuilt(): void {
  if (fs.existsSync(path.join(ROOT, 'build/bundle/main.js'))) return;
  execFileSync('npm', ['run', 'build:ts'], { cwd: ROOT, stdio: 'ignore' });
}

export interface LiveLine {
  /** performance.now() when the line arrived. */
  at: number;
  text: string;
  stream: 'stdout' | 'stderr';
}

export interface LiveProcess {
  url: string;
  lines: LiveLine[];
  /** The cycle lines (`cycle N at …`) so far. */
  cycles(): LiveLine[];
  /** Resolves with the first line printed so far or from now on that matches. */
  waitFor(re: RegExp, ms: number): Promise<LiveLine>;
  exited(): boolean;
  stop(): Promise<number | null>;
}

/** `fds live ARGS --port PORT`; resolves once it serves. */
export async function startLive(args: readonly string[], port: number, startMs = 90_000): Promise<LiveProcess> {
  const child = spawn(process.execPath, [FDS_BIN, 'live', ...args, '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LiveLine[] = [];
  const waiters: { re: RegExp; resolve: (l: LiveLine) => void }[] = [];
  const take = (stream: 'stdout' | 'stderr') => {
    let rest = '';
    child[stream].setEncoding('utf8');
    child[stream].on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      for (const text of parts) {
        const line = { at: performance.now(), text, stream };
        lines.push(line);
        for (const w of waiters.splice(0)) {
          if (w.re.test(text)) w.resolve(line);
          else waiters.push(w);
        }
      }
    });
  };
  take('stdout');
  take('stderr');
  let code: number | null | undefined;
  const done = new Promise<number | null>((resolve) =>
    child.once('exit', (c) => {
      code = c;
      resolve(c);
    }),
  );
  const live: LiveProcess = {
    url: `http://127.0.0.1:${port}`,
    lines,
    cycles: () => lines.filter((l) => /^cycle \d+ /.test(l.text)),
    waitFor(re, ms) {
      const seen = lines.find((l) => re.test(l.text));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const tail = lines
            .slice(-15)
            .map((l) => l.text)
            .join('\n');
          reject(new Error(`fds live printed nothing matching ${re} in ${ms} ms; its last lines:\n${tail}`));
        }, ms);
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
        void done.then(() => {
          clearTimeout(timer);
          reject(new Error(`fds live exited (${code}) before printing ${re}:\n${lines.map((l) => l.text).join('\n')}`));
        });
      });
    },
    exited: () => code !== undefined,
    async stop() {
      if (code === undefined) {
        child.kill('SIGTERM');
        const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(killed);
      }
      return code ?? null;
    },
  };
  try {
    await live.waitFor(/^fds live: serving /, startMs);
    await waitForPort(port, 5000, () => !live.exited());
  } catch (err) {
    await live.stop();
    throw err;
  }
  return live;
}

/** The hot live requests of one league: its date-less scoreboard, a match in play, the change feed. */
export async function hotUrls(origin: string, league: string): Promise<{ urls: string[]; inPlay: boolean }> {
  const board = await request(`${origin}/get/soccer/${league}/scoreboard`);
  if (board.status !== 200) throw new Error(`scoreboard: HTTP ${board.status} ${board.body}`);
  const events = (JSON.parse(board.body) as { events: { id: string; status: { type: { state: string } } }[] }).events;
  const live = events.find((e) => e.status.type.state === 'in');
  const event = live ?? events[0];
  if (!event) throw new Error(`no match on the ${league} scoreboard`);
  return {
    urls: [
      `/get/soccer/${league}/scoreboard`,
      `/get/soccer/${league}/summary?event=${event.id}`,
      '/get/soccer/changes',
    ],
    inPlay: live !== undefined,
  };
}

export interface EdgeRun {
  /** Requests the clients made through the cache, and how many of them were not 200. */
  clientRequests: number;
  notOk: Record<string, number>;
  /** Requests the cache sent to the origin while the clients ran (`originRequests()` delta). */
  originRequests: number;
  /** One per publish seen at the origin: ms until the cache served the same ETag (Infinity: never). */
  lags: number[];
  /**
   * The same, with when (ms since the start), where, and how long the origin kept answering it
   * (until its next ETag, or the end): for a report that explains itself.
   */
  samples: { url: string; at: number; lag: number; kept: number }[];
  /** Per URL: how many new ETags the origin showed. */
  publishes: Record<string, number>;
  seconds: number;
}

interface Hit {
  status: number;
  etag: string | undefined;
}

/** GET, body discarded; the connection goes back to the agent. */
function hit(url: string, agent: http.Agent, headers: Record<string, string>): Promise<Hit> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * `clients` keep-alive clients request `urls` round-robin through `edge` for `seconds`, while one
 * poller per URL asks `origin` every `pollMs`. A publish is an ETag the origin poller sees for the
 * first time (the ETags it found at the start are not); its lag runs from then until any client
 * first got that ETag from the cache (0 when a client had it first). Origin polling stops
 * `settleMs` before the clients do, so the last publishes have time to show.
 */
export async function measureEdge(opts: {
  edge: string;
  origin: string;
  urls: readonly string[];
  clients: number;
  seconds: number;
  pollMs?: number;
  settleMs?: number;
  originRequests: () => Promise<number>;
}): Promise<EdgeRun> {
  const pollMs = opts.pollMs ?? 50;
  const settleMs = opts.settleMs ?? 1500;
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.clients });
  const pollAgent = new http.Agent({ keepAlive: true, maxSockets: opts.urls.length });
  const seenEdge = new Map<string, Map<string, number>>(opts.urls.map((u) => [u, new Map()]));
  const seenOrigin = new Map<string, Map<string, number>>(opts.urls.map((u) => [u, new Map()]));
  const initial = new Map<string, string | undefined>();
  for (const u of opts.urls) initial.set(u, (await hit(opts.origin + u, pollAgent, {})).etag);

  const started = performance.now();
  const endLoad = started + opts.seconds * 1000;
  const endPoll = endLoad - settleMs;
  const before = await opts.originRequests();
  let clientRequests = 0;
  const notOk: Record<string, number> = {};

  const client = async (k: number) => {
    for (let i = k; performance.now() < endLoad; i++) {
      const u = opts.urls[i % opts.urls.length]!;
      const r = await hit(opts.edge + u, agent, { 'accept-encoding': 'gzip' });
      clientRequests++;
      if (r.status !== 200) notOk[r.status] = (notOk[r.status] ?? 0) + 1;
      else if (r.etag) {
        const seen = seenEdge.get(u)!;
        if (!seen.has(r.etag)) seen.set(r.etag, performance.now());
      }
    }
  };
  const poller = async (u: string) => {
    const seen = seenOrigin.get(u)!;
    while (performance.now() < endPoll) {
      const r = await hit(opts.origin + u, pollAgent, {});
      if (r.status === 200 && r.etag && r.etag !== initial.get(u) && !seen.has(r.etag))
        seen.set(r.etag, performance.now());
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  try {
    await Promise.all([
      ...Array.from({ length: opts.clients }, (_, k) => client(k)),
      ...opts.urls.map((u) => poller(u)),
    ]);
  } finally {
    agent.destroy();
    pollAgent.destroy();
  }
  const originRequests = (await opts.originRequests()) - before;

  const samples: EdgeRun['samples'] = [];
  const publishes: Record<string, number> = {};
  for (const u of opts.urls) {
    const edge = seenEdge.get(u)!;
    publishes[u] = seenOrigin.get(u)!.size;
    const seen = [...seenOrigin.get(u)!];
    for (const [i, [etag, at]] of seen.entries()) {
      const shown = edge.get(etag);
      const lag = shown === undefined ? Number.POSITIVE_INFINITY : Math.max(0, shown - at);
      const kept = (seen[i + 1]?.[1] ?? endPoll) - at;
      samples.push({ url: u, at: at - started, lag, kept });
    }
  }
  samples.sort((a, b) => a.at - b.at);
  return {
    clientRequests,
    notOk,
    originRequests,
    lags: samples.map((x) => x.lag),
    samples,
    publishes,
    seconds: (performance.now() - started) / 1000,
  };
}

/** `p50 12 ms, p95 40 ms, max 61 ms over 30 publishes`. */
export function describeLags(lags: readonly number[]): string {
  const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : 'never');
  return `p50 ${ms(percentile(lags, 50))}, p95 ${ms(percentile(lags, 95))}, max ${ms(percentile(lags, 100))} over ${lags.length} publishes`;
}
