import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineReader, countLines, linesSync } from '../../src/util/lines.js';

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

  it('are counted without the empty ones, with or without a last line break', () => {
    const text = long.join('\n');
    const nonEmpty = long.filter(Boolean).length;
    expect(countLines(fileWith(`${text}\n`))).toBe(nonEmpty);
    expect(countLines(fileWith(`${text}\nlast`))).toBe(nonEmpty + 1);
    expect(countLines(fileWith(`${'x'.repeat(3 << 20)}\n\ny`))).toBe(2);
    expect(countLines(path.join(os.tmpdir(), 'fds-no-such-file'))).toBe(0);
  });
});
