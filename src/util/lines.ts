/** Text files a line at a time, in both directions, with memory that stays flat however long they are. */
import nodeFs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The file system a build writes through: node:fs, or a stand-in a test injects (faults, counting). */
export type OutputFs = typeof nodeFs;

/** Append-only text output with a small buffer: memory stays flat however many lines are written. */
export class LineWriter {
  private readonly fd: number;
  private chunks: string[] = [];
  private size = 0;
  private closed = false;
  bytes = 0;

  constructor(
    readonly file: string,
    private readonly fs: OutputFs = nodeFs,
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
    this.fs.writeSync(this.fd, buf);
    this.bytes += buf.length;
    this.chunks = [];
    this.size = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    this.fs.closeSync(this.fd);
  }
}

/**
 * Lines of a text file, read in fixed-size chunks: memory stays flat however long the file is.
 * `whole`: leave out a last line without its line break (what a cut-off write leaves).
 */
export function* linesSync(file: string, fs: OutputFs = nodeFs, whole = false): Generator<string> {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(1 << 16);
  // A chunk may end inside a multi-byte character; the decoder carries it over.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for (let n = fs.readSync(fd, buf, 0, buf.length, null); n > 0; n = fs.readSync(fd, buf, 0, buf.length, null)) {
      const text = rest + decoder.write(buf.subarray(0, n));
      const lines = text.split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    rest += decoder.end();
    if (rest && !whole) yield rest;
  } finally {
    fs.closeSync(fd);
  }
}
