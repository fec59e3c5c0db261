/** The request log: each request's line, and the sink that gathers and writes them. */
import { BACKSLASH, COMMA, QUOTE } from '../util/json-bytes.js';

export interface AccessEntry {
  /** `Date.now()` when the request was answered. */
  time: number;
  method: string | undefined;
  url: string;
  status: number;
  bytes: number;
  ms: number;
  ip: string;
  source: string;
}

/** Text JSON.stringify leaves as it is: no quote, backslash, control character or lone surrogate. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const quoted = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

let isoSecond = Number.NaN;
let isoPrefix = '';

/** `new Date(second * 1000).toISOString()` up to the milliseconds (`2026-11-25T03:06:07.`), made once per second. */
function isoSecondPrefix(second: number): string {
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  return isoPrefix;
}

/** `new Date(ms).toISOString()`. */
function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  const frac = ms - second * 1000;
  return `${isoSecondPrefix(second)}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
}

/**
 * One request's log line: exactly `JSON.stringify` of the entry with `time` as an ISO string,
 * spelled out because stringifying an object per request is a large share of a static answer's time
 * (docs/performance.md).
 */
export function accessLine(e: AccessEntry): string {
  const method = e.method === undefined ? '' : `"method":${quoted(e.method)},`;
  return (
    `{"time":"${isoTime(e.time)}",${method}"url":${quoted(e.url)},` +
    `"status":${e.status},"bytes":${e.bytes},"ms":${e.ms},"ip":${quoted(e.ip)},"source":${quoted(e.source)}}`
  );
}

/** Where the server puts its log: each request's entry, and other lines (a request it could not parse). */
export interface EntrySink {
  record(entry: AccessEntry): void;
  /** A line as it is (without its newline), in order with the entries. */
  line(text: string): void;
  /** Write what is gathered now (on shutdown). */
  flush(): void;
}

const FLUSH_BYTES = 1 << 16;
/** JSON spells a UTF-16 unit in at most six bytes (`\u001f`); the rest of a line takes less than this. */
const MAX_ESCAPED = 6;
const FIXED_BYTES = 256;
const DOT = 0x2e;
const ZERO = 0x30;
const part = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const TIME = part('{"time":"');
const TIME_END = part('Z",');
const METHOD = part('"method":');
const URL_ = part('"url":');
const STATUS = part(',"status":');
const BYTES = part(',"bytes":');
const MS = part(',"ms":');
const IP = part(',"ip":');
const SOURCE = part(',"source":');
const END = part('}\n');

/**
 * The request log's default sink. One write(2) per request would cost a syscall per answer at tens of
 * thousands of answers a second; lines are gathered instead and written together once per turn of
 * the event loop (or before 64 KiB), so each line still appears within moments of its request.
 *
 * Each entry is spelled straight into one reused buffer, as the bytes `accessLine` would give, with
 * no string per line: a string per line, and joining a turn's lines, cost static answers more of
 * their rate than a profile suggests. Native copies (`buf.set`, `buf.write`) per part cost more
 * than they save; the bytes are copied one by one (docs/performance.md).
 */
export function entryLog(out: { write(bytes: Buffer): unknown } = process.stdout): EntrySink {
  const buf = Buffer.allocUnsafeSlow(FLUSH_BYTES);
  let at = 0;
  let scheduled = false;
  let prefixSecond = Number.NaN;
  let prefix = new Uint8Array(0);

  // A copy: the stream may hold what it is given until it is written, and the buffer is reused.
  const flush = () => {
    scheduled = false;
    if (!at) return;
    const bytes = Buffer.from(buf.subarray(0, at));
    at = 0;
    out.write(bytes);
  };
  const put = (b: Uint8Array) => {
    for (let i = 0; i < b.length; i++) buf[at + i] = b[i]!;
    at += b.length;
  };
  /** JSON's spelling of `s`: as it is between quotes when JSON leaves every character as it is (PLAIN). */
  const text = (s: string) => {
    const start = at;
    buf[at++] = QUOTE;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === QUOTE || c === BACKSLASH) {
        at = start + buf.write(JSON.stringify(s), start, 'utf8');
        return;
      }
      buf[at++] = c;
    }
    buf[at++] = QUOTE;
  };
  /** A number as `accessLine` spells it (`String`), from 0 to 2^31 - 1 digit by digit. */
  const int = (n: number) => {
    if (!(n >= 0 && n <= 0x7fffffff && n === Math.floor(n))) {
      at += buf.write(String(n), at, 'latin1');
      return;
    }
    let digits = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
    for (let i = at + digits - 1, x = n; i >= at; i--, x = Math.floor(x / 10)) buf[i] = ZERO + (x % 10);
    at += digits;
  };
  // Whole hundredths, as the server rounds them: their shortest spelling (`String`'s) has at most two
  // decimals, since distinct hundredths this small are distinct doubles. Other numbers by `String`.
  const hundredths = (v: number) => {
    const k = Math.round(v * 100);
    if (!(v >= 0 && k <= 0x7fffffff && k / 100 === v)) {
      at += buf.write(String(v), at, 'latin1');
      return;
    }
    const frac = k % 100;
    int((k - frac) / 100);
    if (frac === 0) return;
    buf[at++] = DOT;
    buf[at++] = ZERO + Math.floor(frac / 10);
    if (frac % 10) buf[at++] = ZERO + (frac % 10);
  };
  const schedule = () => {
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  /** A line as a string (one the fast spelling does not cover): written at once if it does not fit. */
  const line = (text: string) => {
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    if (bytes.length > buf.length - at) {
      flush();
      out.write(bytes);
      return;
    }
    put(bytes);
    schedule();
  };
  const time = (ms: number) => {
    const second = Math.floor(ms / 1000);
    if (second !== prefixSecond) {
      prefixSecond = second;
      prefix = part(isoSecondPrefix(second));
    }
    put(prefix);
    const frac = ms - second * 1000;
    buf[at++] = ZERO + Math.floor(frac / 100);
    buf[at++] = ZERO + (Math.floor(frac / 10) % 10);
    buf[at++] = ZERO + (frac % 10);
  };

  return {
    record(e) {
      const units = e.url.length + e.ip.length + e.source.length + (e.method?.length ?? 0);
      const most = FIXED_BYTES + MAX_ESCAPED * units;
      if (at + most > buf.length) flush();
      // A time the fast spelling does not cover (not a whole millisecond, or past year 9999), or a
      // line larger than the buffer: as a string.
      const plainTime = Number.isInteger(e.time) && e.time >= 0 && e.time < 253402300800000;
      if (!plainTime || most > buf.length) {
        line(accessLine(e));
        return;
      }
      put(TIME);
      time(e.time);
      put(TIME_END);
      if (e.method !== undefined) {
        put(METHOD);
        text(e.method);
        buf[at++] = COMMA;
      }
      put(URL_);
      text(e.url);
      put(STATUS);
      int(e.status);
      put(BYTES);
      int(e.bytes);
      put(MS);
      hundredths(e.ms);
      put(IP);
      text(e.ip);
      put(SOURCE);
      text(e.source);
      put(END);
      schedule();
    },
    line,
    flush,
  };
}
