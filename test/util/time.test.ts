import { describe, expect, it } from 'vitest';
import { daysBetween, parseYmd, ymd } from '../../src/util/time.js';

describe('YYYYMMDD dates', () => {
  it('accepts real calendar dates and rejects impossible ones', () => {
    expect(parseYmd('20240229')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseYmd('20260230')).toBeNull();
    expect(parseYmd('2026021')).toBeNull();
    expect(parseYmd('2026-02-01')).toBeNull();
  });

  it('reads years below 100 as themselves, not as 19xx', () => {
    expect(parseYmd('00500101')?.getUTCFullYear()).toBe(50);
    expect(ymd(parseYmd('00010101')!)).toBe('00010101');
  });

  it('lists every day of a range, both ends included', () => {
    expect(daysBetween('20260227', '20260302')).toEqual(['20260227', '20260228', '20260301', '20260302']);
  });
});
