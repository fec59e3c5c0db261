/** Reading a file a build wrote in plan order, in step with the next build (in-step.ts, previous.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InStep } from '../../src/publish/in-step.js';
import { PreviousManifest, requestAt } from '../../src/publish/previous.js';
import { manifestLine } from '../../src/release/manifest.js';

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
const inGroup = (g: string) => (key: string) => key.startsWith(g) && /^\d+$/.test(key.slice(g.length));

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

  it('skips from an entry a run stopped at, counting it once', () => {
    const step = new InStep(file(lines), keyOf);
    expect(step.takeRun(inGroup('a'))).toEqual([{ key: 'a1', lines: ['a1 x'], at: 0 }]);
    // The run read g1 to see it was not a's: g1 waits, and the skip starts with it.
    expect(step.skip(at(1), at(4), 3)?.toString()).toBe('g1 x\ng2 x\ng3 x\n');
    expect(step.take('b1')).toEqual(['b1 x']);
    step.drain();
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
});

describe('taking a run of entries in step', () => {
  it("takes a group's consecutive entries together, and leaves the next entry to be taken", () => {
    const step = new InStep(file(['a1 x', 'g1 x', 'g2 x', 'g2 y', 'b1 x']), keyOf);
    expect(step.take('a1')).toEqual(['a1 x']);
    expect(step.takeRun(inGroup('g'))).toEqual([
      { key: 'g1', lines: ['g1 x'], at: 5 },
      { key: 'g2', lines: ['g2 x', 'g2 y'], at: 10 },
    ]);
    expect(step.take('b1')).toEqual(['b1 x']);
    expect(step.take('c1')).toBeNull();
  });

  it('takes nothing when the next entry is not the group’s, and the entry stays to be taken', () => {
    const unclaimed: string[] = [];
    const step = new InStep(file(['a1 x', 'g1 x']), keyOf, 4096, (k) => unclaimed.push(k));
    expect(step.takeRun(inGroup('g'))).toBeNull();
    expect(step.take('a1')).toEqual(['a1 x']);
    expect(step.takeRun(inGroup('g'))).toEqual([{ key: 'g1', lines: ['g1 x'], at: 5 }]);
    step.drain();
    expect(unclaimed).toEqual([]);
  });

  it('takes nothing when reading ahead may have split the group, and its entries are still found one by one', () => {
    // A miss reads ahead a window's worth: here it stops inside group g.
    const step = new InStep(file(['a1 x', 'g1 x', 'g2 x', 'b1 x']), keyOf, 2);
    expect(step.take('missing')).toBeNull();
    expect(step.takeRun(inGroup('g'))).toBeNull();
    expect(step.take('g1')).toEqual(['g1 x']);
    expect(step.take('g2')).toEqual(['g2 x']);
    expect(step.take('b1')).toEqual(['b1 x']);
  });

  it('reports an entry a run stopped at as unclaimed when nothing takes it, and counts every entry', () => {
    const unclaimed: string[] = [];
    const step = new InStep(file(['g1 x', 'b1 x', 'c1 x']), keyOf, 4096, (k) => unclaimed.push(k));
    expect(step.takeRun(inGroup('g'))?.map((e) => e.key)).toEqual(['g1']);
    expect(step.take('c1')).toEqual(['c1 x']);
    step.drain();
    expect(unclaimed).toEqual(['b1']);
    expect(step.entries).toBe(3);
  });

  it('gives every entry exactly once, whatever mix of takes and runs reads it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'g', 'h'), fc.integer({ min: 1, max: 3 })), { maxLength: 30 }),
        fc.array(fc.oneof(fc.constantFrom('g', 'h'), fc.constantFrom('a1', 'g1', 'g2', 'h1', 'zz')), { maxLength: 30 }),
        fc.integer({ min: 1, max: 8 }),
        (entries, asks, window) => {
          // Distinct keys in file order, each group's keys consecutive (as a plan writes them).
          const keys = [...new Set(entries.map(([g, n]) => `${g}${n}`))].sort();
          const unclaimed: string[] = [];
          const step = new InStep(file(keys.map((k) => `${k} v`)), keyOf, window, (k) => unclaimed.push(k));
          const given: string[] = [];
          for (const ask of asks) {
            if (ask.length === 1) given.push(...(step.takeRun(inGroup(ask)) ?? []).map((e) => e.key));
            else if (step.take(ask)) given.push(ask);
          }
          step.drain();
          expect([...given, ...unclaimed].sort()).toEqual(keys);
          expect(step.entries).toBe(keys.length);
        },
      ),
    );
  });
});

describe("the published manifest's lines by request path", () => {
  const line = (file: string, request: string) =>
    manifestLine({
      file,
      request,
      aliases: [],
      keys: ['k'],
      status: 200,
      etag: '"e"',
      cacheControl: 'public, max-age=60',
      contentType: 'application/json; charset=utf-8',
      bytes: 2,
    }).trimEnd();

  it('knows a request at exactly a path, with or without a query, and nothing longer', () => {
    const plays = '/get/soccer/eng.1/events/9/plays';
    expect(requestAt(line('f.json', `${plays}?important=true&page=1`), 'f.json', plays)).toBe(true);
    expect(requestAt(line('f.json', plays), 'f.json', plays)).toBe(true);
    expect(requestAt(line('f.json', '/get/soccer/eng.1/events/9'), 'f.json', plays)).toBe(false);
    expect(requestAt(line('f.json', `${plays}x`), 'f.json', plays)).toBe(false);
    expect(requestAt(line('f.json', '/get/soccer/eng.1/events/9'), 'f.json', '/get/soccer/eng.1/events/99')).toBe(
      false,
    );
  });

  it("takes a match's plays files together, and stops at its summary's", () => {
    const m = path.join(dir, 'manifest.ndjson');
    const lines = [
      line('_s/e/9~plays~a.json', '/get/soccer/eng.1/events/9/plays?important=false'),
      line('_s/e/9~plays~b.json', '/get/soccer/eng.1/events/9/plays?important=true'),
      line('_s/e/10~index.json', '/get/soccer/eng.1/events/10'),
    ];
    fs.writeFileSync(m, lines.map((l) => `${l}\n`).join(''));
    const known = new PreviousManifest(m);
    expect(known.takeRequestsAt('/get/soccer/eng.1/events/10')).toBeNull();
    expect(known.takeRequestsAt('/get/soccer/eng.1/events/9/plays')).toEqual([
      ['_s/e/9~plays~a.json', lines[0]],
      ['_s/e/9~plays~b.json', lines[1]],
    ]);
    expect(known.findLine('_s/e/10~index.json')).toBe(lines[2]);
    known.drain();
    expect(known.files).toBe(3);
    known.close();
  });
});
