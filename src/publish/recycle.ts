/**
 * Recycled releases: an incremental build's cost follows the change, not the store (CONTRACT §5.3).
 *
 * A fresh release directory costs a link per unchanged file, and pruning the oldest release an
 * unlink per file — both grow with the store, and on a busy disk they are most of a small build.
 * So an incremental build takes over the release pruning would delete next (never the published
 * one, which a server may be reading), renames it to a temporary name and brings it up to date:
 * only the files that differ from the new build are replaced, each by rename(2) so no inode another
 * release shares is ever written into; files the new build no longer has are deleted.
 *
 * "Differ" must include a file whose bytes are right but whose inode is not the published one's,
 * so that an unchanged file stays the very same file (same inode and mtime) from release to
 * release. Every release therefore records, beside it (`<release>.written`), the release it was
 * built from and the files it wrote anew rather than linked: a file no release after the recycled
 * one wrote is the published release's own inode. When that lineage is not complete (a full build
 * in between, a release published by other means) nothing is recycled and the build starts from
 * an empty directory as before.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { OutputFs } from '../util/lines.js';
import { linesSync } from '../util/lines.js';
import { bytesOf, etagOf } from './manifest.js';
import { PreviousManifest } from './previous.js';
import type { ReleaseLayout } from './release.js';
import { MANIFEST_FILE, carryFile, lineageFile, releaseNames } from './release.js';

/**
 * The recycled release's word on one file of the new build: whether it is the published one, and its
 * manifest line (read only when the file is rendered: `recycledFile`).
 */
export interface RecycledClaim {
  same: boolean;
  line: string;
}

export const recycledFile = (c: RecycledClaim): RecycledFile => ({
  etag: etagOf(c.line),
  bytes: bytesOf(c.line),
  same: c.same,
});

/** What the recycled release holds for one file of the new build. */
export interface RecycledFile {
  etag: string;
  bytes: number;
  /** It is the published release's file itself (same inode): nothing to do if that is what is wanted. */
  same: boolean;
}

/**
 * Record how `release` was made: from `base` (null: from nothing, or rendered in full), writing
 * `written` anew. Best effort: without it the release is simply never recycled.
 */
export function writeLineage(release: string, base: string | null, written: Iterable<string>, fs: OutputFs = nodeFs) {
  try {
    const lines = [`base ${base ? path.basename(base) : '-'}`, ...written];
    fs.writeFileSync(lineageFile(release), `${lines.join('\n')}\n`);
  } catch {
    fs.rmSync(lineageFile(release), { force: true });
  }
}

function readLineage(release: string, fs: OutputFs): { base: string | null; written: string[] } | null {
  let text: string;
  try {
    text = fs.readFileSync(lineageFile(release), 'utf8');
  } catch {
    return null;
  }
  const [head, ...written] = text.split('\n').filter(Boolean);
  const base = head?.startsWith('base ') ? head.slice(5) : null;
  if (base === null) return null;
  return { base: base === '-' ? null : base, written };
}

export class Recycler {
  private readonly manifest: PreviousManifest;
  /** Entries of the recycled release the new build passed by without claiming: deleted at the end. */
  private readonly unclaimed = new Set<string>();
  /** Files the new build placed that the recycled manifest did not offer in step (claimed late). */
  private readonly placedLate = new Set<string>();

  private constructor(
    /** The temporary directory the recycled release now is. */
    readonly dir: string,
    /** Where it was. */
    private readonly from: string,
    private readonly oldManifest: string,
    /** Files whose inode may differ from the published release's. */
    private readonly stale: ReadonlySet<string>,
    private readonly fs: OutputFs,
  ) {
    this.manifest = new PreviousManifest(oldManifest, 4096, (file) => this.unclaimed.add(file));
  }

  /**
   * Take over the release the next prune would delete, if its lineage up to `previous` is known:
   * rename it to `temp`, set its manifest aside, and remove the files every build writes anew.
   */
  static take(
    layout: ReleaseLayout,
    previous: string,
    keep: number,
    temp: string,
    auxFiles: readonly string[],
  ): Recycler | null {
    const { fs } = layout;
    const current = path.basename(previous);
    const names = releaseNames(layout);
    const older = names.filter((n) => n < current);
    if (!names.includes(current) || older.length === 0 || older.length < keep) return null;
    const oldest = older[0]!;
    // Every release after the recycled one, up to the published one, made from its predecessor.
    const chain = names.filter((n) => n > oldest && n <= current);
    const stale = new Set<string>();
    let base = oldest;
    for (const name of chain) {
      const lineage = readLineage(path.join(layout.root, name), fs);
      if (!lineage || lineage.base !== base) return null;
      for (const file of lineage.written) stale.add(file);
      base = name;
    }
    const from = path.join(layout.root, oldest);
    if (!fs.existsSync(path.join(from, MANIFEST_FILE))) return null;
    fs.renameSync(from, temp);
    fs.rmSync(lineageFile(from), { force: true });
    fs.rmSync(carryFile(from), { force: true });
    const aside = `${temp}-manifest`;
    fs.renameSync(path.join(temp, MANIFEST_FILE), aside);
    // They are rewritten by every build, and may be the published release's own inodes: never written into.
    for (const file of auxFiles) fs.rmSync(path.join(temp, file), { force: true });
    return new Recycler(temp, from, aside, stale, fs);
  }

  /** The recycled release's word on one file of the new build, asked in plan order. */
  find(file: string): RecycledClaim | null {
    const line = this.manifest.findLine(file);
    if (line !== null) return { line, same: !this.stale.has(file) };
    // Not offered in step (new, or moved far in the order): rewritten, and never deleted at the end.
    this.placedLate.add(file);
    return null;
  }

  /** Delete what the new build does not have, and the directories that leaves empty. */
  finish(): number {
    this.manifest.drain();
    let deleted = 0;
    for (const file of this.unclaimed) {
      if (this.placedLate.has(file)) continue;
      const target = path.join(this.dir, file);
      this.fs.rmSync(target, { force: true });
      deleted++;
      for (let dir = path.dirname(target); dir.startsWith(`${this.dir}${path.sep}`); dir = path.dirname(dir)) {
        try {
          this.fs.rmdirSync(dir);
        } catch {
          break; // not empty
        }
      }
    }
    this.fs.rmSync(this.oldManifest, { force: true });
    return deleted;
  }

  /** A build that publishes nothing gives the directory back under its old name (it is a complete release). */
  giveBack(): void {
    this.fs.renameSync(this.dir, this.from);
  }

  close(): void {
    this.manifest.close();
  }
}

/** The lines of a lineage file, for tests and tools. */
export function lineageLines(release: string, fs: OutputFs = nodeFs): string[] {
  return [...linesSync(lineageFile(release), fs)];
}
