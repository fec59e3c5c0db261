/**
 * The request log's default sink. One write(2) per request would cost a syscall per answer at tens of
 * thousands of answers a second; lines are gathered instead and written together once per turn of
 * the event loop (or every 64 KiB), so each line still appears within moments of its request.
 */
const FLUSH_CHARS = 1 << 16;

export interface LineSink {
  write(line: string): void;
  /** Write what is gathered now (on shutdown). */
  flush(): void;
}

export function bufferedLines(out: { write(text: string): unknown } = process.stdout): LineSink {
  let lines: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!lines.length) return;
    const text = `${lines.join('\n')}\n`;
    lines = [];
    chars = 0;
    out.write(text);
  };
  return {
    write(line) {
      lines.push(line);
      chars += line.length;
      if (chars >= FLUSH_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

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

/** `new Date(ms).toISOString()`, its date and time of day made once per second. */
function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  const frac = ms - second * 1000;
  return `${isoPrefix}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
}

/**
 * One request's log line: exactly `JSON.stringify` of the entry with `time` as an ISO string, spelled
 * out because stringifying an object per request took a sixth of a static answer's time.
 */
export function accessLine(e: AccessEntry): string {
  const method = e.method === undefined ? '' : `"method":${quoted(e.method)},`;
  return (
    `{"time":"${isoTime(e.time)}",${method}"url":${quoted(e.url)},` +
    `"status":${e.status},"bytes":${e.bytes},"ms":${e.ms},"ip":${quoted(e.ip)},"source":${quoted(e.source)}}`
  );
}
