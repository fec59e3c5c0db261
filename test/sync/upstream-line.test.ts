import { describe, expect, it } from 'vitest';
import type { ProviderNote } from '../../src/sync/provider.js';
import { upstreamLine } from '../../src/sync/upstream-line.js';

const note = (n: Partial<ProviderNote>): ProviderNote => ({
  hot: [],
  blockedUntil: null,
  nextHotAt: null,
  asked: {},
  ...n,
});

describe("a planned provider's line", () => {
  it('names the hot leagues and what was asked, by kind, with requests and bytes and the 304s', () => {
    const line = upstreamLine(
      note({
        hot: ['eng.1', 'esp.1'],
        asked: {
          'board-day': { requests: 2, bytes: 52_300, notModified: 0 },
          summary: { requests: 3, bytes: 1_520_000, notModified: 1 },
        },
      }),
    );
    expect(line).toBe(
      'espn: hot eng.1, esp.1; asked 5 (1.6 MB): board-day 2 · 52 KB, summary 3 · 1.5 MB; 1 unchanged (304)',
    );
  });

  it('says when the next league turns hot, and when nothing was asked', () => {
    expect(upstreamLine(note({ nextHotAt: '2026-12-05T14:50:00Z' }))).toBe(
      'espn: none hot (next 14:50Z); asked nothing',
    );
  });

  it('says ESPN blocks us, until when, and that what is stored is served', () => {
    expect(upstreamLine(note({ blockedUntil: '2026-12-05T15:30:00Z' }))).toBe(
      'espn: BLOCKED (HTTP 403) until 15:30Z: nothing asked, serving what is stored',
    );
    // The cycle that met the 403: what it asked, then the block.
    expect(
      upstreamLine(
        note({ blockedUntil: '2026-12-05T15:30:00Z', asked: { teams: { requests: 1, bytes: 34, notModified: 0 } } }),
      ),
    ).toBe('espn: none hot; asked 1 (0 KB): teams 1 · 0 KB; BLOCKED (HTTP 403) until 15:30Z, serving what is stored');
  });
});
