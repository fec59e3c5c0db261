/** The published build's rule spool, as the next build reads it: by segment (spool-segments.ts). */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { OutputFs } from '../../util/lines.js';
import { engaged } from '../../util/switches.js';
import { spooledFile } from './rule-spool.js';
import type { SegmentSummary } from './spool-segments.js';
import { INDEX } from './spool-segments.js';

/**
 * The published build's spool, read by segment: a segment's summary by key, and a segment's lines
 * by file when its files are carried over one by one (one segment held at a time: files come in
 * plan order, segment after segment). Without an index (a spool cut off, of another format, or
 * none) it has nothing, and the build plans every file.
 */
export class SpoolSegments {
  private readonly byKey = new Map<string, SegmentSummary>();
  private held: { key: string; lines: Map<string, string[]> } | null = null;

  constructor(
    readonly dir: string | null,
    private readonly fs: OutputFs = nodeFs,
  ) {
    if (!dir) return;
    let text: string;
    try {
      text = this.fs.readFileSync(path.join(dir, INDEX), 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const s = JSON.parse(line) as SegmentSummary;
        if (typeof s.key === 'string' && typeof s.name === 'string') this.byKey.set(s.key, s);
      } catch {
        // A damaged entry: its segment is not carried over (its files are planned).
      }
    }
  }

  /** The segment under `key`, when its file is as the index says. */
  intact(key: string): SegmentSummary | null {
    const s = this.byKey.get(key);
    if (!s || !this.dir) return null;
    try {
      return this.fs.statSync(path.join(this.dir, s.name)).size === s.bytes ? s : null;
    } catch {
      return null;
    }
  }

  /** The lines of `file` in the segment `key` (null when it has none), each taken once. */
  take(key: string, file: string): string[] | null {
    if (this.held?.key !== key) this.held = { key, lines: this.linesByFile(key) };
    const lines = this.held.lines.get(file);
    if (lines) {
      this.held.lines.delete(file);
      engaged('spool-segments');
    }
    return lines ?? null;
  }

  /** A segment's lines by file (none for a segment it cannot read). */
  private linesByFile(key: string): Map<string, string[]> {
    const byFile = new Map<string, string[]>();
    const s = this.byKey.get(key);
    if (!s || !this.dir) return byFile;
    let lines: string[];
    try {
      lines = segmentLines(this.dir, s.name, this.fs);
    } catch {
      return byFile;
    }
    for (const line of lines) {
      const file = spooledFile(line);
      const list = byFile.get(file);
      if (list) list.push(line);
      else byFile.set(file, [line]);
    }
    return byFile;
  }
}

/** A segment's lines, without their line breaks; a last line without one was cut off and is left out. */
export function segmentLines(dir: string, name: string, fs: OutputFs = nodeFs): string[] {
  const lines = fs.readFileSync(path.join(dir, name), 'utf8').split('\n');
  lines.pop();
  return lines.filter(Boolean);
}
