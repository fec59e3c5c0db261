/** Which builds `fds build` starts again with a bounded heap (src/cli/build-heap.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { needsBoundedHeap } from '../../src/cli/build-heap.js';
import { POOL_AFTER } from '../../src/publish/write-release.js';

const changes = (n: number) => ({ kind: 'changes' as const, topics: new Set(['any']), changes: n });

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
});
