/**
 * The rule spool in segments: written per key, summed up in an index, linked whole, and read back
 * by the next build only as far as its files are as the index says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileDigest, SegmentKeys, SegmentWriter, parseRank } from '../../src/publish/rules/spool-segments.js';
import type { Head } from '../../src/publish/rules/rule-spool.js';
import { SpoolSegments } from '../../src/publish/rules/spool-reader.js';
import { tempDir } from '../helpers/store.js';

const head = (day: string): Head => ({
  k: 1,
  shortest: 1,
  level: 'match',
  hotq: '1',
  league: 'eng.1',
  id: day,
  day,
  live: false,
});

function writeSpool(dir: string, lines: Array<[key: string, file: string, day: string]>): SegmentWriter {
  const w = new SegmentWriter(dir);
  for (const [key, file, day] of lines) w.write(key, file, `${file}\tline-${day}\n`, head(day), 'plays', true);
  w.finish();
  return w;
}

describe('the rule spool in segments', () => {
  it('counts each segment by rank and tells a linked segment from one whose files differ', async () => {
    const root = tempDir('fds-spool-');
    const a = path.join(root, 'a');
    await writeSpool(a, [
      ['plays/eng.1/0', 'f1', '20260101'],
      ['plays/eng.1/0', 'f1', '20260101'],
      ['plays/eng.1/0', 'f2', '20260102'],
      ['plays/eng.1/1', 'f3', '20260103'],
    ]).done();
    const spool = new SpoolSegments(a);
    const s0 = spool.intact('plays/eng.1/0')!;
    expect(s0.files).toBe(2);
    expect(Object.entries(s0.ranks).map(([t, n]) => [parseRank(t).day, n])).toEqual([
      ['20260101', 2],
      ['20260102', 1],
    ]);
    const same = new FileDigest();
    for (const f of ['f1', 'f2']) same.add(f);
    const other = new FileDigest();
    for (const f of ['f1', 'f9']) other.add(f);
    expect(same.digest()).toBe(s0.digest);
    expect(other.digest()).not.toBe(s0.digest);

    // Linked into the next spool: the same inode, under the same key.
    const b = path.join(root, 'b');
    const next = new SegmentWriter(b);
    const name = next.link(a, s0);
    next.write('plays/eng.1/1', 'f3', 'f3\tline-x\n', head('20260103'), 'plays', true);
    next.finish();
    await next.done();
    expect(fs.statSync(path.join(b, name)).ino).toBe(fs.statSync(path.join(a, s0.name)).ino);
    expect(new SpoolSegments(b).intact('plays/eng.1/0')?.digest).toBe(s0.digest);
  });

  it('does not link a segment cut short, and leaves out its cut-off last line', async () => {
    const dir = tempDir('fds-spool-');
    await writeSpool(dir, [
      ['k/0', 'f1', '1'],
      ['k/0', 'f2', '2'],
    ]).done();
    const s = new SpoolSegments(dir).intact('k/0')!;
    const file = path.join(dir, s.name);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, -3));
    const cut = new SpoolSegments(dir);
    expect(cut.intact('k/0')).toBeNull();
    expect(cut.take('k/0', 'f1')).toEqual(['f1\tline-1']);
    expect(cut.take('k/0', 'f2')).toBeNull();
    // Each file's lines are taken once.
    expect(cut.take('k/0', 'f1')).toBeNull();
  });

  it('gives a key met again a segment no plan asks for, and has nothing without an index', async () => {
    const dir = tempDir('fds-spool-');
    await writeSpool(dir, [
      ['k/0', 'f1', '1'],
      ['j/0', 'f2', '2'],
      ['k/0', 'f3', '3'],
    ]).done();
    const spool = new SpoolSegments(dir);
    expect(spool.intact('k/0')?.files).toBe(1);
    expect(spool.take('k/0', 'f3')).toBeNull();
    fs.rmSync(path.join(dir, 'index.ndjson'));
    expect(new SpoolSegments(dir).intact('k/0')).toBeNull();
  });

  it('cuts a route and league into segments of so many groups, counting anew for each', () => {
    const keys = new SegmentKeys(2, 3);
    const got = [
      keys.keyOf('plays', 'eng.1', true),
      keys.keyOf('plays', 'eng.1', true),
      keys.keyOf('plays', 'eng.1', true),
      keys.keyOf('plays', 'esp.1', true),
      keys.keyOf('club', 'esp.1', false),
    ];
    expect(got).toEqual(['plays/eng.1/0', 'plays/eng.1/0', 'plays/eng.1/1', 'plays/esp.1/0', 'club/esp.1/0']);
  });
});
