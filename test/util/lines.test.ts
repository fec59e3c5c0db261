import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineReader, LineWriter, countLines, linesSync } from '../../src/util/lines.js';
import type { OutputFs } from '../../src/util/lines.js';

const fileWith = (text: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fds-lines-')), 'f.txt');
  fs.writeFileSync(file, text);
  return file;
};

describe('lines of a text file', () => {
  // Longer than a read chunk (64 KiB for lines, 1 MiB for counting), with a multi-byte character on a boundary.
  const long = Array.from({ length: 70_000 }, (_, i) => (i % 7 === 3 ? '' : `line ${i} ${'é'.repeat(i % 13)}`));

  it('are read back as written, across chunks and multi-byte characters', () => {
    expect([...linesSync(fileWith(`${long.join('\n')}\n`))]).toEqual(long);
  });

  it('leave out a last line without its line break when asked to (a cut-off write)', () => {
    const file = fileWith('a\nb\ncut');
    expect([...linesSync(file)]).toEqual(['a', 'b', 'cut']);
    const reader = new LineReader(file, fs, true);
    expect([reader.next(), reader.next(), reader.next()]).toEqual(['a', 'b', null]);
  });

  it('say where each starts in bytes, and give a stretch of them as bytes, and read on from where they are told', () => {
    const text = ['é1', `${'x'.repeat(200_000)}`, 'b', 'c', 'd'];
    const file = fileWith(`${text.join('\n')}\n`);
    const reader = new LineReader(file, fs, true);
    const starts: number[] = [];
    for (;;) {
      starts.push(reader.offset);
      if (reader.next() === null) break;
    }
    expect(starts).toEqual([0, 4, 200_005, 200_007, 200_009, 200_011]);
    const again = new LineReader(file, fs, true);
    expect(again.next()).toBe('é1');
    expect(again.read(4, 200_007)?.toString()).toBe(`${'x'.repeat(200_000)}\nb\n`);
    expect(again.read(200_009, 300_000)).toBeNull();
    // Reading lines goes on where it was until told to go on elsewhere.
    expect(again.offset).toBe(4);
    again.seek(200_007);
    expect([again.offset, again.next(), again.next(), again.next()]).toEqual([200_007, 'c', 'd', null]);
    again.seek(0);
    expect([again.next(), again.next()]).toEqual(['é1', 'x'.repeat(200_000)]);
    again.seek(200_007);
    expect(again.next()).toBe('c');
  });

  it('are counted without the empty ones, with or without a last line break', () => {
    const text = long.join('\n');
    const nonEmpty = long.filter(Boolean).length;
    expect(countLines(fileWith(`${text}\n`))).toBe(nonEmpty);
    expect(countLines(fileWith(`${text}\nlast`))).toBe(nonEmpty + 1);
    expect(countLines(fileWith(`${'x'.repeat(3 << 20)}\n\ny`))).toBe(2);
    expect(countLines(path.join(os.tmpdir(), 'fds-no-such-file'))).toBe(0);
  });
});

describe('a line writer in the background', () => {
  const text = Array.from({ length: 60_000 }, (_, i) => `line ${i} ${'é'.repeat(i % 11)}\n`);
  const out = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fds-writer-')), 'f.txt');

  it("puts every chunk at its place, as writing in the caller's thread does", async () => {
    const [inline, background] = [out(), out()];
    const a = new LineWriter(inline);
    const b = new LineWriter(background, fs, true);
    for (const line of text) {
      a.write(line);
      b.write(line);
    }
    a.close();
    await b.done();
    expect(fs.readFileSync(background)).toEqual(fs.readFileSync(inline));
    expect(b.bytes).toBe(fs.statSync(inline).size);
  });

  it('says when a write failed', async () => {
    const failing = {
      ...fs,
      write: ((...args: unknown[]) => {
        const cb = args[args.length - 1] as (err: Error | null, n: number) => void;
        setImmediate(() => cb(Object.assign(new Error('no space left'), { code: 'ENOSPC' }), 0));
      }) as typeof fs.write,
    } as OutputFs;
    const w = new LineWriter(out(), failing, true);
    for (const line of text) w.write(line);
    await expect(w.done()).rejects.toThrow('no space left');
  });
});
