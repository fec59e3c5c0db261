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
  /** The literal rule's request: its path and conditions (the rule is `<request> /<file> 200!`). */
  request: string;
}

/**
 * A spooled candidate as the next build carries it over: its head parsed, but for the priority and
 * heat, which the build works out anew; the rest kept by position.
 */
export interface Carried extends Omit<Head, 'p' | 'hot'> {
  route: string;
  /** The whole line, without its line break. */
  line: string;
  /** Where the head starts (after the file), where the route (after the head) does, and the field after the heat. */
  headAt: number;
  tailAt: number;
  afterHeat: number;
}

/** The fields of the head (see spoolLine). */
const HEAD_FIELDS = 10;

const headText = (h: Head) =>
  `${h.p}\t${h.hot}\t${h.k}\t${h.shortest}\t${h.level === 'league' ? 'L' : 'M'}\t${h.hotq}\t` +
  `${h.league}\t${h.id}\t${h.day}\t${h.live ? 1 : 0}`;

/**
 * A spooled candidate as one tab-separated line (a build spools hundreds of thousands): no field holds
 * a tab or a line break — file names, route names, leagues, ids, days and requests are URL-safe tokens
 * and spaces, ETags and Cache-Control header values are ours — and the request, the one with spaces,
 * goes last. The file leads (the next build looks lines up by it), then what a carried candidate may
 * change (the head), then what it never changes (the tail): carrying one over rewrites the head and
 * keeps the rest as it is. The rule's target is the file, so it is not written twice.
 */
export const spoolLine = (s: Spooled) =>
  `${s.file}\t${headText(s)}\t${s.route}\t${s.etag}\t${s.cacheControl}\t${s.request}\n`;

/**
 * A carried candidate's line, with its priority and heat as this build has them. `moved`: its standing
 * was worked out again (its match changed), so the whole head is written anew.
 */
export const carriedLine = (c: Carried, p: number, hot: 0 | 1, moved: boolean) =>
  moved
    ? `${c.line.slice(0, c.headAt)}${headText({ ...c, p, hot })}\t${c.line.slice(c.tailAt)}\n`
    : `${c.line.slice(0, c.headAt)}${p}\t${hot}\t${c.line.slice(c.afterHeat)}\n`;

/** Null for a line that is not a spooled candidate. */
export function uncarry(line: string): Carried | null {
  // Where the file and each of the head's fields end, then the route: found, not split out, as a
  // build carries hundreds of thousands of lines and keeps most of each as it is.
  const file = line.indexOf('\t');
  const p = line.indexOf('\t', file + 1);
  const hot = line.indexOf('\t', p + 1);
  const k = line.indexOf('\t', hot + 1);
  const shortest = line.indexOf('\t', k + 1);
  const level = line.indexOf('\t', shortest + 1);
  const hotq = line.indexOf('\t', level + 1);
  const league = line.indexOf('\t', hotq + 1);
  const id = line.indexOf('\t', league + 1);
  const day = line.indexOf('\t', id + 1);
  const live = line.indexOf('\t', day + 1);
  const route = line.indexOf('\t', live + 1);
  // A missing tab starts the search over from the line's start: the ends would not rise.
  if (file <= 0 || !(p > file && hot > p && k > hot && shortest > k && level > shortest && hotq > level)) return null;
  if (!(league > hotq && id > league && day > id && live > day && route > live + 1)) return null;
  const conditions = Number(line.slice(hot + 1, k));
  if (!Number.isInteger(conditions)) return null;
  // A one-character field is that character: no slice is made to compare it.
  const is = (end: number, at: number, code: number) => end === at + 2 && line.charCodeAt(at + 1) === code;
  return {
    k: conditions,
    shortest: is(shortest, k, ONE) ? 1 : 0,
    level: is(level, shortest, L) ? 'league' : 'match',
    hotq: line.slice(level + 1, hotq),
    league: line.slice(hotq + 1, league),
    id: line.slice(league + 1, id),
    day: line.slice(id + 1, day),
    live: is(live, day, ONE),
    route: line.slice(live + 1, route),
    line,
    headAt: file + 1,
    tailAt: live + 1,
    afterHeat: hot + 1,
  };
}

const ONE = '1'.charCodeAt(0);
const L = 'L'.charCodeAt(0);

/** A spooled candidate, every field split out (a build does this only for the candidates it admits). */
export function unspool(line: string): Spooled {
  const f = line.split('\t');
  const [p, k] = [Number(f[1]), Number(f[3])];
  if (f.length !== HEAD_FIELDS + 5 || !f[0] || !Number.isFinite(p) || !Number.isInteger(k) || !f[11]) {
    throw new Error(`not a spooled rule candidate: ${JSON.stringify(line.slice(0, 200))}`);
  }
  const bit = (v: string) => (v === '1' ? 1 : 0);
  return {
    file: f[0],
    p,
    hot: bit(f[2]!),
    k,
    shortest: bit(f[4]!),
    level: f[5] === 'L' ? 'league' : 'match',
    hotq: f[6]!,
    league: f[7]!,
    id: f[8]!,
    day: f[9]!,
    live: f[10] === '1',
    route: f[11],
    etag: f[12]!,
    cacheControl: f[13]!,
    request: f[14]!,
  };
}

/** The file a spooled line is for: its first field. */
export function spooledFile(line: string): string {
  const end = line.indexOf('\t');
  return end < 0 ? line : line.slice(0, end);
}
