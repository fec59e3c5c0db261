/**
 * A literal rule candidate as the rule planner (rules.ts) spools it while a build streams, and reads
 * it back when it admits candidates within the budget. The spool outlives the build, beside its
 * release (release/layout.ts `carryDir`): with each candidate's standing (reach.ts) in it, the next build carries an
 * untouched file's candidates over from it instead of planning the file again.
 */
import type { Standing } from '../plan/reach.js';
import { UNCARRIED } from '../plan/reach.js';
import { STATIC_PREFIX } from '../../release/file-name.js';

/**
 * What leads a spooled line: what carrying it over may change (its match's standing). Its priority
 * and heat are not spooled: they follow the snapshot day, so every build works them out anew, and an
 * untouched file's candidates are carried over as they are.
 */
export interface Head extends Standing {
  /** The rule's number of conditions; -1 for a request no literal rule can express (counted, never admitted). */
  k: number;
  /** 1 when this is a pre-rendered request's shortest spelling. */
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

/** A spooled candidate as the next build carries it over: its head parsed, the rest kept by position. */
export interface Carried extends Head {
  route: string;
  /** The whole line, without its line break. */
  line: string;
  /** Where the head starts (after the file), and where the route (after the head) does. */
  headAt: number;
  tailAt: number;
}

/**
 * Whether the next build may carry a file's candidate over (rules.ts `carry`): a file under `_s/`
 * (the others have header blocks of their own), whose hot test asks about one day's nearness at most.
 */
export const carriable = (file: string, hotq: string) => file.startsWith(`${STATIC_PREFIX}/`) && hotq !== UNCARRIED;

/** The fields of the head (see spoolLine). */
const HEAD_FIELDS = 8;

const headText = (h: Head) =>
  `${h.k}\t${h.shortest}\t${h.level === 'league' ? 'L' : 'M'}\t${h.hotq}\t` +
  `${h.league}\t${h.id}\t${h.day}\t${h.live ? 1 : 0}`;

/**
 * A spooled candidate as one tab-separated line (a build spools hundreds of thousands): no field holds
 * a tab or a line break — file names, route names, leagues, ids, days and requests are URL-safe tokens
 * and spaces, ETags and Cache-Control header values are ours — and the request, the one with spaces,
 * goes last. The file leads (the next build looks lines up by it), then what a carried candidate may
 * change (the head), then what it never changes (the tail). The rule's target is the file, so it is
 * not written twice.
 */
export const spoolLine = (s: Spooled) =>
  `${s.file}\t${headText(s)}\t${s.route}\t${s.etag}\t${s.cacheControl}\t${s.request}\n`;

/**
 * A carried candidate's line: as it was, or, when its standing was worked out again (`moved`: its
 * match changed), with its head written anew.
 */
export const carriedLine = (c: Carried, moved: boolean) =>
  moved ? `${c.line.slice(0, c.headAt)}${headText(c)}\t${c.line.slice(c.tailAt)}\n` : `${c.line}\n`;

/** Null for a line that is not a spooled candidate. */
export function uncarry(line: string): Carried | null {
  // Where the file and each of the head's fields end, then the route: found, not split out, as a
  // build carries hundreds of thousands of lines and keeps most of each as it is.
  const file = line.indexOf('\t');
  const k = line.indexOf('\t', file + 1);
  const shortest = line.indexOf('\t', k + 1);
  const level = line.indexOf('\t', shortest + 1);
  const hotq = line.indexOf('\t', level + 1);
  const league = line.indexOf('\t', hotq + 1);
  const id = line.indexOf('\t', league + 1);
  const day = line.indexOf('\t', id + 1);
  const live = line.indexOf('\t', day + 1);
  const route = line.indexOf('\t', live + 1);
  // A missing tab starts the search over from the line's start: the ends would not rise.
  if (file <= 0 || !(k > file && shortest > k && level > shortest && hotq > level && league > hotq)) return null;
  if (!(id > league && day > id && live > day && route > live + 1)) return null;
  const conditions = Number(line.slice(file + 1, k));
  if (!Number.isInteger(conditions)) return null;
  return {
    k: conditions,
    shortest: is(line, k, shortest, ONE) ? 1 : 0,
    level: is(line, shortest, level, L) ? 'league' : 'match',
    hotq: line.slice(level + 1, hotq),
    league: line.slice(hotq + 1, league),
    id: line.slice(league + 1, id),
    day: line.slice(id + 1, day),
    live: is(line, day, live, ONE),
    route: line.slice(live + 1, route),
    line,
    headAt: file + 1,
    tailAt: live + 1,
  };
}

const ONE = '1'.charCodeAt(0);
const L = 'L'.charCodeAt(0);

/**
 * Whether the field after the tab at `at`, ending at `end`, is the one character `code`: compared
 * without a slice. (Not a closure in uncarry: one made per line costs more than the comparison.)
 */
const is = (line: string, at: number, end: number, code: number) => end === at + 2 && line.charCodeAt(at + 1) === code;

/** A spooled candidate, every field split out (a build does this only for the candidates it admits). */
export function unspool(line: string): Spooled {
  const f = line.split('\t');
  const k = Number(f[1]);
  if (f.length !== HEAD_FIELDS + 5 || !f[0] || !Number.isInteger(k) || !f[9]) {
    throw new Error(`not a spooled rule candidate: ${JSON.stringify(line.slice(0, 200))}`);
  }
  return {
    file: f[0],
    k,
    shortest: f[2] === '1' ? 1 : 0,
    level: f[3] === 'L' ? 'league' : 'match',
    hotq: f[4]!,
    league: f[5]!,
    id: f[6]!,
    day: f[7]!,
    live: f[8] === '1',
    route: f[9],
    etag: f[10]!,
    cacheControl: f[11]!,
    request: f[12]!,
  };
}

/** The file a spooled line is for: its first field. */
export function spooledFile(line: string): string {
  const end = line.indexOf('\t');
  return end < 0 ? line : line.slice(0, end);
}
