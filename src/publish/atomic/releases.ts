/**
 * Atomic publishing. The output directory (`dist`) is a symlink to one complete release directory
 * under `.<name>.releases/`. A build fills a fresh temporary release and then replaces the symlink
 * with rename(2), which swaps it atomically: a reader sees the old tree or the new one, never a
 * mix, and a build killed at any point before the rename leaves `dist` exactly as it was.
 * (`ln -sfn` would not do: it unlinks first, leaving a window with no `dist`.)
 */
import type nodeFs from 'node:fs';
import path from 'node:path';

import {
  MANIFEST_FILE,
  RELEASE_NAME,
  RELEASE_PREFIX,
  TMP_PREFIX,
  currentRelease,
  releaseNames,
} from '../../release/layout.js';
import type { ReleaseLayout } from '../../release/layout.js';
import { carryDir, lineageFile, spareDir } from '../../release/layout.js';

export class PublishError extends Error {}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One build at a time per output: a lock file holding the builder's pid. A lock left by a killed
 * build (its pid is gone) is taken over, and only then are its temporary releases removed, so a
 * running build never has its work deleted under it.
 */
export function acquireLock(layout: ReleaseLayout): () => void {
  const { fs } = layout;
  fs.mkdirSync(layout.root, { recursive: true });
  const lock = path.join(layout.root, 'build.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && pidAlive(holder)) {
        throw new PublishError(`another build (pid ${holder}) is publishing ${layout.out}`);
      }
      fs.rmSync(lock, { force: true });
    }
  }
  throw new PublishError(`cannot lock ${layout.root}`);
}

/** Remove what killed builds left behind: temporary releases and temporary links. */
export function cleanStale(layout: ReleaseLayout): number {
  const { fs } = layout;
  let removed = 0;
  for (const name of fs.readdirSync(layout.root)) {
    if (name.startsWith(TMP_PREFIX)) {
      fs.rmSync(path.join(layout.root, name), { recursive: true, force: true });
      removed++;
    }
  }
  const dir = path.dirname(layout.out);
  const linkPrefix = `.${path.basename(layout.out)}.link-`;
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(linkPrefix)) {
      fs.rmSync(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}

/** A name for a temporary release: what a killed build leaves under it, cleanStale removes. */
export function tempReleasePath(layout: ReleaseLayout): string {
  return path.join(layout.root, `${TMP_PREFIX}${process.pid}-${Date.now().toString(36)}`);
}

export function createTempRelease(layout: ReleaseLayout): string {
  const dir = tempReleasePath(layout);
  layout.fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Release names sort in publish order: a zero-padded sequence after the newest existing one. */
function nextReleaseName(layout: ReleaseLayout): string {
  const last = releaseNames(layout).at(-1);
  const max = last ? Number(RELEASE_NAME.exec(last)![1]) : 0;
  return `${RELEASE_PREFIX}${String(max + 1).padStart(6, '0')}`;
}

/**
 * A `dist` that is a plain directory (not yet a link) is moved into the releases once. That single
 * step is not atomic; every later publish is. Anything that is not an fds build is left alone.
 */
function adoptPlainOutput(layout: ReleaseLayout): void {
  const { fs } = layout;
  let st: nodeFs.Stats;
  try {
    st = fs.lstatSync(layout.out);
  } catch {
    return;
  }
  if (st.isSymbolicLink()) return;
  if (!st.isDirectory()) throw new PublishError(`${layout.out} exists and is not a directory`);
  if (fs.readdirSync(layout.out).length === 0) {
    fs.rmdirSync(layout.out);
    return;
  }
  if (!fs.existsSync(path.join(layout.out, MANIFEST_FILE))) {
    throw new PublishError(`${layout.out} exists and is not an fds build; move it away or choose another --out`);
  }
  fs.renameSync(layout.out, path.join(layout.root, nextReleaseName(layout)));
}

/** Make `tempDir` the published release: rename it into place, then swap the link atomically. */
export function publish(layout: ReleaseLayout, tempDir: string, seal?: (release: string) => void): string {
  const { fs } = layout;
  adoptPlainOutput(layout);
  const release = path.join(layout.root, nextReleaseName(layout));
  fs.renameSync(tempDir, release);
  // Under its final name, before anyone can be sent to it.
  seal?.(release);
  const link = path.join(path.dirname(layout.out), `.${path.basename(layout.out)}.link-${process.pid}`);
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.relative(path.dirname(layout.out), release), link, 'dir');
  fs.renameSync(link, layout.out);
  return release;
}

/**
 * Keep the published release and `keep` older ones: a server may still be answering from the
 * previous release (it resolves the release once per request), and they allow a manual rollback.
 */
export function pruneReleases(layout: ReleaseLayout, keep = 2): string[] {
  const { fs } = layout;
  const current = currentRelease(layout.out);
  const currentName = current ? path.basename(current) : null;
  const releases = releaseNames(layout)
    .filter((n) => n !== currentName)
    .map((n) => path.join(layout.root, n));
  const drop = releases.slice(0, Math.max(0, releases.length - keep));
  for (const dir of drop) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(lineageFile(dir), { force: true });
    fs.rmSync(carryDir(dir), { recursive: true, force: true });
  }
  // A spare is of use only while its release is the published one (reuse/spare.ts).
  for (const dir of releases) fs.rmSync(spareDir(dir), { recursive: true, force: true });
  return drop;
}
