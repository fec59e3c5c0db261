import { describe, expect, it } from 'vitest';
import { daysBetween, parseInstant, parseYmd, ymd } from '../../src/util/time.js';

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

describe('ISO-8601 instants', () => {
  const at = (v: string) => parseInstant(v)?.toISOString() ?? null;

  it('reads an instant with Z or an offset, seconds and fractions optional', () => {
    expect(at('2026-03-21T15:30:00Z')).toBe('2026-03-21T15:30:00.000Z');
    expect(at('2026-03-21T15:30Z')).toBe('2026-03-21T15:30:00.000Z');
    expect(at('2026-03-21T15:30:00.25Z')).toBe('2026-03-21T15:30:00.250Z');
    expect(at('2026-03-21T15:30:00+01:30')).toBe('2026-03-21T14:00:00.000Z');
    expect(at('2026-03-21T23:30:00-05:00')).toBe('2026-03-22T04:30:00.000Z');
  });

  it('rejects a zone-less time, a bare date and impossible dates or times', () => {
    for (const v of [
      '2026-03-21T15:30:00',
      '2026-03-21',
      '2026-02-30T12:00:00Z',
      '2026-03-21T24:00:00Z',
      '2026-03-21T12:60Z',
      '2026-03-21T12:00+24:00',
      'now',
    ])
      expect([v, at(v)]).toEqual([v, null]);
  });
});
