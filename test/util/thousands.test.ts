import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { thousands } from '../../src/util/thousands.js';

describe('thousands', () => {
  it('writes any safe integer as toLocaleString en-US does', () => {
    fc.assert(
      fc.property(
        fc.maxSafeInteger().map((v) => (v % 2 ? v : Math.trunc(v / 1e9))),
        (v) => {
          expect(thousands(v)).toBe(v.toLocaleString('en-US'));
        },
      ),
    );
  });

  it('groups by three from the right, and leaves short numbers alone', () => {
    expect([0, 7, 999, 1000, 113691, 1234567, -4500].map(thousands)).toEqual([
      '0',
      '7',
      '999',
      '1,000',
      '113,691',
      '1,234,567',
      '-4,500',
    ]);
  });

  it('writes fractions and -0 as ICU does', () => {
    expect([1234.5, -0].map(thousands)).toEqual(['1,234.5', '-0']);
  });
});
