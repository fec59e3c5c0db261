/** The default request-log sink: every line, in order, gathered into few writes. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccessEntry } from '../../src/server/access-log.js';
import { accessLine, bufferedLines } from '../../src/server/access-log.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('bufferedLines', () => {
  it('writes the lines of one turn of the event loop together, in order, each ending in a newline', async () => {
    const writes: string[] = [];
    const sink = bufferedLines({ write: (t: string) => writes.push(t) });
    sink.write('{"n":1}');
    sink.write('{"n":2}');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    sink.write('{"n":3}');
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('writes at once when 64 KiB are waiting, and on flush', () => {
    const writes: string[] = [];
    const sink = bufferedLines({ write: (t: string) => writes.push(t) });
    const line = 'x'.repeat(1000);
    for (let i = 0; i < 70; i++) sink.write(line);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n').filter(Boolean)).toHaveLength(66);
    sink.flush();
    expect(writes.join('').split('\n').filter(Boolean)).toHaveLength(70);
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
