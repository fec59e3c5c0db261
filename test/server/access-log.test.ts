/** The request log: each line exactly JSON, and the default sink writing every line, in order, in few writes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessEntry } from '../../src/server/access-log.js';
import { accessLine, entryLog } from '../../src/server/access-log.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('entryLog', () => {
  /** What the sink wrote, each write as the text it holds when it is read. */
  const recorder = () => {
    const writes: Buffer[] = [];
    return { writes, sink: entryLog({ write: (b: Buffer) => writes.push(b) }), text: () => writes.map(String) };
  };
  const entry = (n: number, url = `/get/soccer/eng.1/events/${n}`): AccessEntry => ({
    time: Date.UTC(2026, 10, 25, 3, 6, 7) + n,
    method: 'GET',
    url,
    status: 200,
    bytes: 1000 + n,
    ms: n / 100,
    ip: '127.0.0.1',
    source: 'static',
  });

  it('writes the lines of one turn of the event loop together, in order, each ending in a newline', async () => {
    const { sink, text } = recorder();
    sink.record(entry(1));
    sink.record(entry(2));
    expect(text()).toEqual([]);
    await nextTurn();
    expect(text()).toEqual([`${accessLine(entry(1))}\n${accessLine(entry(2))}\n`]);
    sink.record(entry(3));
    await nextTurn();
    expect(text()).toHaveLength(2);
    expect(text()[1]).toBe(`${accessLine(entry(3))}\n`);
  });

  it('writes at once before 64 KiB would be exceeded, and the rest on flush', () => {
    const { sink, writes, text } = recorder();
    for (let i = 0; i < 70; i++) sink.record(entry(i, `/${'x'.repeat(1000)}`));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.length).toBeLessThanOrEqual(64 * 1024);
    sink.flush();
    expect(text().join('')).toBe(
      Array.from({ length: 70 }, (_, i) => `${accessLine(entry(i, `/${'x'.repeat(1000)}`))}\n`).join(''),
    );
  });

  it('never changes bytes it has handed to the stream, which may still hold them', async () => {
    const { sink, writes } = recorder();
    sink.record(entry(1));
    await nextTurn();
    const first = Buffer.from(writes[0]!);
    for (let i = 0; i < 100; i++) sink.record(entry(i));
    sink.flush();
    expect(writes[0]).toEqual(first);
  });

  it('writes a plain line in its place among the entries, and one larger than its buffer whole', () => {
    const { sink, text } = recorder();
    const big = `{"error":"${'x'.repeat(70_000)}"}`;
    sink.record(entry(1));
    sink.line('{"status":400,"error":"HPE_INVALID_METHOD"}');
    sink.record(entry(2));
    sink.line(big);
    sink.record(entry(3));
    sink.flush();
    const lines = [accessLine(entry(1)), '{"status":400,"error":"HPE_INVALID_METHOD"}', accessLine(entry(2)), big];
    expect(text().join('')).toBe(`${[...lines, accessLine(entry(3))].join('\n')}\n`);
  });

  it('writes a line larger than its buffer whole, after the lines before it', () => {
    const { sink, text } = recorder();
    const huge = entry(2, `/${'\u0001'.repeat(20_000)}`);
    sink.record(entry(1));
    sink.record(huge);
    sink.record(entry(3));
    sink.flush();
    expect(text().join('')).toBe(`${[entry(1), huge, entry(3)].map(accessLine).join('\n')}\n`);
  });

  it('writes for every entry exactly the line accessLine spells, whatever its text and numbers hold', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme', maxLength: 3000 }),
      fc.constantFrom('/a"b', 'x\\y', '\u0000', '\ud800', '\u007f', '~'),
    );
    const number = fc.oneof(
      fc.nat(),
      fc.double(),
      fc.constantFrom(-0, 2 ** 31 - 1, 2 ** 31, 0.1, 1e21, Number.NaN, Number.POSITIVE_INFINITY),
    );
    const anEntry = fc.record({
      time: fc.oneof(
        fc.integer({ min: 0, max: 253402300799999 }),
        fc.double({ min: 0, max: 253402300799999, noNaN: true }),
      ),
      method: fc.option(text, { nil: undefined }),
      url: text,
      status: fc.oneof(fc.integer({ min: 100, max: 599 }), number),
      bytes: number,
      ms: fc.oneof(
        fc.double({ min: 0, max: 1e6, noNaN: true }).map((x) => Math.round(x * 100) / 100),
        number,
      ),
      ip: text,
      source: text,
    });
    fc.assert(
      fc.property(fc.array(anEntry, { maxLength: 40 }), (entries) => {
        const { sink, writes } = recorder();
        for (const e of entries) sink.record(e);
        sink.flush();
        expect(Buffer.concat(writes).toString('utf8')).toBe(entries.map((e) => `${accessLine(e)}\n`).join(''));
      }),
      { numRuns: 500 },
    );
  });
});

describe('accessLine', () => {
  const stringified = (e: AccessEntry) => JSON.stringify({ ...e, time: new Date(e.time).toISOString() });

  it('writes exactly what JSON.stringify writes for the entry, whatever the URL, method and address hold', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('/a"b', 'x\\y', '\u0000', '\ud800'),
    );
    const entry = fc.record({
      time: fc.integer({ min: 0, max: 253402300799999 }),
      method: fc.option(text, { nil: undefined }),
      url: text,
      status: fc.integer({ min: 100, max: 599 }),
      bytes: fc.nat(),
      ms: fc.double({ min: 0, max: 1e6, noNaN: true }).map((x) => Math.round(x * 100) / 100),
      ip: text,
      source: fc.constantFrom('static', 'dynamic', 'asset', 'server'),
    });
    fc.assert(
      fc.property(entry, (e) => accessLine(e) === stringified(e)),
      { numRuns: 2000 },
    );
  });

  it('spells the time with three digits of milliseconds within one second and across seconds', () => {
    const base = Date.UTC(2026, 10, 25, 3, 6, 7);
    for (const time of [base, base + 7, base + 42, base + 999, base + 1000, base - 1]) {
      const e = { time, method: 'GET', url: '/', status: 200, bytes: 1, ms: 0.5, ip: '::1', source: 'static' };
      expect(JSON.parse(accessLine(e)).time).toBe(new Date(time).toISOString());
    }
  });
});
