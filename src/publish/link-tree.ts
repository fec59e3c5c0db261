/**
 * A new release as a copy of the published one, made of hard links (recycle.ts, `Recycler.copy`):
 * an incremental build with no older release to recycle starts from it, and only replaces what
 * changed. Linking every file is work that grows with the store (29,297 links at demo scale 1), so
 * it runs in a thread of its own while the build plans and renders; the build replaces files by
 * rename(2), so whichever of the two comes first, the build's file is the one that stays.
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { OutputFs } from '../util/lines.js';
import { moduleWorker } from '../util/worker.js';

export interface TreeCopy {
  from: string;
  to: string;
  /** Paths (relative, with `/`) not carried over: files every build writes anew. */
  skip: readonly string[];
}

/**
 * Link every file of `from` into `to` (directories made as needed), except `skip`. A file already
 * at its path is left: the build put it there. Where a link fails (a file system without hard links)
 * the file is copied. Returns the copied files: new inodes, which the release's lineage must list.
 */
export function linkTree({ from, to, skip }: TreeCopy, fs: OutputFs = nodeFs): string[] {
  const skipped = new Set(skip);
  const copied: string[] = [];
  const walk = (rel: string) => {
    const src = rel ? path.join(from, rel) : from;
    const dst = rel ? path.join(to, rel) : to;
    fs.mkdirSync(dst, { recursive: true });
    for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else if (!skipped.has(name) && !carry(path.join(src, entry.name), path.join(dst, entry.name), fs)) {
        copied.push(name);
      }
    }
  };
  walk('');
  return copied;
}

/** True when linked (or already there), false when copied. */
function carry(src: string, dst: string, fs: OutputFs): boolean {
  try {
    fs.linkSync(src, dst);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return true;
  }
  try {
    fs.copyFileSync(src, dst, nodeFs.constants.COPYFILE_EXCL);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return true;
    throw err;
  }
}

/** The copy made: the files copied rather than linked, and whether a worker thread made it. */
export interface TreeCopied {
  copied: string[];
  inWorker: boolean;
}

/**
 * Make the copy in a worker thread; settles once every file is there. With an injected file system
 * (tests), or a worker that cannot start or dies, the copy is made (or finished) in this thread.
 */
export function copyTree(copy: TreeCopy, fs: OutputFs = nodeFs): Promise<TreeCopied> {
  if (fs !== nodeFs) return linkHere(copy, fs);
  return new Promise((resolve, reject) => {
    let answered = false;
    const fallBack = () => {
      if (!answered) linkHere(copy, fs).then(resolve, reject);
      answered = true;
    };
    let worker: ReturnType<typeof moduleWorker>;
    try {
      worker = moduleWorker(import.meta.url, 'link-tree-worker', { workerData: copy });
    } catch {
      fallBack();
      return;
    }
    worker.once('message', (m: { copied?: string[]; error?: string }) => {
      answered = true;
      if (m.copied) resolve({ copied: m.copied, inWorker: true });
      else reject(new Error(`cannot carry the published files over: ${m.error}`));
    });
    worker.once('error', (err) => {
      if (process.env.FDS_DEBUG) console.error('link worker failed:', err);
      fallBack();
    });
    worker.once('exit', fallBack);
  });
}

function linkHere(copy: TreeCopy, fs: OutputFs): Promise<TreeCopied> {
  try {
    return Promise.resolve({ copied: linkTree(copy, fs), inWorker: false });
  } catch (err) {
    return Promise.reject(new Error(`cannot carry the published files over: ${(err as Error).message}`));
  }
}
