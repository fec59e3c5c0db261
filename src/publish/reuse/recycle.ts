/**
 * Recycled releases: an incremental build's cost follows the change, not the store
 * (docs/publishing.md, "Incremental builds").
 *
 * A fresh release directory costs a link per unchanged file, and pruning the oldest release an
 * unlink per file — both grow with the store, and on a busy disk they are most of a small build.
 * So an incremental build takes over the release pruning would delete next (never the published
 * one, which a server may be reading), renames it to a temporary name and brings it up to date:
 * only the files that differ from the new build are replaced, each by rename(2) so no inode another
 * release shares is ever written into; files the new build no longer has are deleted.
 *
 * "Differ" must include a file whose bytes are right but whose inode is not the published one's, so
 * that an unchanged file stays the very same file (same inode and mtime) from release to release.
 * Every release therefore records, beside it (`<release>.written`), the release it was built from,
 * the files it wrote anew rather than linked, and the files of that release it does not have: a
 * file of the published release that no release after the recycled one wrote is the published
 * release's own inode, and what the recycled release holds beyond the published one is among the
 * files those releases removed. So the recycled release's manifest, which grows with the store, is
 * never read: the published one, which the build reads anyway, and the lineage say it all. When
 * there is no release to take over, or its lineage is not complete (a full build in between, a
 * release published by other means, another lineage format), a build starts from an empty directory
 * and links each unchanged file from the published release (place.ts).
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { OutputFs } from '../../util/lines.js';
import { LineWriter, linesSync } from '../../util/lines.js';
import type { ReleaseLayout } from '../../release/layout.js';
import { MANIFEST_FILE, carryDir, lineageFile, releaseNames, spareDir } from '../../release/layout.js';
import { requestPathOf } from '../../release/file-name.js';

/**
 * The recycled release's word on one file of the new build: whether what stands at its path is the
 * published release's file itself (same inode), so carrying the file over takes nothing; otherwise
 * whatever stands there, if anything, is replaced. Plain data: it crosses to the render workers.
 */
export interface RecycledFile {
  same: boolean;
}

const SAME: RecycledFile = { same: true };
const UNKNOWN: RecycledFile = { same: false };

/** How a release was made: the release it was built from, what it wrote anew, what of that one it does not have. */
export interface Lineage {
  base: string | null;
  written: Iterable<string>;
  removed: Iterable<string>;
}

/**
 * The release a build's lineage names as its base: the published one, unless the build renders in
 * full (`--full`) or there is none. A lineage without a base lists no files.
 */
export const lineageBase = (previous: string | null, full: boolean | undefined): string | null =>
  full ? null : previous;

/** The lineage format's head: a file of another format is not a lineage (nothing is recycled through it). */
const HEAD = 'from ';

/**
 * Record how `release` was made (base null: from nothing, or rendered in full). Best effort: without
 * it the release is simply never recycled. Written a line at a time: a build that writes every file
 * anew lists them all, which a string held whole would cost the heap.
 */
export function writeLineage(release: string, lineage: Lineage, fs: OutputFs = nodeFs) {
  const file = lineageFile(release);
  let out: LineWriter | null = null;
  try {
    out = new LineWriter(file, fs);
    out.write(`${HEAD}${lineage.base ? path.basename(lineage.base) : '-'}\n`);
    // A release made from nothing only ever starts a chain (Recycler.take reads the releases after
    // the recycled one): what it wrote and removed is never asked.
    if (lineage.base) {
      for (const written of lineage.written) out.write(`+${written}\n`);
      for (const removed of lineage.removed) out.write(`-${removed}\n`);
    }
    out.close();
  } catch {
    try {
      out?.close();
    } catch {}
    fs.rmSync(file, { force: true });
  }
}

function readLineage(
  release: string,
  fs: OutputFs,
): { base: string | null; written: string[]; removed: string[] } | null {
  let text: string;
  try {
    text = fs.readFileSync(lineageFile(release), 'utf8');
  } catch {
    return null;
  }
  const [head, ...lines] = text.split('\n').filter(Boolean);
  if (!head?.startsWith(HEAD)) return null;
  const base = head.slice(HEAD.length);
  const written: string[] = [];
  const removed: string[] = [];
  for (const line of lines) {
    if (line.startsWith('+')) written.push(line.slice(1));
    else if (line.startsWith('-')) removed.push(line.slice(1));
    else return null;
  }
  return { base: base === '-' ? null : base, written, removed };
}

/** What the new release's directory starts as: empty, or a recycled release (its files stand where they are). */
export type ReleaseStart = 'empty' | 'recycled';

export class Recycler {
  private constructor(
    /** The temporary directory the recycled release now is. */
    readonly dir: string,
    /** Where it was. */
    private readonly from: string,
    /** Files whose inode may differ from the published release's. */
    private readonly stale: ReadonlySet<string>,
    /** Files the releases after the recycled one removed: the recycled one may still hold them. */
    private readonly removed: ReadonlySet<string>,
    private readonly fs: OutputFs,
    /** Settles once the recycled release's manifest and rule spool are deleted (never rejects). */
    readonly discarded: Promise<void>,
    /** The tree is the full build's spare (spare.ts), not an older release brought up to date. */
    readonly spare = false,
  ) {}

  readonly start: ReleaseStart = 'recycled';

  /**
   * Take over the spare of `previous` when it has one (and `spare` allows it: the bench's switch);
   * else the release the next prune would delete, if its lineage up to `previous` is known: rename
   * it to `temp`, and remove its manifest and the files every build writes anew.
   */
  static take(
    layout: ReleaseLayout,
    previous: string,
    keep: number,
    temp: string,
    auxFiles: readonly string[],
    spare = true,
  ): Recycler | null {
    const { fs } = layout;
    // Right after a full build: its spare, every file of which is the published one (spare.ts).
    const spared = spareDir(previous);
    if (spare && fs.existsSync(spared)) {
      fs.renameSync(spared, temp);
      for (const file of auxFiles) fs.rmSync(path.join(temp, file), { force: true });
      return new Recycler(temp, spared, new Set(), new Set(), fs, Promise.resolve(), true);
    }
    const current = path.basename(previous);
    const names = releaseNames(layout);
    const older = names.filter((n) => n < current);
    if (!names.includes(current) || older.length === 0 || older.length < keep) return null;
    const oldest = older[0]!;
    // Every release after the recycled one, up to the published one, made from its predecessor.
    const chain = names.filter((n) => n > oldest && n <= current);
    const stale = new Set<string>();
    const removed = new Set<string>();
    let base = oldest;
    for (const name of chain) {
      const lineage = readLineage(path.join(layout.root, name), fs);
      if (!lineage || lineage.base !== base) return null;
      // In release order: a file one release removed and a later one wrote again is the published
      // release's (stale here), not one to delete.
      for (const file of lineage.written) {
        stale.add(file);
        removed.delete(file);
      }
      for (const file of lineage.removed) removed.add(file);
      base = name;
    }
    const from = path.join(layout.root, oldest);
    if (!fs.existsSync(path.join(from, MANIFEST_FILE))) return null;
    fs.renameSync(from, temp);
    // Its manifest and rule spool grow with the store: set aside under names of their own and
    // deleted in the background while the build goes on (`discarded`).
    const aside = discardedFiles(temp);
    if (fs.existsSync(carryDir(from))) fs.renameSync(carryDir(from), aside.carry);
    fs.renameSync(path.join(temp, MANIFEST_FILE), aside.manifest);
    const discarded = Promise.all(
      [aside.manifest, aside.carry].map((f) => fs.promises.rm(f, { recursive: true, force: true })),
    ).then(
      () => undefined,
      () => undefined,
    );
    // They are rewritten by every build, and may be the published release's own inodes: never written into.
    for (const file of auxFiles) fs.rmSync(path.join(temp, file), { force: true });
    return new Recycler(temp, from, stale, removed, fs, discarded);
  }

  /**
   * The recycled release's word on one file of the new build, given the published manifest's line
   * for it (null: the published release does not have it, as far as the build could tell in step).
   */
  claim(file: string, published: string | null): RecycledFile {
    return published !== null && !this.stale.has(file) ? SAME : UNKNOWN;
  }

  /** No release since the recycled one rewrote a file: every file the published release has stands here. */
  get allStand(): boolean {
    return this.stale.size === 0;
  }

  /**
   * Whether every file of the requests at `requestPath` that the published release has stands
   * here as the published file (so `claim` would say `same` of each, given its published line).
   */
  stands(requestPath: string): boolean {
    if (!this.stalePaths) {
      this.stalePaths = new Set();
      for (const file of this.stale) this.stalePaths.add(requestPathOf(file) ?? file);
    }
    return !this.stalePaths.has(requestPath);
  }

  private stalePaths: Set<string> | null = null;

  /**
   * Delete what the new build does not have, and the directories that leaves empty: of the files
   * the published release has (`vanished`: those the new build passed by) or the releases since the
   * recycled one removed, every one the new build did not place (`placed`).
   */
  finish(vanished: Iterable<string>, placed: ReadonlySet<string>): number {
    let deleted = 0;
    for (const file of new Set([...vanished, ...this.removed])) {
      if (placed.has(file)) continue;
      const target = path.join(this.dir, file);
      if (!this.fs.existsSync(target)) continue;
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
    return deleted;
  }

  /** A build that publishes nothing gives the recycled directory back under its old name (it is a complete release). */
  giveBack(): void {
    this.fs.renameSync(this.dir, this.from);
  }

  /** Once the new release is published, what was taken over is gone: so is its lineage. */
  published(): void {
    this.fs.rmSync(lineageFile(this.from), { force: true });
  }
}

/** Where a recycled release's manifest and rule spool wait to be deleted (a failed build removes them too). */
export const discardedFiles = (temp: string) => ({ manifest: `${temp}-manifest`, carry: `${temp}-carry` });

/** The lines of a lineage file, for tests and tools. */
export function lineageLines(release: string, fs: OutputFs = nodeFs): string[] {
  return [...linesSync(lineageFile(release), fs)];
}
