/**
 * Stored blobs inflate into one buffer of the size their spans or ends tell; the size is only a
 * hint, so a wrong one (an older row, a damaged column) still gives back exactly what was stored.
 * Blobs are Brotli behind a tag; the raw deflate of earlier stores still reads, and play flags are packed.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BROTLI_TAG,
  packEnds,
  packJson,
  packSpans,
  spanAt,
  spansOf,
  streamOf,
  streamSize,
  summarySize,
  unpackBytes,
  unpackJson,
} from '../../src/store/blob.js';
import { flagsJsonOf, importantCount, packFlags } from '../../src/store/important.js';
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

describe('stored blob formats', () => {
  it('packs as Brotli behind its tag, and still reads the raw deflate every store before wrote', () => {
    fc.assert(
      fc.property(fc.array(json, { maxLength: 200 }), (value) => {
        const bytes = utf8(value);
        const packed = packJson(bytes);
        expect(packed[0]).toBe(BROTLI_TAG);
        expect(unpackBytes(packed, bytes.length)).toEqual(bytes);
        const deflated = zlib.deflateRawSync(bytes, { level: 6 });
        // The tag never starts raw deflate: its block type would be 3, which is reserved.
        expect(deflated[0]! & 0b110).not.toBe(0b110);
        expect(unpackBytes(deflated, bytes.length)).toEqual(bytes);
        expect(unpackJson(deflated)).toBe(bytes.toString('utf8'));
        expect(unpackJson(packed)).toBe(bytes.toString('utf8'));
      }),
      { numRuns: 200 },
    );
  });

  it('packs a real-weight summary smaller than deflate did', () => {
    const summary = utf8({
      rosters: Array.from({ length: 50 }, (_, i) => ({
        athlete: { id: String(100000 + i), displayName: `Player ${i}`, jersey: String(i) },
        stats: ['goals', 'assists', 'shots', 'saves', 'fouls'].map((name, j) => ({ name, value: (i * j) % 7 })),
      })),
    });
    expect(packJson(summary).length).toBeLessThan(zlib.deflateRawSync(summary, { level: 6 }).length);
  });
});

describe('stored play flags', () => {
  const flags = JSON.stringify(
    Array.from({ length: 1500 }, (_, i) => [`8260000071${String(i).padStart(4, '0')}`, i % 40 === 0 ? 1 : 0]),
  );

  it('are packed into a small text, and read back as the JSON they were, as is the JSON stores before held', () => {
    const packed = packFlags(flags);
    expect(packed.length).toBeLessThan(flags.length / 10);
    expect(flagsJsonOf(packed)).toBe(flags);
    expect(flagsJsonOf(flags)).toBe(flags);
    expect(importantCount(packed, '["82600000710001"]')).toBe(importantCount(flags, '["82600000710001"]'));
    expect(importantCount(packed, '["82600000710001"]')).toBe(39);
  });
});
