/**
 * The release manifest, `manifest.ndjson`: one JSON line per pre-rendered file, in build order
 * (route table, then store order — deterministic, so the manifest is reproducible). It records what
 * the file answers (its canonical request, aliases and request keys) and the headers it is served
 * with, so the server and `fds check` never need to re-derive them.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { StringDecoder } from 'node:string_decoder';

export interface ManifestEntry {
  file: string;
  /** The canonical request the file was rendered from (path + query). */
  request: string;
  aliases: string[];
  keys: string[];
  status: number;
  etag: string;
  cacheControl: string;
  contentType: string;
  bytes: number;
}

export function manifestLine(e: ManifestEntry): string {
  // Explicit key order: the manifest is compared byte for byte between builds.
  return `${JSON.stringify({
    file: e.file,
    request: e.request,
    aliases: e.aliases,
    keys: e.keys,
    status: e.status,
    etag: e.etag,
    cacheControl: e.cacheControl,
    contentType: e.contentType,
    bytes: e.bytes,
  })}\n`;
}

/** Append-only text output with a small buffer: memory stays flat however many lines are written. */
export class LineWriter {
  private readonly fd: number;
  private chunks: string[] = [];
  private size = 0;
  private closed = false;
  bytes = 0;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
  }

  write(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size >= 1 << 16) this.flush();
  }

  private flush(): void {
    if (!this.chunks.length) return;
    const buf = Buffer.from(this.chunks.join(''), 'utf8');
    fs.writeSync(this.fd, buf);
    this.bytes += buf.length;
    this.chunks = [];
    this.size = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** Lines of a text file, read in fixed-size chunks: memory stays flat however long the file is. */
export function* linesSync(file: string): Generator<string> {
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
    if (rest) yield rest;
  } finally {
    fs.closeSync(fd);
  }
}

export async function* readManifest(file: string): AsyncGenerator<ManifestEntry> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as ManifestEntry;
}

/** Synchronous variant for the server, which swaps its whole index at once. */
export function readManifestSync(file: string): ManifestEntry[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ManifestEntry);
}

export async function countManifest(file: string): Promise<number> {
  let n = 0;
  try {
    for await (const _ of readManifest(file)) n++;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return n;
}
