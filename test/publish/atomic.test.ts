/**
 * Atomic publishing: a build killed with SIGKILL in the middle of writing leaves the published tree
 * exactly as it was (same release, same files, same inodes), and the next build cleans up after it
 * and publishes normally.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { BuildError } from '../../src/publish/build.js';
import { currentRelease, releaseLayout } from '../../src/release/layout.js';
import { ROOT } from '../helpers/store.js';
import type { OutputFs } from '../../src/util/lines.js';
import { buildInto, demoStore, treeState } from './helpers.js';
import type { FileState } from './helpers.js';

let db: string;
let out: string;

beforeAll(async () => {
  db = await demoStore({ leagues: ['eng.1', 'esp.1', 'ita.1', 'ger.1'], scale: 0.2 });
  ({ out } = await buildInto(db));
});

/** Files under a directory the build may be renaming or removing at this very moment (then 0). */
function countFiles(dir: string): number {
  try {
    return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((d) => d.isFile()).length;
  } catch {
    return 0;
  }
}

/** Signal a process group; false when none of it is left. */
function killGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Start `fds build --full` and SIGKILL it once its temporary release holds `atLeast` files. */
async function killMidway(atLeast: number): Promise<{ tempFiles: number; code: number | null; signal: string | null }> {
  const { root } = releaseLayout(out);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'src/cli/main.ts'),
      'build',
      '--full',
      '--workers',
      '0',
      '--db',
      db,
      '--out',
      out,
    ],
    // Its own process group: a full build runs in a second process (cli/build-heap.ts), killed with it.
    { cwd: ROOT, stdio: 'ignore', detached: true },
  );
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let tempFiles = 0;
  for (;;) {
    const temp = fs.readdirSync(root).find((n) => n.startsWith('tmp-') && !n.endsWith('-rules'));
    tempFiles = temp ? countFiles(path.join(root, temp)) : 0;
    if (tempFiles >= atLeast || child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  killGroup(child.pid!, 'SIGKILL');
  const status = await exited;
  // Until the group is gone, the build it started may still hold the lock.
  for (let i = 0; i < 500 && killGroup(child.pid!, 0); i++) await new Promise((r) => setTimeout(r, 10));
  return { tempFiles, ...status };
}

describe('a build killed mid-way', () => {
  it('leaves the published tree untouched and complete, and the next build succeeds', async () => {
    const release = currentRelease(out);
    const before = treeState(out);
    const killed = await killMidway(200);
    expect(killed.signal, 'the build finished before it could be killed').toBe('SIGKILL');
    expect(killed.tempFiles).toBeGreaterThanOrEqual(200);

    expect(currentRelease(out)).toBe(release);
    const after = treeState(out);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [file, state] of before) expect(after.get(file), file).toEqual(state);

    const { root } = releaseLayout(out);
    expect(fs.readdirSync(root).some((n) => n.startsWith('tmp-'))).toBe(true);
    const { summary } = await buildInto(db, out);
    expect(summary.failed).toBe(0);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('tmp-') || n === 'build.lock')).toEqual([]);
    expect(currentRelease(out)).toBe(release);
  });

  it('leaves one complete release behind wherever it is killed', async () => {
    // Sweep kill points from early to late; whatever point is hit, `dist` is one complete release.
    for (const atLeast of [1, 50, 400]) {
      await killMidway(atLeast);
      const now = currentRelease(out);
      expect(now).not.toBeNull();
      const manifest = fs.readFileSync(path.join(now!, 'manifest.ndjson'), 'utf8').trim().split('\n');
      for (const line of manifest) {
        const entry = JSON.parse(line) as { file: string; bytes: number };
        expect(fs.statSync(path.join(now!, entry.file)).size, entry.file).toBe(entry.bytes);
      }
    }
    const { summary } = await buildInto(db, out);
    expect(summary.failed).toBe(0);
  });
});

/** A small store with a published build of it, and that build's tree as it stands. */
async function publishedStore() {
  const store = await demoStore({ leagues: ['eng.1'] });
  const { out: dist } = await buildInto(store);
  return { store, dist, release: currentRelease(dist), before: treeState(dist) };
}

/** The published release as it was, file for file, and nothing temporary left beside it. */
function expectNothingPublished(dist: string, release: string | null, before: Map<string, FileState>): void {
  expect(currentRelease(dist)).toBe(release);
  expect(treeState(dist)).toEqual(before);
  expect(fs.readdirSync(releaseLayout(dist).root).filter((n) => n.startsWith('tmp-'))).toEqual([]);
}

describe('a build with a failing render', () => {
  it('publishes nothing, keeps the published tree, and names the failing request', async () => {
    const { store, dist, release, before } = await publishedStore();
    const conn = new Database(store);
    const id = conn.prepare('SELECT match_id FROM match_summaries ORDER BY match_id LIMIT 1').pluck().get() as string;
    // A summary that cannot be inflated: its answers fail to render.
    conn.prepare("UPDATE match_summaries SET sections = x'ff' WHERE match_id = ?").run(id);
    conn.close();
    // A full build: the edit bypasses the change log, and every response is rendered anyway.
    const err = await buildInto(store, dist, { full: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildError);
    expect((err as BuildError).failures.join('\n')).toContain(id);
    expectNothingPublished(dist, release, before);
  });
});

describe('a build whose disk fails while it writes its manifest in the background', () => {
  it('publishes nothing and keeps the published tree', async () => {
    const { store, dist, release, before } = await publishedStore();
    const manifests = new Set<number>();
    const failing = {
      ...fs,
      openSync: ((file: fs.PathLike, ...rest: unknown[]) => {
        const fd = (fs.openSync as (...a: unknown[]) => number)(file, ...rest);
        if (String(file).endsWith('manifest.ndjson')) manifests.add(fd);
        return fd;
      }) as typeof fs.openSync,
      write: ((fd: number, ...rest: unknown[]) => {
        const cb = rest[rest.length - 1] as (err: Error | null, n: number) => void;
        if (manifests.has(fd))
          setImmediate(() => cb(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }), 0));
        else (fs.write as (...a: unknown[]) => void)(fd, ...rest);
      }) as typeof fs.write,
    } as OutputFs;
    const err = await buildInto(store, dist, { full: true, fs: failing }).catch((e: unknown) => e);
    expect(String(err)).toContain('no space left on device');
    expect(manifests.size).toBeGreaterThan(0);
    expectNothingPublished(dist, release, before);
  });
});
