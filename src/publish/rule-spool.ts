/**
 * A literal rule candidate as the rule planner (rules.ts) spools it while a build streams, and reads
 * it back when it admits candidates within the budget. The spool outlives the build, beside its
 * release (release.ts `carryFile`): with each candidate's standing (reach.ts) in it, the next build carries an
 * untouched file's candidates over from it instead of planning the file again.
 */
import type { Standing } from './reach.js';

export interface Spooled extends Standing {
  /** Admission priority (reach.ts): lower first. */
  p: number;
  /** The rule's number of conditions; -1 for a request no literal rule can express (counted, never admitted). */
  k: number;
  file: string;
  /** 1 when this is a pre-rendered request's shortest spelling; `hot` when that request is in the hot set. */
  shortest: 0 | 1;
  hot: 0 | 1;
  etag: string;
  cacheControl: string;
  /** The route's name (its escape rules go with its literals). */
  route: string;
  rule: string;
}

/**
 * A spooled candidate as one tab-separated line (a build spools tens of thousands): no field holds a
 * tab or a line break — file names, route names, leagues, ids, days and rules are URL-safe tokens and
 * spaces, ETags and Cache-Control header values are ours — and the rule, the one with spaces, goes last.
 * What a carried candidate may change (priority, heat, its match's standing) comes first, what it
 * never changes after: carrying one over rewrites the head of its line and keeps the tail as it is.
 */
export const spoolLine = (s: Spooled) =>
  `${s.p}\t${s.hot}\t${s.k}\t${s.shortest}\t${s.level === 'league' ? 'L' : 'M'}\t${s.hotq}\t` +
  `${s.league}\t${s.id}\t${s.day}\t${s.live ? 1 : 0}\t${s.route}\t${s.file}\t${s.etag}\t${s.cacheControl}\t${s.rule}\n`;

/** The fields before the tail (see spoolLine). */
const HEAD_FIELDS = 10;

/** A spooled candidate as the next build carries it over: its head parsed, its tail as it is. */
export interface Carried extends Standing {
  k: number;
  shortest: 0 | 1;
  route: string;
  /** The line from the route on, without its line break. */
  tail: string;
}

/** Null for a line that is not a spooled candidate. */
export function uncarry(line: string): Carried | null {
  const head = line.split('\t', HEAD_FIELDS);
  let at = HEAD_FIELDS;
  for (const f of head) at += f.length;
  const tail = line.slice(at);
  const k = Number(head[2]);
  const route = tail.slice(0, tail.indexOf('\t'));
  if (head.length !== HEAD_FIELDS || !Number.isInteger(k) || !route) return null;
  return {
    k,
    shortest: head[3] === '1' ? 1 : 0,
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

/** A carried candidate's line, with its priority and heat as this build has them. */
export const carriedLine = (c: Carried, p: number, hot: 0 | 1) =>
  `${p}\t${hot}\t${c.k}\t${c.shortest}\t${c.level === 'league' ? 'L' : 'M'}\t${c.hotq}\t` +
  `${c.league}\t${c.id}\t${c.day}\t${c.live ? 1 : 0}\t${c.tail}\n`;

export function unspool(line: string): Spooled {
  const f = line.split('\t');
  if (f.length !== 15) throw new Error(`not a spooled rule candidate: ${JSON.stringify(line.slice(0, 200))}`);
  const bit = (v: string) => (v === '1' ? 1 : 0);
  return {
    p: Number(f[0]),
    hot: bit(f[1]!),
    k: Number(f[2]),
    shortest: bit(f[3]!),
    level: f[4] === 'L' ? 'league' : 'match',
    hotq: f[5]!,
    league: f[6]!,
    id: f[7]!,
    day: f[8]!,
    live: f[9] === '1',
    route: f[10]!,
    file: f[11]!,
    etag: f[12]!,
    cacheControl: f[13]!,
    rule: f[14]!,
  };
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
