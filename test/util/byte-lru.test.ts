/**
 * The hot-file store's eviction: a byte budget, what was not used since eviction last passed it first out
 * (most tests hold every new item: `admitOneIn` 1), and which new items it lets in once the budget is spent.
 */
import { describe, expect, it } from 'vitest';
import { ByteLru, exactBuffer } from '../../src/util/byte-lru.js';

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('ByteLru', () => {
  it('never holds more bytes than its budget, dropping the oldest item not used since it was set', () => {
    const lru = new ByteLru(1000, 1);
    for (const k of ['a', 'b', 'c', 'd']) lru.set(k, bytes(120));
    lru.entry('a'); // a is now the most recent: b is the coldest
    for (const k of ['e', 'f', 'g', 'h', 'i']) lru.set(k, bytes(120));
    expect(lru.bytes).toBeLessThanOrEqual(1000);
    expect(lru.entry('b')?.value).toBeUndefined();
    expect(lru.entry('a')?.value?.length).toBe(120);
    expect(lru.entry('i')?.value?.length).toBe(120);
  });

  it('keeps no item above an eighth of its budget, so one large file cannot push out the rest', () => {
    const lru = new ByteLru(800, 1);
    lru.set('small', bytes(100));
    lru.set('large', bytes(101));
    expect(lru.entry('large')?.value).toBeUndefined();
    expect(lru.entry('small')?.value).toBeDefined();
    expect(lru.bytes).toBe(100);
  });

  it('gives a used item one more round, not a place for ever: unused again, it is dropped in its turn', () => {
    const lru = new ByteLru(800, 1);
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) lru.set(k, bytes(100));
    lru.entry('a');
    lru.set('i', bytes(100)); // a is passed over, unmarked, and moved behind i; b goes
    expect(lru.entry('b')?.value).toBeUndefined();
    // Seven more items push out c…i; a, not used since it was passed over, goes with the eighth.
    for (const k of ['j', 'k', 'l', 'm', 'n', 'o', 'p']) lru.set(k, bytes(100));
    expect(['c', 'i'].map((k) => lru.entry(k)?.value)).toEqual([undefined, undefined]);
    lru.set('q', bytes(100));
    expect(lru.entry('a')?.value).toBeUndefined();
    expect(lru.bytes).toBe(800);
  });

  it('counts a replaced item once', () => {
    const lru = new ByteLru(1000, 1);
    lru.set('a', bytes(100));
    lru.set('a', bytes(50, 2));
    expect(lru.bytes).toBe(50);
    expect(lru.entry('a')?.value?.[0]).toBe(2);
  });

  it('lets go of the bytes of an item kept by reference once it is dropped, replaced or cleared', () => {
    const lru = new ByteLru(800, 1);
    const first = lru.set('a', bytes(100))!;
    expect(lru.entry('a')).toBe(first);
    for (const k of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) lru.set(k, bytes(100));
    // 'a' was used once, so it had a second chance; one more round drops it.
    for (const k of ['j', 'k', 'l', 'm', 'n', 'o', 'p', 'q']) lru.set(k, bytes(100));
    expect(first.value).toBeNull();
    expect(lru.entry('a')).toBeUndefined();
    const replaced = lru.set('q', bytes(10))!;
    expect(replaced.value?.length).toBe(10);
    const kept = lru.entry('p')!;
    lru.set('p', bytes(20));
    expect(kept.value).toBeNull();
    lru.clear();
    expect(replaced.value).toBeNull();
    expect(lru.set('big', bytes(101))).toBeNull();
  });

  it('once its budget is spent, holds one new item in eight, so a round of more items than it holds still finds most of them held', () => {
    const lru = new ByteLru(100 * 100);
    const keys = Array.from({ length: 150 }, (_, i) => `k${i}`);
    let held = 0;
    for (let round = 0; round < 6; round++) {
      held = 0;
      for (const key of keys) {
        if (lru.entry(key)?.value) held++;
        else lru.set(key, bytes(100));
      }
    }
    // A hundred of the hundred and fifty fit; holding each new one would leave none there a round later.
    expect(held).toBeGreaterThanOrEqual(80);
    expect(lru.bytes).toBeLessThanOrEqual(100 * 100);
    // A costly item is held whenever it fits.
    for (let i = 0; i < 8; i++) expect(lru.set(`variant ${i}`, bytes(100), true)?.value?.length).toBe(100);
    // Below the budget, every new item is held.
    const roomy = new ByteLru(100 * 100);
    for (const key of keys.slice(0, 100)) expect(roomy.set(key, bytes(100))).not.toBeNull();
    expect(roomy.set('one more', bytes(100))).toBeNull();
  });

  it('with a budget of zero holds nothing', () => {
    const lru = new ByteLru(0);
    lru.set('a', bytes(1));
    expect(lru.size).toBe(0);
  });
});

describe('exactBuffer', () => {
  it('copies a view into a larger allocation into a buffer of its own size', () => {
    const big = Buffer.alloc(4096, 7);
    const view = big.subarray(10, 20);
    const own = exactBuffer(view);
    expect(own.equals(view)).toBe(true);
    expect(own.buffer.byteLength).toBe(10);
    const whole = Buffer.allocUnsafeSlow(8);
    expect(exactBuffer(whole)).toBe(whole);
  });
});
