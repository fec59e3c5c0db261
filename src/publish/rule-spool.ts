/**
 * A literal rule candidate as the rule planner (rules.ts) spools it while a build streams, and reads
 * it back when it admits candidates within the budget. The spool outlives the build, beside its
 * release (release.ts `carryFile`): with each candidate's standing (reach.ts) in it, the next build carries an
 * untouched file's candidates over from it instead of planning the file again.
 */
import type { Standing } from './reach.js';

/** What leads a spooled line: what carrying it over may change (priority, heat, its match's standing). */
interface Head extends Standing {
  /** Admission priority (reach.ts): lower first. */
  p: number;
  /** 1 when this is a pre-rendered request's shortest spelling; `hot` when that request is in the hot set. */
  hot: 0 | 1;
  /** The rule's number of conditions; -1 for a request no literal rule can express (counted, never admitted). */
  k: number;
  shortest: 0 | 1;
}

export interface Spooled extends Head {
  /** The route's name (its escape rules go with its literals). */
  route: string;
  file: string;
  etag: string;
  cacheControl: string;
  rule: string;
}

/** A spooled candidate as the next build carries it over: its head parsed, its tail as it is. */
export interface Carried extends Head {
  route: string;
  /** The line from the route on, without its line break. */
  tail: string;
}

/** The fields before the tail (see spoolLine). */
const HEAD_FIELDS = 10;

const headText = (h: Head) =>
  `${h.p}\t${h.hot}\t${h.k}\t${h.shortest}\t${h.level === 'league' ? 'L' : 'M'}\t${h.hotq}\t` +
  `${h.league}\t${h.id}\t${h.day}\t${h.live ? 1 : 0}`;

/**
 * A spooled candidate as one tab-separated line (a build spools tens of thousands): no field holds a
 * tab or a line break — file names, route names, leagues, ids, days and rules are URL-safe tokens and
 * spaces, ETags and Cache-Control header values are ours — and the rule, the one with spaces, goes last.
 * What a carried candidate may change comes first (the head), what it never changes after (the tail):
 * carrying one over rewrites the head of its line and keeps the tail as it is.
 */
export const spoolLine = (s: Spooled) =>
  `${headText(s)}\t${s.route}\t${s.file}\t${s.etag}\t${s.cacheControl}\t${s.rule}\n`;

/** A carried candidate's line, with its priority and heat as this build has them. */
export const carriedLine = (c: Carried, p: number, hot: 0 | 1) => `${headText({ ...c, p, hot })}\t${c.tail}\n`;

/** Null for a line that is not a spooled candidate. */
export function uncarry(line: string): Carried | null {
  const head = line.split('\t', HEAD_FIELDS);
  let at = HEAD_FIELDS;
  for (const f of head) at += f.length;
  const tail = line.slice(at);
  const [p, k] = [Number(head[0]), Number(head[2])];
  const route = tail.slice(0, tail.indexOf('\t'));
  if (head.length !== HEAD_FIELDS || !Number.isFinite(p) || !Number.isInteger(k) || !route) return null;
  const bit = (v: string | undefined) => (v === '1' ? 1 : 0);
  return {
    p,
    hot: bit(head[1]),
    k,
    shortest: bit(head[3]),
    level: head[4] === 'L' ? 'league' : 'match',
    hotq: head[5]!,
    league: head[6]!,
    id: head[7]!,
    day: head[8]!,
    live: head[9] === '1',
    route,
    tail,
  };
}

export function unspool(line: string): Spooled {
  const c = uncarry(line);
  const f = c?.tail.split('\t');
  if (!c || f?.length !== 5) throw new Error(`not a spooled rule candidate: ${JSON.stringify(line.slice(0, 200))}`);
  const { tail: _, ...head } = c;
  return { ...head, file: f[1]!, etag: f[2]!, cacheControl: f[3]!, rule: f[4]! };
}

/** A spooled line's priority and number of conditions, without splitting the rest. */
export function spooledRank(line: string): { p: number; k: number } {
  const afterP = line.indexOf('\t');
  const afterHot = line.indexOf('\t', afterP + 1);
  return { p: Number(line.slice(0, afterP)), k: Number(line.slice(afterHot + 1, line.indexOf('\t', afterHot + 1))) };
}

/** The file a spooled line is for, without splitting the rest. */
export function spooledFile(line: string): string {
  let start = 0;
  for (let i = 0; i < HEAD_FIELDS + 1; i++) start = line.indexOf('\t', start) + 1;
  return line.slice(start, line.indexOf('\t', start));
}
