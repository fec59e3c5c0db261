/**
 * Where a build's output lives (the release format; docs/publishing.md): the output (`dist`) is a
 * symlink to one complete release directory under `.<name>.releases/`, swapped atomically by each
 * publish (publish/atomic/). The server, `fds check` and the build find the published release here.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { OutputFs } from '../util/lines.js';

/** What a temporary release's name starts with: what a killed build leaves under it is removed. */
export const TMP_PREFIX = 'tmp-';
export const RELEASE_PREFIX = 'r-';
/** Marks a directory as an fds release; `dist` trees without it are never moved or deleted. */
export const MANIFEST_FILE = 'manifest.ndjson';

export interface ReleaseLayout {
  out: string;
  root: string;
  fs: OutputFs;
}

export function releaseLayout(out: string, fs: OutputFs = nodeFs): ReleaseLayout {
  const abs = path.resolve(out);
  return { out: abs, root: path.join(path.dirname(abs), `.${path.basename(abs)}.releases`), fs };
}

/** Where `fds build` publishes, and the other commands look, unless told otherwise: a symlink to the release. */
export const DEFAULT_OUT = 'dist';

/** The release directory `out` points at now, or null when nothing was published there. */
export function currentRelease(out: string, fs: OutputFs = nodeFs): string | null {
  const abs = path.resolve(out);
  let st: nodeFs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) {
    try {
      return fs.realpathSync(abs);
    } catch {
      return null; // dangling link: treated as no build
    }
  }
  if (st.isDirectory() && fs.existsSync(path.join(abs, MANIFEST_FILE))) return abs;
  return null;
}

export const RELEASE_NAME = /^r-(\d+)$/;

/** Beside each release: how it was made (recycle.ts). It goes when the release goes. */
export function lineageFile(release: string): string {
  return `${release}.written`;
}

/**
 * Beside each release: a directory of the rule candidates its build spooled, in segments, with what
 * their priorities depend on (rule-spool.ts, spool-segments.ts), which the next build carries
 * untouched files' candidates over from. It goes when the release goes; without it a build plans
 * every file, as it would anyway.
 */
export function carryDir(release: string): string {
  return `${release}.carry`;
}

/**
 * Beside a release a full build published: a copy of it made of hard links (the same inodes), which
 * the next build takes over and brings up to date instead of linking every unchanged file into an
 * empty directory (publish/reuse/spare.ts). It goes when the release stops being the published one.
 */
export function spareDir(release: string): string {
  return `${release}.spare`;
}

/** The releases under the root, oldest first (names sort in publish order). */
export function releaseNames(layout: ReleaseLayout): string[] {
  return layout.fs
    .readdirSync(layout.root)
    .filter((n) => RELEASE_NAME.test(n))
    .sort();
}
