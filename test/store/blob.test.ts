/**
 * Stored blobs inflate into one buffer of the size their spans or ends tell; the size is only a
 * hint, so a wrong one (an older row, a damaged column) still gives back exactly what was stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  packEnds,
  packJson,
  packSpans,
  spanAt,
  spansOf,
  streamOf,
  streamSize,
  summarySize,
  unpackBytes,
} from '../../src/store/blob.js';
import { arraySpans } from '../../src/util/json-spans.js';

const json = fc.jsonValue({ maxDepth: 3 });
const utf8 = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8');

describe('stored blob sizes', () => {
  it("a summary's stored spans give the exact byte length of its JSON", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), json, { minKeys: 1 }), (sections) => {
        const bytes = utf8(sections);
        expect(summarySize(spansOf(packSpans(bytes)))).toBe(bytes.length);
      }),
    );
  });

  it("a play stream's stored ends give the exact byte length of its JSON array, empty or not", () => {
    fc.assert(
      fc.property(fc.array(json), (plays) => {
        const bytes = utf8(plays);
        const ends = packEnds(arraySpans(bytes).map(([start, end]) => end - start));
        expect(streamSize(ends)).toBe(bytes.length);
      }),
    );
  });

  it('a stream made of records is the JSON array of them, each record sliced back out by its stored end', () => {
    fc.assert(
      fc.property(fc.array(json), (plays) => {
        const { bytes, ends } = streamOf(plays.map(utf8));
        expect(bytes.equals(utf8(plays))).toBe(true);
        plays.forEach((p, i) => {
          const [start, end] = spanAt(ends, i)!;
          expect(bytes.subarray(start, end).equals(utf8(p))).toBe(true);
        });
      }),
    );
  });

  it('a stream without stored ends has no size, and inflates all the same', () => {
    const bytes = utf8([{ id: '1' }]);
    expect(streamSize(null)).toBeUndefined();
    expect(unpackBytes(packJson(bytes), streamSize(null))).toEqual(bytes);
  });

  it('inflates exactly the stored bytes whatever size it is told: right, too small, too large or nonsense', () => {
    fc.assert(
      fc.property(
        fc.array(json, { maxLength: 400 }),
        fc.oneof(fc.constant('right'), fc.integer({ min: -5, max: 1 << 20 }), fc.constant(Number.NaN)),
        (value, told) => {
          const bytes = utf8(value);
          const size = told === 'right' ? bytes.length : told;
          expect(unpackBytes(packJson(bytes), size)).toEqual(bytes);
        },
      ),
      { numRuns: 200 },
    );
  });
});
