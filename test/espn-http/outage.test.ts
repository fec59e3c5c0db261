import { describe, expect, it } from 'vitest';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import { outage } from '../helpers/espn-standin.js';
import { storeState, syncEspn, useStandIn } from '../helpers/espn-sync.js';
import { tempStore } from '../helpers/store.js';

describe('ESPN sync during a full outage', () => {
  const standIn = useStandIn();

  it('reports every unit failed and leaves the stored data and its freshness exactly as they were', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { leagues: [...LEAGUE_SLUGS], at: '2026-03-22T15:00:00Z' });
    const before = storeState(db);
    expect(before.lastSuccessfulSyncAt).toBe('2026-03-22T15:00:00Z');

    standIn().faults = outage;
    // --full, so even the settled match and the fresh roster are asked for (and fail).
    const report = await syncEspn(db, standIn(), {
      leagues: [...LEAGUE_SLUGS],
      at: '2026-03-22T18:00:00Z',
      provider: { full: true },
    });
    expect(report.units.ok).toBe(0);
    expect(report.written).toBe(0);
    // teams, the month's board, standings each; 4 eng.1 rosters
    expect(report.failures.length).toBe(LEAGUE_SLUGS.length * 3 + 4);
    expect(new Set(report.failures.map((f) => f.error?.replace(/ \(.*/, '')))).toEqual(
      new Set(['HTTP 500 Internal Server Error']),
    );

    expect(storeState(db)).toEqual(before);
    const boardState = db
      .prepare(
        `SELECT last_attempt_at, last_success_at, last_error FROM sync_state
         WHERE league_slug = 'eng.1' AND resource = 'scoreboard' AND resource_key = '202603'`,
      )
      .get();
    expect(boardState).toEqual({
      last_attempt_at: '2026-03-22T18:00:00Z',
      last_success_at: '2026-03-22T15:00:00Z',
      last_error: expect.stringMatching(/^HTTP 500/),
    });
  });

  it('stores nothing at all when the very first sync meets an outage', async () => {
    const { db } = tempStore();
    const empty = storeState(db);
    standIn().faults = outage;
    const report = await syncEspn(db, standIn(), { at: '2026-03-22T18:00:00Z' });
    // teams, the month's board, standings (no club is known yet, so no roster is due)
    expect(report.units).toEqual({ ok: 0, failed: 3, unavailable: 0 });
    expect(storeState(db)).toEqual(empty);
    expect(empty.lastSuccessfulSyncAt).toBeNull();
  });

  it('keeps an outage cheap: once requests keep failing after their retries, the rest are tried once', async () => {
    const { db } = tempStore();
    standIn().faults = outage;
    await syncEspn(db, standIn(), { leagues: [...LEAGUE_SLUGS], http: { retries: 3, outageThreshold: 4 } });
    // 48 units: without the outage rule each would be tried 4 times.
    expect(standIn().stats.total).toBeLessThan(48 + 4 * 4 + 4 * 4);
  });
});
