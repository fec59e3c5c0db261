/** Text files a line at a time, in both directions, with memory that stays flat however long they are. */
import nodeFs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The file system a build writes through: node:fs, or a stand-in a test injects (faults, counting). */
export type OutputFs = typeof nodeFs;

/** Chunks a background writer may have in flight before it writes in the caller's thread again. */
const IN_FLIGHT = 8;

/**
 * Append-only text output with a small buffer: memory stays flat however many lines are written.
 * `background`: chunks are written by the thread pool at their offsets while the caller goes on (a
 * build writes ~100 MB of manifest and rule spool beside its CPU-bound work); `done()` then says when
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

  private flush(): void {
    if (!this.chunks.length) return;
    const buf = Buffer.from(this.chunks.join(''), 'utf8');
    const at = this.bytes;
    this.bytes += buf.length;
    this.chunks = [];
    this.size = 0;
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
 * generator's step costs more than the line.
 */
export class LineReader {
  private fd: number | null;
  private readonly buf = Buffer.alloc(1 << 16);
  // A chunk may end inside a multi-byte character; the decoder carries it over.
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private at = 0;
  private rest = '';

  constructor(
    file: string,
    private readonly fs: OutputFs = nodeFs,
    private readonly whole = false,
  ) {
    this.fd = fs.openSync(file, 'r');
  }

  /** The next line (without its line break), or null at the end of the file. */
  next(): string | null {
    while (this.at >= this.lines.length) if (!this.fill()) return null;
    return this.lines[this.at++]!;
  }

  private fill(): boolean {
    if (this.fd === null) return false;
    const n = this.fs.readSync(this.fd, this.buf, 0, this.buf.length, null);
    this.at = 0;
    if (n > 0) {
      this.lines = (this.rest + this.decoder.write(this.buf.subarray(0, n))).split('\n');
      this.rest = this.lines.pop()!;
      return true;
    }
    const last = this.rest + this.decoder.end();
    this.close();
    this.lines = last && !this.whole ? [last] : [];
    return this.lines.length > 0;
  }

  close(): void {
    if (this.fd === null) return;
    this.fs.closeSync(this.fd);
    this.fd = null;
    this.rest = '';
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
 * counts the published manifest's files: 45 MB at demo scale 4). 0 when there is no such file.
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
