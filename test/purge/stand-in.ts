/**
 * A loopback stand-in for a purge target (a Varnish or a provider's API): records every request —
 * method, path, headers, body — and answers as the test says: a status, with a Retry-After, after
 * a delay, or never. It can stop listening and listen again on the same port, so a test can make
 * its target refuse connections and then come back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = { status?: number; retryAfter?: string; delayMs?: number } | 'never';

export interface StandIn {
  readonly url: string;
  readonly seen: Seen[];
  /** Requests received and not answered yet, and the most there ever were at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  answer: (req: Seen) => Answer;
  /** Stops listening: connections are refused until `listen()`. */
  stop(): Promise<void>;
  listen(): Promise<void>;
}

const live = new Set<StandIn>();

export async function startStandIn(answer: (req: Seen) => Answer = () => ({})): Promise<StandIn> {
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;
  let port = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      standIn.seen.push(seen);
      const a = standIn.answer(seen);
      if (a === 'never') return;
      const headers = { 'content-type': 'application/json', ...(a.retryAfter ? { 'retry-after': a.retryAfter } : {}) };
      const send = () => {
        timers.delete(timer);
        res.writeHead(a.status ?? 200, headers).end(JSON.stringify({ success: (a.status ?? 200) < 300 }));
      };
      const timer = setTimeout(send, a.delayMs ?? 0);
      timers.add(timer);
    });
  });
  const listen = () =>
    new Promise<void>((resolve) => {
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await listen();
  const standIn: StandIn = {
    url: `http://127.0.0.1:${port}`,
    seen: [],
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    answer,
    stop,
    listen,
  };
  live.add(standIn);
  return standIn;
}

/** Stops every stand-in still listening (for afterEach). */
export async function stopStandIns(): Promise<void> {
  await Promise.all([...live].map((s) => s.stop().catch(() => undefined)));
  live.clear();
}

export const json = (s: Seen): Record<string, unknown> => JSON.parse(s.body) as Record<string, unknown>;

/** `n` distinct tags of one length, as the publisher makes them. */
export const matchTags = (n: number, from = 100_000) => Array.from({ length: n }, (_, i) => `match-eng.1-${from + i}`);
