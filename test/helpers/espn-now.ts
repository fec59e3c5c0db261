/**
 * A loopback ESPN that behaves like ESPN does now (shared/research/espn-api.md, "Since 2026-09-15"):
 * a real HTTP server on 127.0.0.1 answering ESPN's URL forms with payloads from the deterministic
 * demo generator, shifted into real time.
 *
 * - Frames: demo time = real time + `offsetMs` (whole quarter hours), chosen so that at the real instant
 *   `matchdayAt` a busy demo matchday is under way. Every ISO-8601 instant in every payload is shifted
 *   by −offset (and so are the demo's "… at 9:00 PM UTC" kickoff texts), every incoming `dates=` is read
 *   in the real frame. A payload is generated once per (URL, demo second) and matches score in real time.
 * - Scoreboards: `dates=YYYYMMDD` is a US-Eastern day, `dates=YYYYMM` a US-Eastern month (capped at 100
 *   events without `limit`, at `limit` below 600), any `limit` ≥ 600 gives 25 events, a range is a 400
 *   `Failed to get events endpoint.`, no `dates` is today's Eastern board. Cuts are silent.
 * - Anything that is not an ESPN path with ESPN's query keys is a 400 (as espn-standin.ts); an unknown
 *   league or event is a 404.
 * - Ground truth for benches, computed without a request: `goals()`, `inPlay()`, `hotLeagues()`.
 * - Goals on demand: `scoreGoal(league, eventId, side, atMs)` adds a goal that every payload served for
 *   that match from the real instant `atMs` on shows (board entries, summary header and key events), on
 *   top of the demo's own; the ground truth counts it too.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { LEAGUES } from '../../src/reference/leagues.js';
import type { Provider } from '../../src/sync/provider.js';
import { createDemoProvider, demoKickoffs } from '../../src/sync/providers/demo/index.js';
import { DAYS, MONTHS } from '../../src/sync/providers/demo/shapes.js';
import type { Fault, FaultPlan } from './espn-standin.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** ESPN's largest plays page. */
export const PLAYS_PAGE_SIZE = 1000;
const CORE = 'http://sports.core.api.espn.com/v2/sports/soccer';
/** Longer than any demo match runs, kickoff to final whistle. */
const MATCH_SPAN = 3 * HOUR;

export type RequestKind =
  | 'board-day'
  | 'board-month'
  | 'board-range'
  | 'board-today'
  | 'summary'
  | 'plays'
  | 'teams'
  | 'roster'
  | 'standings'
  /** Not an ESPN path or query string (answered 400). */
  | 'invalid';

export interface LogEntry {
  /** Path and query string, exactly as requested. */
  path: string;
  /** Real-clock instant of arrival (the server's clock). */
  at: number;
  /** Status sent; 0 while unanswered (or for a stalled fault). */
  status: number;
  /** Body bytes sent (0 for a 304). */
  bytes: number;
  userAgent: string;
  kind: RequestKind;
}

export interface Goal {
  league: string;
  eventId: string;
  /** The score the board shows from `atMs` on. */
  home: number;
  away: number;
  /** The real instant from which the stand-in's board shows the new score. */
  atMs: number;
}

export interface LiveMatch {
  league: string;
  eventId: string;
  /** Real-frame kickoff. */
  kickoffMs: number;
  home: number;
  away: number;
  /** Board status name, e.g. STATUS_SECOND_HALF. */
  status: string;
}

/** What can be changed while the server runs (`espn.options.etags = true`). */
export interface EspnNowSettings {
  /** Day boards of Eastern days after tomorrow answer 200 with `events: []` (month boards unaffected). */
  emptyBeyondTomorrow: boolean;
  /** 403 for a missing or empty User-Agent, a browser one, or one without `Name/1.0 (+URL)`. */
  blockUserAgents: boolean;
  /** Send ETag and Last-Modified and answer conditional requests with 304. */
  etags: boolean;
  faults: FaultPlan | undefined;
  /** Wait this long before answering each request. */
  delayMs: number;
  /** Only these leagues have data (others' boards are empty, their other resources 404); all 16 if unset. */
  leagues: readonly string[] | undefined;
  /** The real clock (ms). */
  clock: () => number;
}

export interface EspnNowOptions extends Partial<EspnNowSettings> {
  /** The real instant at which a busy demo matchday should be under way (default: now). */
  matchdayAt?: Date;
  /** What "busy" means at `matchdayAt` (default ~5 leagues hot, ~12 matches in play). */
  target?: { hotLeagues: number; inPlay: number };
  /** Force demo time = real time + offsetMs (a whole number of minutes) instead of picking a busy matchday. */
  offsetMs?: number;
  seed?: number;
  scale?: number;
  /** The demo's payload weight (default light; `real` gives ESPN's sizes). */
  weight?: 'real' | 'light';
}

export interface EspnNowStats {
  inFlight: number;
  maxInFlight: number;
  total: number;
  perPath: Map<string, number>;
  perKind: Map<RequestKind, number>;
  userAgents: Set<string>;
}

export interface EspnNow {
  readonly url: string;
  /** demo time = real time + offsetMs (a whole number of quarter hours unless given). */
  readonly offsetMs: number;
  readonly seed: number;
  readonly scale: number;
  readonly options: EspnNowSettings;
  readonly stats: EspnNowStats;
  /** Requests since the last reset, in arrival order. */
  readonly log: LogEntry[];
  reset(): void;
  close(): Promise<void>;
  /** The demo instant (whole seconds) the server answers for at a real instant. */
  demoAt(realMs?: number): number;
  /** Goals whose new score the board first shows in [fromMs, toMs) (real frame), by atMs. */
  goals(fromMs: number, toMs: number): Promise<Goal[]>;
  /** Matches in play (board state `in`, half-time included) at a real instant. */
  inPlay(atMs?: number): Promise<LiveMatch[]>;
  /** Leagues with a match from 10 minutes before its kickoff until it ends, at a real instant. */
  hotLeagues(atMs?: number): Promise<string[]>;
  /**
   * A goal for `side` of a match, shown from the real instant `atMs` (default now) on by every payload
   * served for the match: its board entries (score, a Goal detail), its summary (header scores,
   * linescore, details, a key event). Recorded at once; resolves with the score the board shows from
   * `atMs` (the demo's own goals up to then included).
   */
  scoreGoal(league: string, eventId: string, side: 'home' | 'away', atMs?: number): Promise<Goal>;
}

// ---------------------------------------------------------------------------------------------
// US-Eastern calendar

const EASTERN = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function easternParts(ms: number): { ymd: string; hm: string } {
  const p = Object.fromEntries(EASTERN.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { ymd: `${p.year}${p.month}${p.day}`, hm: `${p.hour}:${p.minute}` };
}

/** The US-Eastern calendar day (YYYYMMDD) of an instant. */
export function easternYmd(ms: number): string {
  return easternParts(ms).ymd;
}

const utcYmd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

function validYmd(ymd: string): boolean {
  const y = Number(ymd.slice(0, 4));
  const m = Number(ymd.slice(4, 6));
  const d = Number(ymd.slice(6, 8));
  return /^\d{8}$/.test(ymd) && y >= 1900 && m >= 1 && m <= 12 && d >= 1 && utcYmd(Date.UTC(y, m - 1, d)) === ymd;
}

/** The instant 00:00 US-Eastern starts a day (YYYYMMDD; the month and day may overflow, as Date.UTC's). */
export function easternDayStart(ymd: string): number {
  const norm = utcYmd(Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(4, 6)) - 1, Number(ymd.slice(6, 8))));
  const [y, m, d] = [Number(norm.slice(0, 4)), Number(norm.slice(4, 6)), Number(norm.slice(6, 8))];
  for (const h of [4, 5, 3, 6]) {
    const t = Date.UTC(y, m - 1, d, h);
    const p = easternParts(t);
    if (p.ymd === norm && p.hm === '00:00') return t;
  }
  throw new Error(`no Eastern midnight found for ${ymd}`);
}

const nextYmd = (ymd: string) => utcYmd(Date.UTC(+ymd.slice(0, 4), +ymd.slice(4, 6) - 1, +ymd.slice(6, 8) + 1));

/** The UTC days (YYYYMMDD) that overlap [fromMs, toMs). */
function utcDays(fromMs: number, toMs: number): string[] {
  const out: string[] = [];
  for (let d = Math.floor(fromMs / DAY) * DAY; d < toMs; d += DAY) out.push(utcYmd(d));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shifting demo instants into the real frame

const ISO = /\b(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,3})?)?Z/g;
const KICKOFF_DETAIL = new RegExp(
  `\\b(?:${DAYS.join('|')}), (${MONTHS.join('|')}) (\\d{1,2})(?:st|nd|rd|th) at (\\d{1,2}):(\\d{2}) (AM|PM) UTC`,
  'g',
);
const KICKOFF_SHORT = /\b(\d{1,2})\/(\d{1,2}) - (\d{1,2}):(\d{2}) (AM|PM) UTC/g;
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

function clockText(d: Date): string {
  const h = d.getUTCHours();
  return `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'} UTC`;
}

/** The year (around the demo clock) a month/day/time without one most likely means. */
function nearestInstant(demoMs: number, month: number, day: number, hour12: number, minute: number, pm: boolean) {
  const hour = (hour12 % 12) + (pm ? 12 : 0);
  const y = new Date(demoMs).getUTCFullYear();
  return [y - 1, y, y + 1]
    .map((year) => Date.UTC(year, month, day, hour, minute))
    .reduce((a, b) => (Math.abs(b - demoMs) < Math.abs(a - demoMs) ? b : a));
}

/**
 * Every ISO-8601 instant in a JSON text moved by −offset, in the same form (minutes only, seconds, or
 * milliseconds); the demo's kickoff texts ("Sat, December 5th at 2:00 PM UTC", "12/5 - 2:00 PM UTC") too.
 */
export function shiftInstants(text: string, offsetMs: number, demoMs: number): string {
  if (offsetMs % MINUTE !== 0) throw new Error('shiftInstants: the offset must be a whole number of minutes');
  if (offsetMs === 0) return text;
  return text
    .replace(ISO, (all, _y, _mo, _d, _h, _mi, sec: string | undefined, frac: string | undefined) => {
      const ms = Date.parse(all);
      if (!Number.isFinite(ms)) return all;
      const iso = new Date(ms - offsetMs).toISOString();
      return frac ? iso : sec ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 16)}Z`;
    })
    .replace(KICKOFF_DETAIL, (_all, month: string, day: string, h: string, mi: string, ap: string) => {
      const d = new Date(nearestInstant(demoMs, MONTHS.indexOf(month), +day, +h, +mi, ap === 'PM') - offsetMs);
      return `${DAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${ordinal(d.getUTCDate())} at ${clockText(d)}`;
    })
    .replace(KICKOFF_SHORT, (_all, month: string, day: string, h: string, mi: string, ap: string) => {
      const d = new Date(nearestInstant(demoMs, +month - 1, +day, +h, +mi, ap === 'PM') - offsetMs);
      return `${d.getUTCMonth() + 1}/${d.getUTCDate()} - ${clockText(d)}`;
    });
}

// ---------------------------------------------------------------------------------------------
// Pure pieces: scoreboard caps, plays pages, User-Agent rule

/** How many events a scoreboard holds at most: `limit` ≥ 600 → 25; else `limit`; else 100. */
export function boardCap(limit: number | undefined): number {
  if (limit === undefined) return 100;
  return limit >= 600 ? 25 : limit;
}

/** Page `page` (from 1) of a core plays stream re-paged at ESPN's 1000 items a page. */
export function playsPage(items: readonly unknown[], page: number, league: string, eventId: string) {
  const pageCount = Math.ceil(items.length / PLAYS_PAGE_SIZE);
  return {
    $ref: `${CORE}/leagues/${league}/events/${eventId}/competitions/${eventId}/plays?limit=${PLAYS_PAGE_SIZE}&page=${page}&lang=en&region=us`,
    count: items.length,
    // ESPN's empty stream: count 0, pageIndex 0, pageCount 0.
    pageIndex: pageCount === 0 ? 0 : page,
    pageSize: PLAYS_PAGE_SIZE,
    pageCount,
    items: items.slice((page - 1) * PLAYS_PAGE_SIZE, page * PLAYS_PAGE_SIZE),
  };
}

/** ESPN's reported rule: 200 only for `Name/1.0 (+URL)` forms; 403 for none, a browser's, or a bare token. */
export function userAgentAllowed(ua: string | undefined): boolean {
  if (!ua?.trim() || /mozilla/i.test(ua)) return false;
  return /^[A-Za-z0-9][\w.-]*\/\d[\w.+-]*\s+\(.*\+?https?:\/\/[^\s)]+.*\)/.test(ua.trim());
}

// ---------------------------------------------------------------------------------------------
// Routing

const SITE =
  /^\/apis\/site\/v2\/sports\/soccer\/([a-z0-9._-]+)\/(scoreboard|summary|teams|teams\/([A-Za-z0-9_-]+)\/roster)$/;
const STANDINGS = /^\/apis\/v2\/sports\/soccer\/([a-z0-9._-]+)\/standings$/;
const PLAYS =
  /^\/v2\/sports\/soccer\/leagues\/([a-z0-9._-]+)\/events\/([A-Za-z0-9_-]+)\/competitions\/([A-Za-z0-9_-]+)\/plays$/;

type Route =
  | { kind: 'invalid' }
  | { kind: 'board-range'; league: string }
  | { kind: 'board-today' | 'board-day' | 'board-month'; league: string; dates?: string; limit?: number }
  | { kind: 'summary'; league: string; event: string }
  | { kind: 'plays'; league: string; event: string; page: number }
  | { kind: 'teams'; league: string }
  | { kind: 'roster'; league: string; team: string }
  | { kind: 'standings'; league: string; season: number | null };

function route(url: URL): Route {
  const invalid = { kind: 'invalid' } as const;
  const keys = [...url.searchParams.keys()];
  if (new Set(keys).size !== keys.length) return invalid;
  const q = Object.fromEntries(url.searchParams);
  const only = (...allowed: string[]) => keys.every((k) => allowed.includes(k));
  let m = SITE.exec(url.pathname);
  if (m) {
    const [, league, what, team] = m as unknown as [string, string, string, string | undefined];
    if (what === 'scoreboard') {
      if (!only('dates', 'limit')) return invalid;
      if (q.limit !== undefined && !/^[1-9]\d{0,5}$/.test(q.limit)) return invalid;
      const limit = q.limit === undefined ? undefined : Number(q.limit);
      const dates = q.dates;
      if (dates === undefined) return { kind: 'board-today', league, limit };
      if (/^\d{6,8}-\d{6,8}$/.test(dates)) return { kind: 'board-range', league };
      if (/^\d{8}$/.test(dates) && validYmd(dates)) return { kind: 'board-day', league, dates, limit };
      if (/^\d{6}$/.test(dates) && validYmd(`${dates}01`)) return { kind: 'board-month', league, dates, limit };
      return invalid;
    }
    if (what === 'summary')
      return keys.length === 1 && q.event && /^\w+$/.test(q.event)
        ? { kind: 'summary', league, event: q.event }
        : invalid;
    if (keys.length) return invalid;
    return team ? { kind: 'roster', league, team } : { kind: 'teams', league };
  }
  m = STANDINGS.exec(url.pathname);
  if (m) {
    if (!only('season') || (q.season !== undefined && !/^\d{4}$/.test(q.season))) return invalid;
    return { kind: 'standings', league: m[1]!, season: q.season === undefined ? null : Number(q.season) };
  }
  m = PLAYS.exec(url.pathname);
  if (m) {
    const [, league, event, competition] = m as unknown as [string, string, string, string];
    if (event !== competition || keys.length !== 2 || q.limit !== String(PLAYS_PAGE_SIZE)) return invalid;
    if (!/^[1-9]\d{0,3}$/.test(q.page ?? '')) return invalid;
    return { kind: 'plays', league, event, page: Number(q.page) };
  }
  return invalid;
}

// ---------------------------------------------------------------------------------------------
// Choosing the offset

/** Roughly how long a demo match runs, kickoff to final whistle (two halves, the break, stoppage). */
const TYPICAL_MATCH = 112 * MINUTE;

/**
 * The demo instant near `refMs` (within a week, a whole number of quarter hours away) whose matchday state is
 * closest to the target: matches in play and leagues hot, estimated from the calendar's kickoff instants
 * (cheap; no season is built).
 */
function busyDemoInstant(
  seed: number,
  scale: number,
  refMs: number,
  leagues: readonly string[],
  target: { hotLeagues: number; inPlay: number },
): number {
  const from = refMs - 7 * DAY;
  const to = refMs + 7 * DAY;
  const byLeague = leagues.map((l) => demoKickoffs(seed, scale, from - 3 * HOUR, to + HOUR, [l]));
  let best = refMs;
  let bestScore = Number.POSITIVE_INFINITY;
  const stateAt = (t: number) => {
    let inPlay = 0;
    let hot = 0;
    for (const ks of byLeague) {
      let isHot = false;
      for (const k of ks) {
        if (k <= t && t < k + TYPICAL_MATCH) inPlay++;
        if (k - 10 * MINUTE <= t && t < k + TYPICAL_MATCH) isHot = true;
      }
      if (isHot) hot++;
    }
    return { inPlay, hot };
  };
  // Whole quarter hours away from refMs, so that the offset keeps the demo's kickoffs on ESPN-like times.
  for (let t = refMs - 7 * DAY; t <= to; t += 15 * MINUTE) {
    // Busy now and for the next hour (a bench runs for a while): the state at t, +20, +40 and +60 minutes.
    const states = [0, 20, 40, 60].map((m) => stateAt(t + m * MINUTE));
    const miss = (pick: (x: { inPlay: number; hot: number }) => number, want: number) =>
      states.reduce((sum, x) => sum + Math.abs(pick(x) - want), 0) / states.length / Math.max(1, want);
    // Matches in play weigh double: they are what scores and what a poller has to follow.
    const score =
      0.5 * miss((x) => x.hot, target.hotLeagues) +
      miss((x) => x.inPlay, target.inPlay) +
      0.25 * (Math.abs(states[0]!.inPlay - target.inPlay) / Math.max(1, target.inPlay)) +
      Math.abs(t - refMs) / (365 * DAY);
    if (score < bestScore) {
      bestScore = score;
      best = t;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Goals on demand

interface Injected {
  league: string;
  eventId: string;
  side: 'home' | 'away';
  /** Real instant from which it shows. */
  atMs: number;
  /** Order of addition (over all matches). */
  seq: number;
  /** The match at that instant; undefined when the demo has no such match. */
  info: Promise<InjectedInfo | undefined>;
}

interface InjectedInfo extends Omit<Injected, 'info'> {
  /** The demo second of atMs. */
  demoMs: number;
  teamId: string;
  teamName: string;
  names: { home: string; away: string };
  period: number;
  clock: { value: number; displayValue: string };
  athlete:
    | { id: string; displayName: string; fullName: string; lastName: string; jersey?: string; position?: string }
    | undefined;
  /** The demo's own score at atMs, and the board's with the added goals up to this one. */
  natural: [number, number];
  score: [number, number];
}

const shortName = (a: NonNullable<InjectedInfo['athlete']>) =>
  a.lastName && a.displayName.endsWith(a.lastName) && a.displayName !== a.lastName
    ? `${a.displayName[0]}. ${a.lastName}`
    : a.displayName;

/** A board entry's (and summary header's) `details[]` goal, as the demo writes its own. */
function goalDetail(g: InjectedInfo) {
  return {
    type: { id: '70', text: 'Goal' },
    clock: g.clock,
    team: { id: g.teamId },
    scoreValue: 1,
    scoringPlay: true,
    redCard: false,
    yellowCard: false,
    penaltyKick: false,
    ownGoal: false,
    shootout: false,
    athletesInvolved: g.athlete
      ? [
          {
            id: g.athlete.id,
            displayName: g.athlete.displayName,
            shortName: shortName(g.athlete),
            fullName: g.athlete.fullName,
            ...(g.athlete.jersey === undefined ? {} : { jersey: g.athlete.jersey }),
            team: { id: g.teamId },
            ...(g.athlete.position === undefined ? {} : { position: g.athlete.position }),
          },
        ]
      : [],
  };
}

/** A summary's `keyEvents[]` goal (demo frame: the wallclock is shifted with the rest). */
function goalKeyEvent(g: InjectedInfo) {
  const who = g.athlete?.displayName ?? g.teamName;
  const score = `${g.names.home} ${g.score[0]}, ${g.names.away} ${g.score[1]}`;
  return {
    id: `${g.eventId}${9000 + (g.seq % 1000)}`,
    type: { id: '70', text: 'Goal', type: 'goal' },
    text: `Goal! ${score}. ${who} (${g.teamName}) right footed shot from the centre of the box to the bottom left corner.`,
    shortText: `${who} Goal`,
    period: { number: g.period },
    clock: g.clock,
    scoringPlay: true,
    team: { id: g.teamId, displayName: g.teamName },
    participants: g.athlete ? [{ athlete: { id: g.athlete.id, displayName: g.athlete.displayName } }] : [],
    source: { id: '38', description: 'SA.ENVOY' },
    wallclock: `${new Date(g.demoMs).toISOString().slice(0, 19)}Z`,
    shootout: false,
  };
}

// ---------------------------------------------------------------------------------------------
// The server

interface Made {
  status: number;
  body: Buffer;
  maxAge: number;
  etag?: string;
  lastModified?: string;
  lastModifiedMs?: number;
}

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

/** A fault instead of the answer, as espn-standin.ts serves it; what was sent goes into the log entry. */
function answerFault(res: http.ServerResponse, f: Fault, body: Buffer | undefined, entry: LogEntry): void {
  const json = { 'content-type': 'application/json;charset=UTF-8' };
  const half = body ? body.subarray(0, Math.floor(body.length / 2)) : Buffer.from('{"error":');
  entry.status = f.kind === 'status' ? f.status : f.kind === 'stall' ? 0 : 200;
  switch (f.kind) {
    case 'status': {
      const out = JSON.stringify({ code: f.status });
      entry.bytes = out.length;
      res
        .writeHead(f.status, { ...json, ...(f.retryAfter !== undefined ? { 'retry-after': f.retryAfter } : {}) })
        .end(out);
      return;
    }
    case 'html':
      entry.bytes = HTML_PAGE.length;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
      return;
    case 'json': {
      const out = JSON.stringify(f.body);
      entry.bytes = Buffer.byteLength(out);
      res.writeHead(200, json).end(out);
      return;
    }
    case 'truncate':
      entry.bytes = half.length;
      res.writeHead(200, json).end(half);
      return;
    case 'cut':
      entry.bytes = half.length;
      res.writeHead(200, { ...json, 'content-length': (body?.length ?? 100) + 10 });
      res.write(half, () => res.socket?.destroy());
      return;
    case 'stall-body':
      entry.bytes = half.length;
      res.writeHead(200, { ...json, 'content-length': body?.length ?? 100 });
      res.write(half);
      return;
    case 'stall':
      return;
  }
}

const errorBody = (status: number, message: string) => Buffer.from(JSON.stringify({ code: status, message }));
const NOT_FOUND: Made = { status: 404, body: errorBody(404, 'Not Found'), maxAge: 60 };
const BAD_REQUEST: Made = { status: 400, body: errorBody(400, 'Bad Request'), maxAge: 60 };
const RANGE: Made = { status: 400, body: errorBody(400, 'Failed to get events endpoint.'), maxAge: 60 };
const FORBIDDEN: Made = { status: 403, body: errorBody(403, 'Forbidden'), maxAge: 0 };
const MAX_AGE: Record<RequestKind, number> = {
  'board-day': 2,
  'board-month': 2,
  'board-range': 2,
  'board-today': 2,
  summary: 5,
  plays: 5,
  teams: 300,
  roster: 300,
  standings: 60,
  invalid: 60,
};
const CACHE_BYTES = 128 * 1024 * 1024;
const KNOWN = new Set(LEAGUES.map((l) => l.slug));

export async function startEspnNow(opts: EspnNowOptions = {}): Promise<EspnNow> {
  const seed = opts.seed ?? 1;
  const scale = opts.scale ?? 1;
  // Light by default: tests need ESPN's answers in time and content; the benches ask for ESPN's sizes.
  const weight = opts.weight ?? 'light';
  const options: EspnNowSettings = {
    emptyBeyondTomorrow: opts.emptyBeyondTomorrow ?? false,
    blockUserAgents: opts.blockUserAgents ?? false,
    etags: opts.etags ?? false,
    faults: opts.faults,
    delayMs: opts.delayMs ?? 0,
    leagues: opts.leagues,
    clock: opts.clock ?? Date.now,
  };
  const dataLeagues = () => LEAGUES.map((l) => l.slug).filter((l) => !options.leagues || options.leagues.includes(l));
  const matchdayAt = opts.matchdayAt?.getTime() ?? options.clock();
  if (opts.offsetMs !== undefined && opts.offsetMs % MINUTE !== 0)
    throw new Error(`espn-now: offsetMs must be a whole number of minutes, got ${opts.offsetMs}`);
  const busy = () =>
    busyDemoInstant(seed, scale, matchdayAt, dataLeagues(), opts.target ?? { hotLeagues: 5, inPlay: 12 });
  const offsetMs = opts.offsetMs ?? busy() - matchdayAt;
  const demoAt = (realMs = options.clock()) => Math.floor((realMs + offsetMs) / 1000) * 1000;

  // One provider per demo second serves every request of that second (its seasons are built once).
  const providers = new Map<number, Provider>();
  const providerAt = (demoMs: number): Provider => {
    let p = providers.get(demoMs);
    if (!p) {
      p = createDemoProvider({ weight, seed, scale, now: new Date(demoMs) });
      if (providers.size >= 4) providers.delete(providers.keys().next().value!);
      providers.set(demoMs, p);
    }
    return p;
  };

  /** A league's board with no events (the demo only has boards for its match days). */
  const skeleton = async (p: Provider, league: string): Promise<any> => {
    const first = (await p.scoreboardDates(league))[0];
    const b: any = first ? await p.scoreboard(league, first) : undefined;
    return b ? { ...b, events: [] } : undefined;
  };

  /** The events of [fromReal, toReal) from the demo's UTC-day boards, at a demo clock. */
  const boardBetween = async (p: Provider, league: string, fromReal: number, toReal: number) => {
    const from = fromReal + offsetMs;
    const to = toReal + offsetMs;
    let base: any;
    const events: any[] = [];
    for (const day of utcDays(from, to)) {
      const b: any = await p.scoreboard(league, day);
      if (!b) continue;
      base ??= b;
      for (const e of b.events) {
        const k = Date.parse(e.date);
        if (k >= from && k < to) events.push(e);
      }
    }
    base ??= await skeleton(p, league);
    events.sort((a, b) => Date.parse(a.date) - Date.parse(b.date) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return base ? { base, events } : undefined;
  };

  const json = (payload: unknown, demoMs: number, kind: RequestKind): Made => ({
    status: 200,
    body: Buffer.from(shiftInstants(JSON.stringify(payload), offsetMs, demoMs)),
    maxAge: MAX_AGE[kind],
  });

  // --- goals on demand (scoreGoal) ------------------------------------------------------------

  /** Goals added by scoreGoal, in the order they were added. */
  const injected: Injected[] = [];
  /** How many added goals a payload made at a real instant shows (the set only grows with the instant). */
  const injectedShown = (realMs: number) => injected.reduce((n, g) => n + (g.atMs <= realMs ? 1 : 0), 0);
  const injectedOf = (league: string, eventId: string, realMs: number) =>
    injected.filter((g) => g.league === league && g.eventId === eventId && g.atMs <= realMs);
  const injectedScore = (league: string, eventId: string, realMs: number): [number, number] => {
    const gs = injectedOf(league, eventId, realMs);
    return [gs.filter((g) => g.side === 'home').length, gs.filter((g) => g.side === 'away').length];
  };

  /** A board entry or summary header competition (demo frame) with the added goals of `gs`. */
  const addGoals = async (comp: any, gs: readonly Injected[]) => {
    for (const g of gs) {
      const c = comp.competitors?.find((x: any) => x.homeAway === g.side);
      if (!c) continue;
      c.score = String(Number(c.score ?? 0) + 1);
      const info = await g.info;
      if (!info) continue;
      const line = c.linescores?.[info.period - 1];
      if (line?.displayValue !== undefined) line.displayValue = String(Number(line.displayValue) + 1);
      if (Array.isArray(comp.details)) {
        const at = comp.details.findIndex((d: any) => (d.clock?.value ?? 0) > info.clock.value);
        comp.details.splice(at < 0 ? comp.details.length : at, 0, goalDetail(info));
      }
    }
  };

  const boardWithGoals = async (league: string, events: any[], realMs: number) => {
    if (!injectedShown(realMs)) return events;
    return Promise.all(
      events.map(async (e) => {
        const gs = injectedOf(league, e.id, realMs);
        if (!gs.length) return e;
        const out = structuredClone(e);
        await addGoals(out.competitions[0], gs);
        return out;
      }),
    );
  };

  const summaryWithGoals = async (league: string, eventId: string, summary: any, realMs: number) => {
    const gs = injectedOf(league, eventId, realMs);
    if (!gs.length) return summary;
    const out = structuredClone(summary);
    const comp = out.header?.competitions?.[0];
    if (comp) await addGoals(comp, gs);
    if (Array.isArray(out.keyEvents)) {
      for (const g of gs) {
        const info = await g.info;
        if (!info) continue;
        const at = out.keyEvents.findIndex((k: any) => Date.parse(k.wallclock ?? '') > info.demoMs);
        out.keyEvents.splice(at < 0 ? out.keyEvents.length : at, 0, goalKeyEvent(info));
      }
    }
    return out;
  };

  /** The match at the goal's instant, from the demo (no request): who scores, when, and the score it makes. */
  const goalInfo = async (g: Omit<Injected, 'info'>): Promise<InjectedInfo | undefined> => {
    const demoMs = demoAt(g.atMs);
    const p = createDemoProvider({ weight, seed, scale, now: new Date(demoMs) });
    let e: any;
    for (const [from, to] of [
      [demoMs - MATCH_SPAN, demoMs + 1000],
      [demoMs - 8 * DAY, demoMs + 8 * DAY],
    ] as const) {
      e = (await boardEntries(p, g.league, from, to)).find((x) => x.id === g.eventId);
      if (e) break;
    }
    if (!e) return undefined;
    const comp = e.competitions[0];
    const team = comp.competitors.find((c: any) => c.homeAway === g.side)?.team;
    const names = Object.fromEntries(comp.competitors.map((c: any) => [c.homeAway, c.team?.displayName ?? '']));
    const summary: any = await p.summary(g.league, g.eventId);
    const roster: any[] =
      summary?.rosters?.find((r: any) => r.homeAway === g.side || r.team?.id === team?.id)?.roster ?? [];
    const rank = (x: any) => ['F', 'M', 'D'].indexOf(x.position?.abbreviation ?? '') + 1 || 4;
    const outfield = roster
      .filter((x) => x.athlete?.id && x.starter !== false && x.position?.abbreviation !== 'G')
      .sort((a, b) => rank(a) - rank(b));
    const a = outfield.length ? outfield[g.seq % Math.min(3, outfield.length)] : undefined;
    const [natHome, natAway] = scores(e);
    // Every added goal of the match up to this one (those added before it with an earlier or equal instant).
    const before = injected.filter(
      (x) =>
        x.league === g.league && x.eventId === g.eventId && (x.atMs < g.atMs || (x.atMs === g.atMs && x.seq <= g.seq)),
    );
    const home = natHome + before.filter((x) => x.side === 'home').length;
    const away = natAway + before.filter((x) => x.side === 'away').length;
    return {
      ...g,
      demoMs,
      teamId: String(team?.id ?? ''),
      teamName: String(team?.displayName ?? ''),
      names: { home: names.home ?? '', away: names.away ?? '' },
      period: Number(comp.status?.period ?? e.status?.period ?? 1) || 1,
      clock: {
        value: Number(comp.status?.clock ?? e.status?.clock ?? 0),
        displayValue: String(comp.status?.displayClock ?? e.status?.displayClock ?? ''),
      },
      athlete: a
        ? {
            id: String(a.athlete.id),
            displayName: String(a.athlete.displayName ?? a.athlete.fullName ?? ''),
            fullName: String(a.athlete.fullName ?? a.athlete.displayName ?? ''),
            lastName: String(a.athlete.lastName ?? ''),
            jersey: a.jersey === undefined ? undefined : String(a.jersey),
            position: a.position?.abbreviation,
          }
        : undefined,
      natural: [natHome, natAway],
      score: [home, away],
    };
  };

  async function make(r: Route, demoMs: number, realMs: number): Promise<Made> {
    if (r.kind === 'invalid') return BAD_REQUEST;
    if (r.kind === 'board-range') return RANGE;
    if (!KNOWN.has(r.league)) return NOT_FOUND;
    const hasData = dataLeagues().includes(r.league);
    const p = providerAt(demoMs);
    switch (r.kind) {
      case 'board-today':
      case 'board-day':
      case 'board-month': {
        const realNow = demoMs - offsetMs;
        const today = easternYmd(realNow);
        let from: number;
        let to: number;
        let label: string;
        if (r.kind === 'board-month') {
          const ym = r.dates!;
          from = easternDayStart(`${ym}01`);
          // The next month's first day (easternDayStart normalises month 13).
          to = easternDayStart(`${ym.slice(0, 4)}${String(+ym.slice(4, 6) + 1).padStart(2, '0')}01`);
          label = `${ym}01`;
        } else {
          const ymd = r.dates ?? today;
          from = easternDayStart(ymd);
          to = easternDayStart(nextYmd(ymd));
          label = ymd;
        }
        const got = await boardBetween(p, r.league, from, to);
        if (!got) return NOT_FOUND;
        const beyond = r.kind === 'board-day' && options.emptyBeyondTomorrow && r.dates! > nextYmd(today);
        const events = hasData && !beyond ? got.events.slice(0, boardCap(r.limit)) : [];
        const day = `${label.slice(0, 4)}-${label.slice(4, 6)}-${label.slice(6, 8)}`;
        const shown = await boardWithGoals(r.league, events, realMs);
        return json({ ...got.base, day: { date: day }, events: shown }, demoMs, r.kind);
      }
      case 'summary': {
        const s = hasData ? await p.summary(r.league, r.event) : undefined;
        return s ? json(await summaryWithGoals(r.league, r.event, s, realMs), demoMs, r.kind) : NOT_FOUND;
      }
      case 'plays': {
        if (!hasData) return NOT_FOUND;
        // Before kickoff the demo has no stream; ESPN answers an empty page for a known event.
        const pages = await p.plays(r.league, r.event);
        if (!pages && !(await p.summary(r.league, r.event))) return NOT_FOUND;
        const items = (pages ?? []).flatMap((pg: any) => pg.items as unknown[]);
        return json(playsPage(items, r.page, r.league, r.event), demoMs, r.kind);
      }
      case 'teams': {
        const t = hasData ? await p.teams(r.league) : undefined;
        return t ? json(t, demoMs, r.kind) : NOT_FOUND;
      }
      case 'roster': {
        const t = hasData ? await p.roster(r.league, r.team) : undefined;
        return t ? json(t, demoMs, r.kind) : NOT_FOUND;
      }
      case 'standings': {
        const t = hasData ? await p.standings(r.league, r.season) : undefined;
        return t ? json(t, demoMs, r.kind) : NOT_FOUND;
      }
    }
  }

  // Generated answers per URL, for the demo second (and settings) they were made for.
  const cache = new Map<string, { key: string; made: Made }>();
  let cacheBytes = 0;
  const firstSeen = new Map<string, number>();
  const pending = new Map<string, Promise<Made>>();
  const made = async (p: string, r: Route, demoMs: number, realMs: number): Promise<Made> => {
    // The goals added so far that show at this instant are part of the key: one added (or coming into
    // force) within a second makes that second's answers again.
    const key = `${demoMs}|${injectedShown(realMs)}|${options.emptyBeyondTomorrow}|${options.leagues?.join(',') ?? '*'}`;
    const hit = cache.get(p);
    if (hit?.key === key) return hit.made;
    // Requests for the same URL in the same second share one generation.
    const flightKey = `${p}|${key}`;
    const existing = pending.get(flightKey);
    if (existing) return existing;
    const flight = make(r, demoMs, realMs).then((out) => {
      if (out.status === 200) {
        out.etag = `"${crypto.createHash('sha1').update(out.body).digest('base64url')}"`;
        let seen = firstSeen.get(out.etag);
        if (seen === undefined) {
          if (firstSeen.size > 50_000) firstSeen.clear();
          seen = Math.floor(options.clock() / 1000) * 1000;
          firstSeen.set(out.etag, seen);
        }
        out.lastModifiedMs = seen;
        out.lastModified = new Date(seen).toUTCString();
      }
      return out;
    });
    pending.set(flightKey, flight);
    let out: Made;
    try {
      out = await flight;
    } finally {
      pending.delete(flightKey);
    }
    const old = cache.get(p);
    if (old) {
      cache.delete(p);
      cacheBytes -= old.made.body.length;
    }
    cache.set(p, { key, made: out });
    cacheBytes += out.body.length;
    while (cacheBytes > CACHE_BYTES && cache.size > 1) {
      const [oldest, entry] = cache.entries().next().value!;
      cache.delete(oldest);
      cacheBytes -= entry.made.body.length;
    }
    return out;
  };

  const notModified = (req: http.IncomingMessage, m: Made): boolean => {
    if (!options.etags || m.status !== 200 || !m.etag) return false;
    const inm = req.headers['if-none-match'];
    if (inm !== undefined)
      return inm
        .split(',')
        .map((t) => t.trim().replace(/^W\//, ''))
        .some((t) => t === '*' || t === m.etag);
    const ims = Date.parse(req.headers['if-modified-since'] ?? '');
    return Number.isFinite(ims) && m.lastModifiedMs! <= ims;
  };

  const send = (req: http.IncomingMessage, res: http.ServerResponse, m: Made, entry: LogEntry) => {
    const headers: http.OutgoingHttpHeaders = {
      'content-type': 'application/json;charset=UTF-8',
      'cache-control': `max-age=${m.maxAge}`,
    };
    if (options.etags && m.etag) {
      headers.etag = m.etag;
      headers['last-modified'] = m.lastModified;
    }
    if (notModified(req, m)) {
      entry.status = 304;
      res.writeHead(304, headers).end();
      return;
    }
    entry.status = m.status;
    entry.bytes = m.body.length;
    res.writeHead(m.status, { ...headers, 'content-length': m.body.length }).end(m.body);
  };

  const sockets = new Set<Socket>();
  const stats: EspnNowStats = {
    inFlight: 0,
    maxInFlight: 0,
    total: 0,
    perPath: new Map(),
    perKind: new Map(),
    userAgents: new Set(),
  };
  const log: LogEntry[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://espn-now');
    const p = url.pathname + url.search;
    const attempt = (stats.perPath.get(p) ?? 0) + 1;
    stats.perPath.set(p, attempt);
    stats.total++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    const userAgent = req.headers['user-agent'] ?? '';
    stats.userAgents.add(userAgent);
    const r = route(url);
    stats.perKind.set(r.kind, (stats.perKind.get(r.kind) ?? 0) + 1);
    const realNow = options.clock();
    const entry: LogEntry = { path: p, at: realNow, status: 0, bytes: 0, userAgent, kind: r.kind };
    log.push(entry);
    res.on('close', () => stats.inFlight--);
    const demoMs = demoAt(realNow);
    const f = options.faults?.({ path: p, attempt });
    setTimeout(async () => {
      try {
        if (options.blockUserAgents && !userAgentAllowed(req.headers['user-agent'])) {
          send(req, res, FORBIDDEN, entry);
          return;
        }
        const m = await made(p, r, demoMs, realNow);
        if (!f) {
          send(req, res, m, entry);
          return;
        }
        answerFault(res, f, m.status === 200 ? m.body : undefined, entry);
      } catch (e) {
        entry.status = 500;
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json;charset=UTF-8' });
        res.end(JSON.stringify({ code: 500, message: String(e) }));
      }
    }, options.delayMs);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));

  // --- ground truth, computed from the demo directly (no request, not in the stats) -------------

  const boardEntries = async (p: Provider, league: string, fromDemo: number, toDemo: number) => {
    const out: any[] = [];
    for (const day of utcDays(fromDemo, toDemo)) {
      const b: any = await p.scoreboard(league, day);
      for (const e of b?.events ?? []) {
        const k = Date.parse(e.date);
        if (k >= fromDemo && k < toDemo) out.push({ ...e, day });
      }
    }
    return out;
  };
  const scores = (e: any): [number, number] => {
    const c = e.competitions[0].competitors;
    const side = (h: string) => Number(c.find((x: any) => x.homeAway === h).score);
    return [side('home'), side('away')];
  };

  /** The board score transitions of one match (demo frame), found by probing the deterministic demo. */
  const transitionsOf = new Map<string, Promise<Array<{ demoMs: number; home: number; away: number }>>>();
  const transitions = (league: string, id: string, day: string, kickoffMs: number) => {
    let t = transitionsOf.get(id);
    if (!t) {
      t = (async () => {
        const probed = new Map<number, [number, number]>();
        const scoreAt = async (ms: number): Promise<[number, number]> => {
          let s = probed.get(ms);
          if (!s) {
            const b: any = await createDemoProvider({ weight, seed, scale, now: new Date(ms) }).scoreboard(league, day);
            const e = b?.events.find((x: any) => x.id === id);
            s = e ? scores(e) : [0, 0];
            probed.set(ms, s);
          }
          return s;
        };
        const total = async (ms: number) => (await scoreAt(ms)).reduce((a, b) => a + b, 0);
        const end = kickoffMs + MATCH_SPAN;
        const goals = await total(end);
        if (goals === 0) return [];
        // Hints: the wall clocks of the scoring plays in the finished stream.
        const pages = await createDemoProvider({ weight, seed, scale, now: new Date(end) }).plays(league, id);
        const hints = (pages ?? [])
          .flatMap((pg: any) => pg.items)
          .filter((x: any) => x.scoringPlay)
          .map((x: any) => Math.floor(Date.parse(x.wallclock) / 1000) * 1000);
        const out: Array<{ demoMs: number; home: number; away: number }> = [];
        let lo = kickoffMs - 1000; // the board shows no goal here
        for (let i = 1; i <= goals; i++) {
          let at: number | undefined;
          const hint = hints[i - 1];
          if (hint !== undefined && hint > lo && hint <= end) {
            if ((await total(hint)) >= i && (await total(hint - 1000)) < i) at = hint;
          }
          if (at === undefined) {
            let hi = end;
            while (hi - lo > 1000) {
              const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
              if ((await total(mid)) >= i) hi = mid;
              else lo = mid;
            }
            at = hi;
          }
          const [home, away] = await scoreAt(at);
          out.push({ demoMs: at, home, away });
          lo = at - 1000;
          // Two goals in one second: both are shown from `at`.
          while (i < goals && (await total(at)) > i) {
            i++;
            out.push({ demoMs: at, home, away });
          }
          lo = at;
        }
        return out;
      })();
      transitionsOf.set(id, t);
    }
    return t;
  };

  const espn: EspnNow = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    offsetMs,
    seed,
    scale,
    options,
    stats,
    log,
    demoAt,
    reset() {
      // inFlight is left alone: requests of an earlier run may still be closing.
      Object.assign(stats, { maxInFlight: 0, total: 0 });
      stats.perPath.clear();
      stats.perKind.clear();
      stats.userAgents.clear();
      log.length = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
    async goals(fromMs, toMs) {
      const from = fromMs + offsetMs;
      const to = toMs + offsetMs;
      const p = createDemoProvider({ weight, seed, scale, now: new Date(Math.max(from, to - 1)) });
      const out: Goal[] = [];
      for (const league of dataLeagues()) {
        for (const e of await boardEntries(p, league, from - MATCH_SPAN, to)) {
          if (e.status.type.name === 'STATUS_POSTPONED' || e.status.type.state === 'pre') continue;
          for (const g of await transitions(league, e.id, e.day, Date.parse(e.date))) {
            if (g.demoMs >= from && g.demoMs < to) {
              const atMs = g.demoMs - offsetMs;
              const [h, a] = injectedScore(league, e.id, atMs);
              out.push({ league, eventId: e.id, home: g.home + h, away: g.away + a, atMs });
            }
          }
        }
      }
      for (const g of injected) {
        if (g.atMs < fromMs || g.atMs >= toMs) continue;
        const info = await g.info;
        if (!info) continue;
        // The demo's own goals up to then, and every added one up to and including this.
        const [h, a] = injectedScore(g.league, g.eventId, g.atMs);
        out.push({
          league: g.league,
          eventId: g.eventId,
          home: info.natural[0] + h,
          away: info.natural[1] + a,
          atMs: g.atMs,
        });
      }
      return out.sort((a, b) => a.atMs - b.atMs || (a.eventId < b.eventId ? -1 : 1));
    },
    async inPlay(atMs = options.clock()) {
      const demo = demoAt(atMs);
      const p = createDemoProvider({ weight, seed, scale, now: new Date(demo) });
      const out: LiveMatch[] = [];
      for (const league of dataLeagues()) {
        for (const e of await boardEntries(p, league, demo - MATCH_SPAN, demo + 1000)) {
          if (e.status.type.state !== 'in') continue;
          const [natHome, natAway] = scores(e);
          const [h, a] = injectedScore(league, e.id, atMs);
          const [home, away] = [natHome + h, natAway + a];
          out.push({
            league,
            eventId: e.id,
            kickoffMs: Date.parse(e.date) - offsetMs,
            home,
            away,
            status: e.status.type.name,
          });
        }
      }
      return out;
    },
    async hotLeagues(atMs = options.clock()) {
      const demo = demoAt(atMs);
      const p = createDemoProvider({ weight, seed, scale, now: new Date(demo) });
      const out: string[] = [];
      for (const league of dataLeagues()) {
        const entries = await boardEntries(p, league, demo - MATCH_SPAN, demo + 10 * MINUTE + 1000);
        const hot = entries.some(
          (e) =>
            e.status.type.name !== 'STATUS_POSTPONED' &&
            (e.status.type.state === 'in' ||
              (e.status.type.state === 'pre' && Date.parse(e.date) - 10 * MINUTE <= demo)),
        );
        if (hot) out.push(league);
      }
      return out;
    },
    async scoreGoal(league, eventId, side, atMs = options.clock()) {
      if (!KNOWN.has(league)) throw new Error(`espn-now: unknown league ${league}`);
      const g = { league, eventId, side, atMs, seq: injected.length };
      // Recorded at once (what is served from now on shows it); the match's details follow.
      const info = goalInfo(g);
      const goal: Injected = { ...g, info };
      injected.push(goal);
      const found = await info;
      if (!found) {
        injected.splice(injected.indexOf(goal), 1);
        throw new Error(`espn-now: no match ${eventId} in ${league} at ${new Date(atMs).toISOString()}`);
      }
      return { league, eventId, home: found.score[0], away: found.score[1], atMs };
    },
  };
  return espn;
}
