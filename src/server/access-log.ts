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
