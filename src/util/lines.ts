/** Text files a line at a time, in both directions, with memory that stays flat however long they are. */
import nodeFs from 'node:fs';

/** The file system a build writes through: node:fs, or a stand-in a test injects (faults, counting). */
export type OutputFs = typeof nodeFs;

/** Chunks a background writer may have in flight before it writes in the caller's thread again. */
const IN_FLIGHT = 8;

/**
 * Append-only text output with a small buffer: memory stays flat however many lines are written.
 * `background`: chunks are written by the thread pool at their offsets while the caller goes on (a
 * build writes a large manifest and rule spool beside its CPU-bound work); `done()` then says when
 * every byte is on file, and fails if a write did.
 */
export class LineWriter {
  private readonly fd: number;
  private chunks: string[] = [];
  private size = 0;
  private closed = false;
  private inFlight = 0;
  private failed: Error | null = null;
  private settled: (() => void) | null = null;
  bytes = 0;

  constructor(
    readonly file: string,
    private readonly fs: OutputFs = nodeFs,
    private readonly background = false,
  ) {
    this.fd = this.fs.openSync(file, 'w');
  }

  write(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size >= 1 << 16) this.flush();
  }

  /** Bytes as they are (whole lines, from another file), after what was written so far. */
  append(bytes: Buffer): void {
    this.flush();
    this.put(bytes);
  }

  /** Where the next line starts in the file, in bytes (what is buffered goes out first). */
  get offset(): number {
    this.flush();
    return this.bytes;
  }

  private flush(): void {
    if (!this.chunks.length) return;
    const buf = Buffer.from(this.chunks.join(''), 'utf8');
    this.chunks = [];
    this.size = 0;
    this.put(buf);
  }

  private put(buf: Buffer): void {
    if (!buf.length) return;
    const at = this.bytes;
    this.bytes += buf.length;
    if (!this.background || this.inFlight >= IN_FLIGHT) {
      this.fs.writeSync(this.fd, buf, 0, buf.length, this.background ? at : null);
      return;
    }
    this.inFlight++;
    this.fs.write(this.fd, buf, 0, buf.length, at, (err, written) => {
      if (!err && written !== buf.length) err = new Error(`${this.file}: short write`);
      if (err) this.failed ??= err;
      if (--this.inFlight === 0 && this.closed) this.finish();
    });
  }

  private finish(): void {
    try {
      this.fs.closeSync(this.fd);
    } catch (err) {
      this.failed ??= err as Error;
    }
    this.settled?.();
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    if (this.inFlight === 0) this.finish();
  }

  /** Closed, and every write finished (a background writer's file is whole only then). */
  done(): Promise<void> {
    this.close();
    return new Promise<void>((resolve, reject) => {
      const end = () => (this.failed ? reject(this.failed) : resolve());
      if (this.inFlight === 0) end();
      else this.settled = end;
    });
  }
}

/**
 * Lines of a text file, read in fixed-size chunks: memory stays flat however long the file is.
 * `whole`: leave out a last line without its line break (what a cut-off write leaves). A reader,
 * not a generator: a build reads hundreds of thousands of lines in step with its plan, and a
 * generator's step costs more than the line. Lines are cut in the file's bytes, so the reader knows
 * where each starts (`offset`) and can skip a stretch of them unread (`read`, `seek`).
 */
export class LineReader {
  private fd: number | null;
  private buf = Buffer.alloc(1 << 16);
  /** The buffer's bytes [start, end) are the file's from `base` + start on, not yet made lines. */
  private start = 0;
  private end = 0;
  private base = 0;
  private eof = false;

  constructor(
    file: string,
    private readonly fs: OutputFs = nodeFs,
    private readonly whole = false,
  ) {
    this.fd = fs.openSync(file, 'r');
  }

  /** Where the next line starts in the file, in bytes. */
  get offset(): number {
    return this.base + this.start;
  }

  /** The next line (without its line break), or null at the end of the file. */
  next(): string | null {
    for (;;) {
      const nl = this.end > this.start ? this.buf.indexOf(10, this.start) : -1;
      if (nl !== -1 && nl < this.end) {
        const line = this.buf.toString('utf8', this.start, nl);
        this.start = nl + 1;
        return line;
      }
      if (!this.fill()) {
        if (this.start >= this.end || this.whole) return null;
        const last = this.buf.toString('utf8', this.start, this.end);
        this.start = this.end;
        return last;
      }
    }
  }

  /** Read more of the file behind what is left; false at its end. */
  private fill(): boolean {
    if (this.fd === null || this.eof) return false;
    const left = this.end - this.start;
    // A line longer than the buffer: a larger one.
    if (left === this.buf.length) {
      const bigger = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(bigger, 0, this.start, this.end);
      this.buf = bigger;
    } else if (left > 0) this.buf.copy(this.buf, 0, this.start, this.end);
    this.base += this.start;
    this.start = 0;
    this.end = left;
    const n = this.fs.readSync(this.fd, this.buf, left, this.buf.length - left, this.base + left);
    if (n <= 0) {
      this.eof = true;
      return false;
    }
    this.end += n;
    return true;
  }

  /** The file's bytes [from, to) as they are, or null when it ends before `to`; reading lines goes on where it was. */
  read(from: number, to: number): Buffer | null {
    if (this.fd === null || to < from) return null;
    const out = Buffer.allocUnsafe(to - from);
    for (let got = 0; got < out.length; ) {
      const n = this.fs.readSync(this.fd, out, got, out.length - got, from + got);
      if (n <= 0) return null;
      got += n;
    }
    return out;
  }

  /** Read lines on from `to`, which must be where one starts. */
  seek(to: number): void {
    if (to >= this.base + this.start && to <= this.base + this.end) this.start = to - this.base;
    else {
      this.base = to;
      this.start = 0;
      this.end = 0;
      this.eof = false;
    }
  }

  close(): void {
    if (this.fd === null) return;
    this.fs.closeSync(this.fd);
    this.fd = null;
    this.start = this.end;
  }
}

/** Every line of a text file (see LineReader). */
export function* linesSync(file: string, fs: OutputFs = nodeFs, whole = false): Generator<string> {
  const reader = new LineReader(file, fs, whole);
  try {
    for (let line = reader.next(); line !== null; line = reader.next()) yield line;
  } finally {
    reader.close();
  }
}

/**
 * How many non-empty lines a text file has, counted in its bytes without decoding them (a build
 * counts the published manifest's files, and a manifest grows with the store). 0 when there is no
 * such file.
 */
export function countLines(file: string, fs: OutputFs = nodeFs): number {
  if (!fs.existsSync(file)) return 0;
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(1 << 20);
  let lines = 0;
  let open = false;
  try {
    for (let n = fs.readSync(fd, buf, 0, buf.length, null); n > 0; n = fs.readSync(fd, buf, 0, buf.length, null)) {
      const read = n < buf.length ? buf.subarray(0, n) : buf;
      let start = 0;
      for (let nl = read.indexOf(10, start); nl !== -1; nl = read.indexOf(10, start)) {
        if (open || nl > start) lines++;
        open = false;
        start = nl + 1;
      }
      if (start < n) open = true;
    }
  } finally {
    fs.closeSync(fd);
  }
  return open ? lines + 1 : lines;
}
