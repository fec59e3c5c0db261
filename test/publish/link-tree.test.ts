/**
 * The copy of the published release an incremental build starts from when it has no release to
 * recycle (publish/link-tree.ts): hard links made in a thread of their own while the build places
 * what changed, so whatever the build put at a path first must stay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyTree, linkTree } from '../../src/publish/link-tree.js';
import type { OutputFs } from '../../src/util/lines.js';
import { tempDir } from '../helpers/store.js';

/** A small published release: files at the top, in nested directories, and files every build writes. */
function published(): string {
  const dir = tempDir('fds-link-from-');
  const files: Record<string, string> = {
    'index.html': '<p>front door</p>',
    'manifest.ndjson': '{"file":"index.html"}\n',
    _redirects: '/* /.netlify/functions/fds 200\n',
    '_s/eng.1/scoreboard.json': '{"events":[]}',
    '_s/eng.1/summary/1.json': '{"id":"1"}',
    '_s/eng.1/summary/2.json': '{"id":"2"}',
    '_s/esp.1/deep/er/x.json': '{}',
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** Every file under `dir`, by relative path with `/`. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

const SKIP = ['manifest.ndjson', '_redirects'];

describe('linking the published release into a new one', () => {
  it('links every file but the skipped ones, the very same inodes, making directories as it goes', () => {
    const from = published();
    const to = path.join(tempDir('fds-link-to-'), 'release');
    expect(linkTree({ from, to, skip: SKIP })).toEqual([]);
    const expected = filesUnder(from).filter((f) => !SKIP.includes(f));
    expect(filesUnder(to)).toEqual(expected);
    for (const file of expected)
      expect(fs.statSync(path.join(to, file)).ino, file).toBe(fs.statSync(path.join(from, file)).ino);
  });

  it('leaves a file the build already put at its path', () => {
    const from = published();
    const to = tempDir('fds-link-to-');
    fs.mkdirSync(path.join(to, '_s/eng.1/summary'), { recursive: true });
    fs.writeFileSync(path.join(to, '_s/eng.1/summary/2.json'), '{"id":"2","changed":true}');
    linkTree({ from, to, skip: SKIP });
    expect(fs.readFileSync(path.join(to, '_s/eng.1/summary/2.json'), 'utf8')).toBe('{"id":"2","changed":true}');
    expect(fs.readFileSync(path.join(from, '_s/eng.1/summary/2.json'), 'utf8')).toBe('{"id":"2"}');
    expect(fs.statSync(path.join(to, '_s/eng.1/summary/1.json')).ino).toBe(
      fs.statSync(path.join(from, '_s/eng.1/summary/1.json')).ino,
    );
  });

  it('copies a file it cannot link, and says so: a new inode the lineage must list', () => {
    const from = published();
    const to = tempDir('fds-link-to-');
    const noLinks = {
      ...fs,
      linkSync: ((src: fs.PathLike, dst: fs.PathLike) => {
        if (String(src).endsWith('1.json'))
          throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
        fs.linkSync(src, dst);
      }) as typeof fs.linkSync,
    } as OutputFs;
    expect(linkTree({ from, to, skip: SKIP }, noLinks)).toEqual(['_s/eng.1/summary/1.json']);
    const copied = path.join(to, '_s/eng.1/summary/1.json');
    expect(fs.readFileSync(copied, 'utf8')).toBe('{"id":"1"}');
    expect(fs.statSync(copied).ino).not.toBe(fs.statSync(path.join(from, '_s/eng.1/summary/1.json')).ino);
  });

  it('makes the same copy in a worker thread as in the caller’s', async () => {
    const from = published();
    const inWorker = tempDir('fds-link-to-');
    const inThread = tempDir('fds-link-to-');
    expect(await copyTree({ from, to: inWorker, skip: SKIP })).toEqual({ copied: [], inWorker: true });
    // An injected file system keeps the copy in this thread.
    expect(await copyTree({ from, to: inThread, skip: SKIP }, { ...fs } as OutputFs)).toEqual({
      copied: [],
      inWorker: false,
    });
    expect(filesUnder(inWorker)).toEqual(filesUnder(inThread));
    expect(filesUnder(inWorker)).toHaveLength(filesUnder(from).length - SKIP.length);
  });

  it('fails with the reason when a file can be neither linked nor copied', async () => {
    const from = published();
    const to = tempDir('fds-link-to-');
    const failing = {
      ...fs,
      linkSync: (() => {
        throw Object.assign(new Error('input/output error'), { code: 'EIO' });
      }) as typeof fs.linkSync,
      copyFileSync: (() => {
        throw Object.assign(new Error('input/output error'), { code: 'EIO' });
      }) as typeof fs.copyFileSync,
    } as OutputFs;
    await expect(copyTree({ from, to, skip: SKIP }, failing)).rejects.toThrow(
      /cannot carry the published files over: input\/output error/,
    );
  });
});
