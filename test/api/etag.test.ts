/** The strong ETag: XXH128 of the exact body bytes, whatever buffer holds them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { etagOf } from '../../src/api/etag.js';

/** XXH128 (seed 0) as its reference implementation gives it, big-endian hex. */
const REFERENCE: Array<[string, string]> = [
  ['', '99aa06d3014798d86001c324468d497f'],
  ['abc', '06b05ab6733a618578af5f94892f3950'],
];

describe('etagOf', () => {
  it.each(REFERENCE)('is the quoted base64url XXH128 of the bytes (%j)', (text, hex) => {
    expect(etagOf(Buffer.from(text))).toBe(`"${Buffer.from(hex, 'hex').toString('base64url')}"`);
  });

  it('hashes only the bytes of a view into a larger buffer', () => {
    const whole = Buffer.from('[{"id":"1"},{"id":"2"}]');
    const view = whole.subarray(1, 11);
    expect(etagOf(view)).toBe(etagOf(Buffer.from('{"id":"1"}')));
  });

  it('gives equal bodies one ETag whatever was hashed between them, and differing bodies two', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.uint8Array({ maxLength: 70_000 }), (a, b) => {
        const first = etagOf(a);
        const other = etagOf(b);
        expect(etagOf(Uint8Array.from(a))).toBe(first);
        expect(other === first).toBe(Buffer.from(a).equals(Buffer.from(b)));
      }),
    );
  });

  it('changes when one byte of a large body changes', () => {
    const body = Buffer.alloc(600_000, 'x');
    const before = etagOf(body);
    body[599_999] = 'y'.charCodeAt(0);
    expect(etagOf(body)).not.toBe(before);
  });
});
