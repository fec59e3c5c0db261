/** Reading a file a build wrote in plan order, in step with the next build (in-step.ts, previous.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InStep } from '../../src/publish/reuse/in-step.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fds-in-step-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A file of `key value` lines; consecutive lines with one key are one entry. */
function file(lines: string[]): string {
  const f = path.join(dir, `f-${Math.random().toString(36).slice(2)}.txt`);
  fs.writeFileSync(f, lines.map((l) => `${l}\n`).join(''));
  return f;
}
const keyOf = (line: string) => line.split(' ')[0]!;
/** Keys `g1`, `g2`, … are group g's. */

describe('skipping entries unread', () => {
  const lines = ['a1 x', 'g1 x', 'g2 x', 'g3 x', 'b1 x', 'c1 x'];
  // Where each line starts: every line here is five bytes long.
  const at = (i: number) => i * 5;

  it('gives the bytes of the next entries as they are, counts them, and reading goes on after them', () => {
    const unclaimed: string[] = [];
    const step = new InStep(file(lines), keyOf, 4096, (k) => unclaimed.push(k));
    expect(step.take('a1')).toEqual(['a1 x']);
    expect(step.skip(at(1), at(4), 3)?.toString()).toBe('g1 x\ng2 x\ng3 x\n');
    expect(step.take('b1')).toEqual(['b1 x']);
    step.drain();
    expect(unclaimed).toEqual(['c1']);
    expect(step.entries).toBe(6);
  });

  it('takes nothing when the bytes are not the next entries, nor when the file ends first', () => {
    const step = new InStep(file(lines), keyOf);
    expect(step.skip(at(1), at(4), 3)).toBeNull();
    expect(step.skip(at(0), at(99), 99)).toBeNull();
    // Bytes that are not as many whole lines as said.
    expect(step.skip(at(0), at(2), 3)).toBeNull();
    expect(step.skip(at(0), at(2) - 1, 2)).toBeNull();
    expect(step.take('a1')).toEqual(['a1 x']);
    expect(step.take('g1')).toEqual(['g1 x']);
  });

  it('leaves what was read ahead before them pending, to be found or reported', () => {
    const unclaimed: string[] = [];
    const step = new InStep(file(lines), keyOf, 4096, (k) => unclaimed.push(k));
    // a1 is read ahead to find g1, and is never taken.
    expect(step.take('g1')).toEqual(['g1 x']);
    expect(step.skip(at(2), at(4), 2)?.toString()).toBe('g2 x\ng3 x\n');
    expect(step.take('b1')).toEqual(['b1 x']);
    step.drain();
    expect(unclaimed.sort()).toEqual(['a1', 'c1']);
  });

  it('takes them from what was read ahead when a lookup of a key the file lacks read past them', () => {
    const unclaimed: string[] = [];
    const step = new InStep(file(lines), keyOf, 4096, (k) => unclaimed.push(k));
    expect(step.take('a1')).toEqual(['a1 x']);
    // A file new to this build: the lookup reads the rest of the file ahead and finds nothing.
    expect(step.take('new')).toBeNull();
    expect(step.skip(at(1), at(4), 3)?.toString()).toBe('g1 x\ng2 x\ng3 x\n');
    // Taken, so no longer pending; the rest still is.
    expect(step.take('g2')).toBeNull();
    expect(step.take('b1')).toEqual(['b1 x']);
    step.drain();
    expect(unclaimed).toEqual(['c1']);
    expect(step.entries).toBe(6);
  });

  it('takes nothing from what was read ahead when one of the range was taken already', () => {
    const step = new InStep(file(lines), keyOf);
    expect(step.take('g2')).toEqual(['g2 x']);
    expect(step.skip(at(1), at(4), 3)).toBeNull();
    expect(step.take('g1')).toEqual(['g1 x']);
    expect(step.take('g3')).toEqual(['g3 x']);
  });
});

describe('reading in step', () => {
  const keys = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it('keeps what it read ahead when files new to this build come one after another (a day step adds many)', () => {
    const known = keys(3000);
    const step = new InStep(file(known.map((k) => `${k} x`)), keyOf, 100);
    const missed: string[] = [];
    for (const [i, k] of known.entries()) {
      if (i % 20 === 0) expect(step.take(`new${i}`)).toBeNull();
      if (step.take(k) === null) missed.push(k);
    }
    expect(missed).toEqual([]);
  });

  it('catches up after a stretch of vanished entries longer than its window', () => {
    const known = keys(1000);
    const unclaimed: string[] = [];
    const step = new InStep(file(known.map((k) => `${k} x`)), keyOf, 100, (k) => unclaimed.push(k));
    const asked = [...known.slice(0, 100), ...known.slice(600)];
    const found = asked.filter((k) => step.take(k) !== null);
    // The first hundred in step, then a few misses to learn the stretch is gone, then in step again.
    expect(found.slice(0, 100)).toEqual(known.slice(0, 100));
    expect(found).toEqual(expect.arrayContaining(known.slice(800)));
    step.drain();
    expect(unclaimed).toEqual(expect.arrayContaining(known.slice(100, 600)));
  });
});
