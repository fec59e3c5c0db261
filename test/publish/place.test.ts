/**
 * The file system a render worker places files through (place.ts `inThread`): the callback calls
 * done in the worker's own thread, answered as node:fs answers them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inThread } from '../../src/publish/place/place.js';
import { removeTempDirs, tempDir } from '../helpers/store.js';

afterEach(removeTempDirs);

type Done = (err: NodeJS.ErrnoException | null) => void;

/** Call `op` with a callback; say whether the callback had run when `op` returned, and what it got. */
async function called(op: (done: Done) => void) {
  let early = false;
  let returned = false;
  const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    op((e) => {
      early = !returned;
      resolve(e);
    });
    returned = true;
  });
  return { err, early };
}

describe('placing files in the calling thread', () => {
  it('has written the file when writeFile returns, and calls back only afterwards', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.json');
    const sync = inThread(fs);
    let existed = false;
    const { err, early } = await called((done) => {
      sync.writeFile(file, Buffer.from('{"a":1}'), { flag: 'wx' }, done);
      existed = fs.existsSync(file);
    });
    expect({ err, early, existed }).toEqual({ err: null, early: false, existed: true });
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}');
  });

  it('links and renames as node:fs does', async () => {
    const dir = tempDir();
    const a = path.join(dir, 'a');
    fs.writeFileSync(a, 'x');
    const sync = inThread(fs);
    expect((await called((done) => sync.link(a, path.join(dir, 'b'), done))).err).toBeNull();
    expect((await called((done) => sync.rename(path.join(dir, 'b'), path.join(dir, 'c'), done))).err).toBeNull();
    expect(fs.statSync(path.join(dir, 'c')).ino).toBe(fs.statSync(a).ino);
    expect(fs.existsSync(path.join(dir, 'b'))).toBe(false);
  });

  it('hands a failure to the callback with its code instead of throwing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.json');
    fs.writeFileSync(file, 'old');
    const sync = inThread(fs);
    const exists = await called((done) => sync.writeFile(file, Buffer.from('new'), { flag: 'wx' }, done));
    const missing = await called((done) => sync.link(path.join(dir, 'none'), path.join(dir, 'b'), done));
    expect([exists.err?.code, exists.early, missing.err?.code]).toEqual(['EEXIST', false, 'ENOENT']);
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
  });

  it('leaves every other call to the file system it wraps', async () => {
    const dir = tempDir();
    const sync = inThread(fs);
    await sync.promises.mkdir(path.join(dir, 'x/y'), { recursive: true });
    expect(sync.existsSync(path.join(dir, 'x/y'))).toBe(true);
  });
});
