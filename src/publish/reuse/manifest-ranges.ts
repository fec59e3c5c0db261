/**
 * Where each segment's files (spool-segments.ts: a run of consecutive files in plan order) stand in
 * a release's manifest, as bytes. A segment of match groups that no change touched, whose groups
 * are the ones the published build put under its key, and whose files the recycled release holds as
 * published, is carried over whole by the next build: its manifest lines are copied as bytes and
 * its spool segment linked, without reading a line or planning a file (write-release.ts). An
 * incremental build after a day's sync carries most of its files so (docs/performance.md).
 *
 * Kept beside the spool's index in the release's carry directory (release/layout.ts `carryDir`), one
 * JSON line per segment in manifest order.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { LineWriter, OutputFs } from '../../util/lines.js';

export const RANGES = 'ranges.ndjson';

export interface ManifestRange {
  key: string;
  /**
   * The digest of its match groups' path parameters in plan order (spool-segments.ts `FileDigest`;
   * the route and league are the key's), and how many; null for a segment of single requests, which
   * is never carried over whole.
   */
  groups: string | null;
  count: number;
  /** Its lines are the manifest's bytes [at, to). */
  at: number;
  to: number;
  /** Its files, and the bytes of their answers. */
  files: number;
  bytes: number;
}

/**
 * Notes each segment's range while the build writes its manifest in plan order: the files' lines
 * as results settle, then the segment's end, which the plan queues after its last file (it knows
 * the segment's groups only once it leaves it).
 */
export class RangeWriter {
  private open: ManifestRange | null = null;
  private readonly ranges: ManifestRange[] = [];
  private readonly keys = new Set<string>();

  constructor(private readonly manifest: LineWriter) {}

  /** Before each file's line: its segment and the bytes of its answer. */
  file(key: string, bytes: number): void {
    if (this.open?.key !== key) this.start(key);
    this.open!.files++;
    this.open!.bytes += bytes;
  }

  /** After the segment's last line: its groups (nothing to do for a segment without a file). */
  end(key: string, groups: string | null, count: number): void {
    if (this.open?.key === key) this.close(groups, count);
  }

  /** A segment carried over whole: the published range's lines, as bytes, written now. */
  copy(from: ManifestRange, lines: Buffer): void {
    this.start(from.key);
    this.open!.files = from.files;
    this.open!.bytes = from.bytes;
    this.manifest.append(lines);
    this.close(from.groups, from.count);
  }

  private start(key: string): void {
    this.close(null, 0);
    const at = this.manifest.offset;
    this.open = { key, groups: null, count: 0, at, to: at, files: 0, bytes: 0 };
  }

  private close(groups: string | null, count: number): void {
    const range = this.open;
    if (!range) return;
    this.open = null;
    range.to = this.manifest.offset;
    // A key met twice (a plan's keys are unique) is left without groups: never carried over whole.
    if (!this.keys.has(range.key)) {
      range.groups = groups;
      range.count = count;
    }
    this.keys.add(range.key);
    this.ranges.push(range);
  }

  /** Write the ranges into `dir` (call once the manifest's last line is written). */
  finish(dir: string, fs: OutputFs = nodeFs): void {
    this.close(null, 0);
    fs.writeFileSync(path.join(dir, RANGES), this.ranges.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
}

/** The published build's ranges by key (none without the file, or for lines it cannot read). */
export function readRanges(dir: string | null, fs: OutputFs = nodeFs): Map<string, ManifestRange> {
  const byKey = new Map<string, ManifestRange>();
  if (!dir) return byKey;
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, RANGES), 'utf8');
  } catch {
    return byKey;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const r = JSON.parse(line) as ManifestRange;
      if (typeof r.key === 'string' && r.groups && Number.isInteger(r.at) && r.to > r.at && !byKey.has(r.key)) {
        byKey.set(r.key, r);
      }
    } catch {
      // A damaged line: its segment is carried over file by file.
    }
  }
  return byKey;
}
