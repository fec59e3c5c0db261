/** The server's memo of resolutions: a polled target is parsed once; the memory stays bounded. */
import { describe, expect, it, vi } from 'vitest';
import { resolve } from '../../src/app/resolve.js';
import { ResolutionMemo } from '../../src/server/resolution-memo.js';

const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/api/query.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/api/query.js')>();
  return {
    ...original,
    parseQuery: (raw: string) => {
      parses.count++;
      return original.parseQuery(raw);
    },
  };
});

const PATH = '/get/soccer/eng.1/fixtures';

describe('the resolution memo', () => {
  it('resolves a target asked for again without parsing it again, to what resolve() says', () => {
    const memo = new ResolutionMemo(16);
    parses.count = 0;
    const first = memo.resolve(PATH, 'status=LIVE&page=2');
    const again = memo.resolve(PATH, 'status=LIVE&page=2');
    expect(parses.count).toBe(1);
    expect(again).toBe(first);
    expect(JSON.stringify(first.resolution)).toBe(JSON.stringify(resolve(PATH, 'status=LIVE&page=2')));
    // Invalid and unrouted targets are remembered as what they are.
    expect(memo.resolve(PATH, 'status=bogus').resolution.kind).toBe('invalid');
    expect(memo.resolve('/nowhere', '').resolution.kind).toBe('unrouted');
  });

  it('forgets the oldest targets beyond its size, and never keeps a long one', () => {
    // Every new target remembered, as when clients poll a set that fits.
    const memo = new ResolutionMemo(4, 1);
    for (let page = 1; page <= 5; page++) memo.resolve(PATH, `page=${page}`);
    parses.count = 0;
    memo.resolve(PATH, 'page=5');
    expect(parses.count).toBe(0);
    memo.resolve(PATH, 'page=1');
    expect(parses.count).toBe(1);
    const long = `page=1&x=${'y'.repeat(600)}`;
    memo.resolve(PATH, long);
    memo.resolve(PATH, long);
    expect(parses.count).toBe(3);
  });

  it('once full, remembers one new target in eight, so a round of more targets than it holds still finds most remembered', () => {
    const memo = new ResolutionMemo(100);
    let parsed = 0;
    for (let round = 0; round < 6; round++) {
      parses.count = 0;
      for (let page = 1; page <= 150; page++) memo.resolve(PATH, `page=${page}`);
      parsed = parses.count;
    }
    // A hundred of the hundred and fifty fit; remembering each new one would leave none there a round later.
    expect(parsed).toBeLessThanOrEqual(70);
  });
});
