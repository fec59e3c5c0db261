/**
 * A file a build wrote in plan order (route table, then store order), read by key while the next
 * build streams in the same order — without loading it. It is read in step with the build, at most a
 * window ahead: entries that appear, vanish or move only cost lookahead, and a key not found in the
 * window is simply treated as unknown by the caller. Memory stays bounded by the window, whatever the
 * store size. Consecutive lines with one key are one entry.
 */
import { LineReader } from '../../util/lines.js';
import nodeFs from 'node:fs';

/** Consecutive lines with one key. */
export interface Entry {
  key: string;
  lines: string[];
  /** Where its first line starts in the file, in bytes. */
  at: number;
}

export class InStep {
  private readonly lines: LineReader | null;
  /** Entries read ahead, by key, oldest first. */
  private readonly pending = new Map<string, string[]>();
  /** The line read past the end of the last entry: the first of the next. */
  private next: string | null = null;
  private nextKey: string | null = null;
  private nextAt = 0;
  /** Where the line `line()` returned last starts. */
  private lineAt = 0;
  private done = false;
  /** Lookups in a row that found nothing with the window full (see `take`). */
  private misses = 0;
  /** Entries read from the file so far: after `drain`, all it has. */
  entries = 0;

  constructor(
    file: string | null,
    private readonly keyOf: (line: string) => string,
    private readonly window = 4096,
    /** Told of every entry passed by without being taken (and, on `drain`, of all the rest). */
    private readonly onUnclaimed?: (key: string) => void,
  ) {
    // A last line without its line break was cut off: it is not an entry.
    this.lines = file && nodeFs.existsSync(file) ? new LineReader(file, nodeFs, true) : null;
    if (!this.lines) this.done = true;
  }

  private line(): string | null {
    if (this.next !== null) {
      const line = this.next;
      this.next = null;
      this.nextKey = null;
      this.lineAt = this.nextAt;
      return line;
    }
    while (!this.done) {
      this.lineAt = this.lines!.offset;
      const read = this.lines!.next();
      if (read === null) this.done = true;
      else if (read) return read;
    }
    return null;
  }

  /** The next entry in the file, or null at its end. */
  private entry(): Entry | null {
    const known = this.nextKey;
    const first = this.line();
    if (first === null) return null;
    const at = this.lineAt;
    const key = known ?? this.keyOf(first);
    this.entries++;
    const lines = [first];
    for (let line = this.line(); line !== null; line = this.line()) {
      const next = this.keyOf(line);
      if (next !== key) {
        this.next = line;
        this.nextKey = next;
        this.nextAt = this.lineAt;
        break;
      }
      lines.push(line);
    }
    return { key, lines, at };
  }

  /** The entry for `key`, if the file has it within the window. */
  take(key: string): string[] | null {
    // In step, nothing is pending: the key is the next entry's.
    if (this.pending.size > 0) {
      const hit = this.pending.get(key);
      if (hit !== undefined) {
        this.pending.delete(key);
        this.misses = 0;
        return hit;
      }
    }
    // Read ahead only while the window has room. What was read ahead is what the build asks for
    // next: a lookup of a key the file lacks (a file new to this build) must not push it out, or
    // every lookup after it misses too and the build renders all that follows again.
    while (this.pending.size < this.window) {
      const e = this.entry();
      if (!e) break;
      if (e.key === key) {
        this.misses = 0;
        return e.lines;
      }
      this.pending.set(e.key, e.lines);
    }
    // A full window that keeps missing holds what the build passed by (entries that vanished, or
    // moved far): its older half goes, so reading can go on.
    if (this.pending.size >= this.window && ++this.misses >= Math.max(1, this.window >> 3)) {
      this.misses = 0;
      let drop = this.pending.size >> 1;
      for (const oldest of this.pending.keys()) {
        if (drop-- <= 0) break;
        this.pending.delete(oldest);
        this.onUnclaimed?.(oldest);
      }
    }
    return null;
  }

  /**
   * The file's bytes [at, to) as they are: `entries` entries of one line each (a manifest's), taken
   * together unread when they are the next ones in the file (what was read ahead lies before them,
   * and stays pending) and are as many whole lines; null otherwise, taking nothing. When a lookup of
   * a key the file does not have read ahead past them (a file new to this build), they are taken from
   * what was read ahead instead, if every one of them is still there.
   */
  skip(at: number, to: number, entries: number): Buffer | null {
    const { lines } = this;
    if (!lines) return null;
    const next = this.next !== null ? this.nextAt : lines.offset;
    if (next !== at) return next >= to && at < to ? this.takeReadAhead(at, to, entries) : null;
    const bytes = lines.read(at, to);
    if (!bytes || !wholeLines(bytes, entries)) return null;
    lines.seek(to);
    this.entries += entries;
    this.next = null;
    this.nextKey = null;
    this.done = false;
    return bytes;
  }

  /** `skip` for a range the reader is past: its entries, one line each, all pending and taken together. */
  private takeReadAhead(at: number, to: number, entries: number): Buffer | null {
    const bytes = this.lines!.read(at, to);
    if (!bytes || !wholeLines(bytes, entries)) return null;
    const keys: string[] = [];
    for (let start = 0; start < bytes.length; ) {
      const end = bytes.indexOf(NEWLINE, start);
      const line = bytes.toString('utf8', start, end);
      const key = this.keyOf(line);
      const held = this.pending.get(key);
      if (held?.length !== 1 || held[0] !== line) return null;
      keys.push(key);
      start = end + 1;
    }
    for (const key of keys) this.pending.delete(key);
    return bytes;
  }

  /** Read to the end: every entry not taken so far is unclaimed. */
  drain(): void {
    for (let e = this.entry(); e; e = this.entry()) this.onUnclaimed?.(e.key);
    for (const key of this.pending.keys()) this.onUnclaimed?.(key);
    this.pending.clear();
  }

  close(): void {
    this.lines?.close();
    this.done = true;
    this.next = null;
    this.nextKey = null;
  }
}

/** Whether `bytes` are `count` whole lines (a stretch said to be so, checked before it is trusted). */
function wholeLines(bytes: Buffer, count: number): boolean {
  if (bytes[bytes.length - 1] !== NEWLINE) return false;
  let lines = 0;
  for (let nl = bytes.indexOf(NEWLINE); nl !== -1 && lines <= count; nl = bytes.indexOf(NEWLINE, nl + 1)) lines++;
  return lines === count;
}

const NEWLINE = 10;
