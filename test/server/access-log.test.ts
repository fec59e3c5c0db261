/** The default request-log sink: every line, in order, gathered into few writes. */
import { describe, expect, it } from 'vitest';
import { bufferedLines } from '../../src/server/access-log.js';

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
