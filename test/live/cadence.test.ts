import { describe, expect, it } from 'vitest';
import { nextCycleIn } from '../../src/live/cadence.js';
import type { ProviderNote } from '../../src/sync/provider.js';

const NOW = Date.parse('2026-12-05T12:00:00Z');
const report = (upstream?: Partial<ProviderNote>): ProviderNote | undefined =>
  upstream && { hot: [], blockedUntil: null, nextHotAt: null, asked: {}, ...upstream };

describe("fds live's cadence with ESPN", () => {
  it('cycles at the live cadence while a league is hot', () => {
    expect(nextCycleIn(report({ hot: ['eng.1'] }), 10_000, 300_000, NOW)).toBe(10_000);
  });

  it('waits the idle cadence when nothing is hot, waking at the next hot start if it comes sooner', () => {
    expect(nextCycleIn(report({}), 10_000, 300_000, NOW)).toBe(300_000);
    const in2min = new Date(NOW + 120_000).toISOString();
    expect(nextCycleIn(report({ nextHotAt: in2min }), 10_000, 300_000, NOW)).toBe(120_000);
    const passed = new Date(NOW - 5_000).toISOString();
    expect(nextCycleIn(report({ nextHotAt: passed }), 10_000, 300_000, NOW)).toBe(10_000);
  });

  it('keeps the live cadence for a provider without a plan', () => {
    expect(nextCycleIn(report(), 15_000, 300_000, NOW)).toBe(15_000);
  });
});
