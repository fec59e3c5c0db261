/**
 * A loopback stand-in for ESPN: serves a directory in the §2.2 layout at ESPN's own paths and query
 * strings, with faults programmable per request path and attempt, and counts what it was asked.
 * Anything that is not an ESPN path with ESPN's query string is a 400, so a provider that builds
 * URLs wrongly cannot pass for one that builds them right.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'stall' } // the request is accepted and never answered
  | { kind: 'stall-body' } // headers and half the body, then silence
  | { kind: 'truncate' } // half the body, ended cleanly: not parseable JSON
  | { kind: 'cut' } // half the body of a longer announced length, then the connection drops
  | { kind: 'html' } // an error page served as 200 text/html
  | { kind: 'json'; body: unknown }; // well-formed JSON that is not the payload asked for

export const fault = {
  status: (status: number, retryAfter?: string): Fault => ({ kind: 'status', status, retryAfter }),
  stall: { kind: 'stall' } as Fault,
  stallBody: { kind: 'stall-body' } as Fault,
  truncate: { kind: 'truncate' } as Fault,
  cut: { kind: 'cut' } as Fault,
  html: { kind: 'html' } as Fault,
  json: (body: unknown): Fault => ({ kind: 'json', body }),
};

export interface RequestInfo {
  /** Path and query string, exactly as requested. */
  path: string;
  /** 1 for the first request of this path, 2 for the next, … */
  attempt: number;
}

export type FaultPlan = (req: RequestInfo) => Fault | undefined;

/** Faults by path: the i-th request of a path whose text contains the key gets the i-th fault. */
export function faultsByPath(plan: Record<string, Fault[]>): FaultPlan {
  return ({ path: p, attempt }) => {
    for (const [key, faults] of Object.entries(plan)) if (p.includes(key)) return faults[attempt - 1];
    return undefined;
  };
}

export const outage: FaultPlan = () => fault.status(500);

export interface StandIn {
  readonly url: string;
  faults: FaultPlan | undefined;
  /** Wait this long before answering each request (to make requests overlap). */
  delayMs: number;
  readonly stats: {
    inFlight: number;
    maxInFlight: number;
    total: number;
    perPath: Map<string, number>;
    userAgents: Set<string>;
  };
  /** Paths requested since the last reset, in arrival order. */
  readonly log: Array<{ path: string; at: number }>;
  reset(): void;
  close(): Promise<void>;
}

const SITE =
  /^\/apis\/site\/v2\/sports\/soccer\/([a-z0-9._-]+)\/(scoreboard|summary|teams|teams\/([A-Za-z0-9_-]+)\/roster)$/;
const STANDINGS = /^\/apis\/v2\/sports\/soccer\/([a-z0-9._-]+)\/standings$/;
const PLAYS =
  /^\/v2\/sports\/soccer\/leagues\/([a-z0-9._-]+)\/events\/([A-Za-z0-9_-]+)\/competitions\/([A-Za-z0-9_-]+)\/plays$/;

/** The file that answers a request, `null` when the request is not an ESPN one, `undefined` when ESPN has nothing. */
function resolve(root: string, url: URL): string | undefined | null {
  const q = Object.fromEntries(url.searchParams);
  const keys = Object.keys(q).sort().join(',');
  const file = (...parts: string[]) => {
    const f = path.join(root, ...parts);
    return fs.existsSync(f) ? f : undefined;
  };
  let m = SITE.exec(url.pathname);
  if (m) {
    const [, league, kind, teamId] = m as unknown as [string, string, string, string | undefined];
    if (kind === 'scoreboard') {
      if (keys === 'dates' && /^\d{8}$/.test(q.dates!)) return file(league, 'scoreboard', `${q.dates}.json`);
      // A month board (ESPN's form since 2026-09): the recorded days of the month, merged (monthBoard).
      if (keys === 'dates,limit' && /^\d{6}$/.test(q.dates!) && /^[1-9]\d{0,2}$/.test(q.limit!))
        return file(league, 'scoreboard')
          ? `month:${path.join(root, league, 'scoreboard')}:${q.dates}:${q.limit}`
          : undefined;
      return null;
    }
    if (kind === 'summary') return keys === 'event' ? file(league, 'summary', `${q.event}.json`) : null;
    if (keys !== '') return null;
    return teamId ? file(league, 'roster', `${teamId}.json`) : file(league, 'teams.json');
  }
  m = STANDINGS.exec(url.pathname);
  if (m) {
    const league = m[1]!;
    if (keys === 'season') return /^\d{4}$/.test(q.season!) ? file(league, 'standings', `${q.season}.json`) : null;
    if (keys !== '') return null;
    // No season: ESPN's current table — here standings.json, else the latest season recorded.
    const seasons = fs.existsSync(path.join(root, league, 'standings'))
      ? fs.readdirSync(path.join(root, league, 'standings')).sort()
      : [];
    return file(league, 'standings.json') ?? (seasons.length ? file(league, 'standings', seasons.at(-1)!) : undefined);
  }
  m = PLAYS.exec(url.pathname);
  if (m) {
    const [, league, event, competition] = m as unknown as [string, string, string, string];
    if (event !== competition || keys !== 'limit,page' || q.limit !== '1000' || !/^[1-9]\d*$/.test(q.page!))
      return null;
    return (
      file(league, 'plays', `${event}-${q.page}.json`) ??
      (q.page === '1' ? file(league, 'plays', `${event}.json`) : undefined)
    );
  }
  return null;
}

/** The recorded day boards of a month merged into one, cut at the limit; undefined when none is recorded. */
function monthBoard(spec: string): Buffer | undefined {
  const [, dir, month, limit] = spec.split(':') as [string, string, string, string];
  const days = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(month) && /^\d{8}\.json$/.test(f))
    .sort();
  if (!days.length) return undefined;
  const boards = days.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { events: unknown[] });
  const events = boards.flatMap((b) => b.events).slice(0, Number(limit));
  return Buffer.from(JSON.stringify({ ...boards[0], events }));
}

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

function answer(res: http.ServerResponse, f: Fault | undefined, body: Buffer | undefined, status: number): void {
  const json = { 'content-type': 'application/json;charset=UTF-8' };
  const half = body ? body.subarray(0, Math.floor(body.length / 2)) : Buffer.from('{"error":');
  if (!f) {
    const out =
      body ?? Buffer.from(JSON.stringify({ code: status, message: status === 404 ? 'Not Found' : 'Bad Request' }));
    res.writeHead(status, { ...json, 'content-length': out.length }).end(out);
    return;
  }
  switch (f.kind) {
    case 'status':
      res
        .writeHead(f.status, { ...json, ...(f.retryAfter !== undefined ? { 'retry-after': f.retryAfter } : {}) })
        .end(JSON.stringify({ code: f.status }));
      return;
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
      return;
    case 'json':
      res.writeHead(200, json).end(JSON.stringify(f.body));
      return;
    case 'truncate':
      res.writeHead(200, json).end(half);
      return;
    case 'cut':
      res.writeHead(200, { ...json, 'content-length': (body?.length ?? 100) + 10 });
      res.write(half, () => res.socket?.destroy());
      return;
    case 'stall-body':
      res.writeHead(200, { ...json, 'content-length': body?.length ?? 100 });
      res.write(half);
      return;
    case 'stall':
      return;
  }
}

export async function startStandIn(
  root: string,
  opts: { faults?: FaultPlan; delayMs?: number } = {},
): Promise<StandIn> {
  const sockets = new Set<Socket>();
  const stats = {
    inFlight: 0,
    maxInFlight: 0,
    total: 0,
    perPath: new Map<string, number>(),
    userAgents: new Set<string>(),
  };
  const log: Array<{ path: string; at: number }> = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    const p = url.pathname + url.search;
    const attempt = (stats.perPath.get(p) ?? 0) + 1;
    stats.perPath.set(p, attempt);
    stats.total++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    stats.userAgents.add(req.headers['user-agent'] ?? '');
    log.push({ path: p, at: Date.now() });
    res.on('close', () => stats.inFlight--);
    const f = standIn.faults?.({ path: p, attempt });
    const file = resolve(root, url);
    const body = file?.startsWith('month:') ? monthBoard(file) : file ? fs.readFileSync(file) : undefined;
    const status = file === null ? 400 : body ? 200 : 404;
    setTimeout(() => answer(res, f, body, status), standIn.delayMs);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const standIn: StandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    faults: opts.faults,
    delayMs: opts.delayMs ?? 0,
    stats,
    log,
    reset() {
      // inFlight is left alone: requests of an earlier run may still be closing.
      Object.assign(stats, { maxInFlight: 0, total: 0 });
      stats.perPath.clear();
      stats.userAgents.clear();
      log.length = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
  return standIn;
}
