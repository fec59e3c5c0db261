/** Which builds `fds build` starts again with a bounded heap (src/cli/build-heap.ts). */
import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SHORT_BUILD_V8_FLAGS,
  needsBoundedHeap,
  startsAgainAtOnce,
  tuneBuildProcess,
} from '../../src/cli/build-heap.js';
import type { BuildStart } from '../../src/cli/build-heap.js';
import { POOL_AFTER } from '../../src/publish/render/render-pool.js';

const changes = (n: number) => ({ kind: 'changes' as const, topics: new Set(['any']), matches: new Map(), changes: n });

describe('the bounded heap of fds build', () => {
  const before = process.env.FDS_BUILD_HEAP;
  afterEach(() => {
    if (before === undefined) delete process.env.FDS_BUILD_HEAP;
    else process.env.FDS_BUILD_HEAP = before;
  });

  it('is for full builds and builds of many changes, not for small incremental ones or none', () => {
    delete process.env.FDS_BUILD_HEAP;
    expect(needsBoundedHeap({ kind: 'full', reason: 'no published build' })).toBe(true);
    expect(needsBoundedHeap(changes(POOL_AFTER + 1))).toBe(true);
    expect(needsBoundedHeap(changes(POOL_AFTER))).toBe(false);
    expect(needsBoundedHeap(changes(730))).toBe(false);
    expect(needsBoundedHeap({ kind: 'none' })).toBe(false);
  });

  it('is not asked for again by the process started with it', () => {
    process.env.FDS_BUILD_HEAP = '1';
    expect(needsBoundedHeap({ kind: 'full', reason: '--full' })).toBe(false);
  });

  it('leaves V8 as it is in the bounded process, and turns the optimizing compiler off for a build in the command process', () => {
    // Spied on and stubbed: the flag would otherwise stay set for the rest of this test process.
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {});
    try {
      process.env.FDS_BUILD_HEAP = '1';
      tuneBuildProcess();
      expect(set).not.toHaveBeenCalled();
      delete process.env.FDS_BUILD_HEAP;
      tuneBuildProcess();
      expect(set).toHaveBeenCalledWith(SHORT_BUILD_V8_FLAGS);
    } finally {
      set.mockRestore();
    }
  });
});

const cli = (...args: string[]) => ['node', 'fds', ...args];
/** The command's own process, with a build published at every `--out`. */
const published: BuildStart = { bounded: false, published: () => true };

describe('a build sure to be full', () => {
  it('is started again with its heap flags at once: asked to be full, or with nothing published at its output', () => {
    expect(startsAgainAtOnce(cli('build', '--full'), published)).toBe(true);
    // The output the build is given: the last --out, else dist.
    const onlyAt = (dir: string): BuildStart => ({ bounded: false, published: (out) => out === dir });
    expect(startsAgainAtOnce(cli('build'), onlyAt('site'))).toBe(true);
    expect(startsAgainAtOnce(cli('build', '--out', 'site'), onlyAt('site'))).toBe(false);
    expect(startsAgainAtOnce(cli('build', '--out', 'site', '--out=other'), onlyAt('site'))).toBe(true);
    expect(startsAgainAtOnce(cli('build', '--out=site'), onlyAt('dist'))).toBe(true);
    expect(startsAgainAtOnce(cli('build'), onlyAt('dist'))).toBe(false);
  });

  it('is not started again for help, by another command, or by the process it started', () => {
    const nothingPublished: BuildStart = { bounded: false, published: () => false };
    expect(startsAgainAtOnce(cli('build', '--full', '--help'), nothingPublished)).toBe(false);
    expect(startsAgainAtOnce(cli('sync', '--full'), nothingPublished)).toBe(false);
    expect(startsAgainAtOnce(cli('build', '--full'), { bounded: true, published: () => false })).toBe(false);
  });
});
