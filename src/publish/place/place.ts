/**
 * Putting one rendered file into the new release. A file whose bytes equal the previous release's
 * is hard-linked from it, so it keeps its inode and mtime (nothing is rewritten); anything else is
 * written new. Files are created exclusively: two requests mapping to one file fail the build.
 *
 * In a recycled release (recycle.ts) files already stand at their paths: a file is left alone when
 * it already is what the new build wants, and replaced by rename(2) otherwise — never written into,
 * since its inode may be another release's too. Collisions are caught by full builds there.
 */
import nodeFs from 'node:fs';
import type { OutputFs } from '../../util/lines.js';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { ManifestEntry } from '../../release/manifest.js';
import type { RecycledFile, ReleaseStart } from '../reuse/recycle.js';

export type Placed = 'added' | 'changed' | 'unchanged';

export class FilePlacer {
  /** Directories known to exist; enumeration visits them in runs, so a few recent ones suffice. */
  private readonly dirs = new Map<string, Promise<void>>();
  private temps = 0;
  /** Files this placer carried over by copying, where a hard link failed: new inodes. */
  readonly copied: string[] = [];

  constructor(
    private readonly release: string,
    /** The published release to reuse files from (null: none, or a full rebuild). */
    private readonly previous: string | null,
    private readonly reuse: boolean,
    private readonly fs: OutputFs = nodeFs,
    /** What the release starts as (recycle.ts): a recycled one has files standing where they are until replaced. */
    start: ReleaseStart = 'empty',
  ) {
    this.recycled = start !== 'empty';
  }

  private readonly recycled: boolean;

  /** A name beside `target` for what replaces it, unique to this thread. */
  private tempFor(target: string): string {
    return `${target}.~${process.pid}-${threadId}-${this.temps++}`;
  }

  // fs's callback API, not its promises: a FileHandle and its promises cost more per file, and the
  // callback calls can be made in the calling thread (`inThread`).

  /** A new file with these bytes (never an existing one). */
  private writeFile(file: string, body: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.fs.writeFile(file, body, { flag: 'wx' }, settle(resolve, reject)));
  }

  private linkFile(existing: string, to: string): Promise<void> {
    return new Promise((resolve, reject) => this.fs.link(existing, to, settle(resolve, reject)));
  }

  private rename(from: string, to: string): Promise<void> {
    return new Promise((resolve, reject) => this.fs.rename(from, to, settle(resolve, reject)));
  }

  /** Put `fill`'s result in place of whatever stands at `target`, by rename. */
  private async replace(target: string, fill: (temp: string) => Promise<void>): Promise<void> {
    const temp = this.tempFor(target);
    try {
      await fill(temp);
      await this.rename(temp, target);
    } catch (err) {
      await this.fs.promises.rm(temp, { force: true });
      throw err;
    }
  }

  private ensureDir(dir: string): Promise<void> {
    // The plan visits directories in runs: remembering the recent ones avoids almost every mkdir, and
    // remembering the promise keeps files placed at once in one new directory from each making it.
    let made = this.dirs.get(dir);
    if (!made) {
      made = this.fs.promises.mkdir(dir, { recursive: true }).then(() => undefined);
      if (this.dirs.size >= 256) this.dirs.delete(this.dirs.keys().next().value!);
      this.dirs.set(dir, made);
    }
    return made;
  }

  /**
   * `known` is the previous manifest's word on this file (previous.ts): equal ETag and size link it
   * without reading it, a different one means changed; without it the file is compared on disk.
   * Asynchronous: creating files is slow on some file systems, and many in flight hide it.
   */
  async place(
    file: string,
    body: Buffer,
    etag: string,
    known: Pick<ManifestEntry, 'etag' | 'bytes'> | null,
    recycled: RecycledFile | null = null,
  ): Promise<Placed> {
    const target = under(this.release, file);
    // A file the recycled release is known to have stands in a directory that exists.
    if (!recycled?.same) await this.ensureDir(parentOf(target));
    let existed = false;
    if (this.previous && known) {
      existed = true;
      if (this.reuse && known.etag === etag && known.bytes === body.length && (await this.link(file, target, recycled)))
        return 'unchanged';
    } else if (this.previous) {
      const old = path.join(this.previous, file);
      const st = await this.fs.promises.stat(old).catch(() => undefined);
      existed = !!st?.isFile();
      if (
        this.reuse &&
        st?.isFile() &&
        st.size === body.length &&
        (await this.fs.promises.readFile(old)).equals(body) &&
        (await this.link(file, target, recycled))
      ) {
        return 'unchanged';
      }
    }
    if (this.recycled) {
      await this.replace(target, (temp) => this.writeFile(temp, body));
    } else {
      try {
        await this.writeFile(target, body);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw collision(file);
        throw err;
      }
    }
    return existed ? 'changed' : 'added';
  }

  private async link(file: string, target: string, recycled: RecycledFile | null = null): Promise<boolean> {
    if (this.standsAsIs(recycled)) return true;
    if (this.recycled) {
      await this.ensureDir(path.dirname(target));
      try {
        await this.replace(target, (temp) => this.linkFile(path.join(this.previous!, file), temp));
        return true;
      } catch {
        return false;
      }
    }
    try {
      await this.linkFile(path.join(this.previous!, file), target);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw collision(file);
      // A filesystem without hard links (or a previous file gone meanwhile) still gets a correct
      // tree, written anew.
      return false;
    }
  }

  /** The release starts as the published one's files (recycled), where they stand. */
  get inPlace(): boolean {
    return this.recycled && this.previous !== null;
  }

  /** The recycled release's file already is the published one: carrying it over takes nothing. */
  standsAsIs(recycled: RecycledFile | null): boolean {
    return this.inPlace && recycled?.same === true;
  }

  /**
   * Carry a file the build did not need to render over from the previous release: a hard link, or
   * a copy where links fail. False when the previous release does not have it (render it then).
   */
  async carry(file: string, recycled: RecycledFile | null = null): Promise<boolean> {
    if (!this.previous) return false;
    const target = path.join(this.release, file);
    const old = path.join(this.previous, file);
    if (!recycled?.same) await this.ensureDir(path.dirname(target));
    if (await this.link(file, target, recycled)) return true;
    try {
      if (this.recycled) await this.replace(target, (temp) => this.fs.promises.copyFile(old, temp));
      else await this.fs.promises.copyFile(old, target, nodeFs.constants.COPYFILE_EXCL);
      this.copied.push(file);
      return true;
    } catch {
      return false;
    }
  }

  /** Replace a freshly written file with the previous release's when they are byte-identical. */
  linkIfSame(file: string): boolean {
    if (!this.previous || !this.reuse) return false;
    const fresh = path.join(this.release, file);
    const old = path.join(this.previous, file);
    try {
      if (!sameBytes(old, fresh, this.fs)) return false;
      this.fs.rmSync(fresh);
      this.fs.linkSync(old, fresh);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * A file of a release (as the plan names it: relative, `/`-separated, without `.` or `..` parts)
 * under a root: joined as text, as path.join's normalizing is a measurable share of a render
 * worker's time in a full build (docs/performance.md).
 */
const under = (root: string, file: string): string => `${root}/${file}`;

/** The directory of a path `under` made. */
const parentOf = (file: string): string => file.slice(0, file.lastIndexOf('/'));

/** Chunked comparison: the manifest of a large build is too big to hold twice. */
export function sameBytes(a: string, b: string, fs: OutputFs = nodeFs): boolean {
  if (fs.statSync(a).size !== fs.statSync(b).size) return false;
  const fa = fs.openSync(a, 'r');
  const fb = fs.openSync(b, 'r');
  try {
    const ba = Buffer.alloc(1 << 16);
    const bb = Buffer.alloc(1 << 16);
    for (;;) {
      const na = fs.readSync(fa, ba, 0, ba.length, null);
      const nb = fs.readSync(fb, bb, 0, bb.length, null);
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
      if (na === 0) return true;
    }
  } finally {
    fs.closeSync(fa);
    fs.closeSync(fb);
  }
}

/**
 * `fs` with the callback calls a placer makes (writeFile, link, rename) done in the calling thread,
 * their callbacks run on the next tick. For the build's thread and each render worker's: handed to
 * libuv's pool, each file costs three hand-overs between threads (open, write, close), and with two
 * cores shared by the build's thread, the workers and the pool, those switches cost more than the writes.
 */
export function inThread(fs: OutputFs): OutputFs {
  type Done = (err: NodeJS.ErrnoException | null) => void;
  const call = (op: () => void, done: Done) => {
    let error: NodeJS.ErrnoException | null = null;
    try {
      op();
    } catch (err) {
      error = err as NodeJS.ErrnoException;
    }
    process.nextTick(done, error);
  };
  const sync = {
    writeFile: (file: string, body: Buffer, opts: nodeFs.WriteFileOptions, done: Done) =>
      call(() => fs.writeFileSync(file, body, opts), done),
    link: (existing: string, to: string, done: Done) => call(() => fs.linkSync(existing, to), done),
    rename: (from: string, to: string, done: Done) => call(() => fs.renameSync(from, to), done),
  };
  return Object.assign(Object.create(fs) as OutputFs, sync);
}

/** An fs callback that settles a promise. */
const settle =
  (resolve: () => void, reject: (err: Error) => void) =>
  (err: NodeJS.ErrnoException | null): void =>
    err ? reject(err) : resolve();

function collision(file: string): Error {
  return new Error(`two pre-rendered requests map to the same file ${file}`);
}
