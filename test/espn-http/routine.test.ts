import { describe, expect, it } from 'vitest';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import { fault } from '../helpers/espn-standin.js';
import type { FaultPlan } from '../helpers/espn-standin.js';
import { syncEspn, useStandIn } from '../helpers/espn-sync.js';
import { dumpContent, tempStore } from '../helpers/store.js';

const SITE = '/apis/site/v2/sports/soccer/eng.1';
const playsPath = (id: string, page: number) =>
  `/v2/sports/soccer/leagues/eng.1/events/${id}/competitions/${id}/plays?limit=1000&page=${page}`;
const SETTLED_9001 = [`${SITE}/summary?event=9001`, playsPath('9001', 1), playsPath('9001', 2), playsPath('9001', 3)];

describe('ESPN sync: request budget', () => {
  const standIn = useStandIn();

  it('never has more requests in flight than the concurrency bound, plays pages and retries included', async () => {
    standIn().delayMs = 15;
    // Every path fails once, so retries overlap with first attempts.
    const firstFails: FaultPlan = ({ attempt }) => (attempt === 1 ? fault.status(503) : undefined);
    standIn().faults = firstFails;
    // One slot: a plays unit fetches its later pages side by side, which one provider call would exceed.
    await syncEspn(tempStore().db, standIn(), { concurrency: 1 });
    expect(standIn().stats.maxInFlight).toBe(1);

    standIn().reset();
    await syncEspn(tempStore().db, standIn(), { concurrency: 3, leagues: [...LEAGUE_SLUGS] });
    expect(standIn().stats.maxInFlight).toBe(3);
    expect(standIn().stats.total).toBeGreaterThan(100);
  });

  it('reads a 404 as "not available": asked once, nothing stored, not a failure', async () => {
    const { db } = tempStore();
    const report = await syncEspn(db, standIn());
    expect(report.failures).toEqual([]);
    // Rosters 1002–1004, summaries and plays of 9002–9004: the recording does not have them.
    expect(report.units.unavailable).toBe(9);
    expect(standIn().stats.perPath.get(`${SITE}/summary?event=9002`)).toBe(1);
    expect(standIn().stats.perPath.get(`${SITE}/teams/1003/roster`)).toBe(1);
    expect(db.prepare("SELECT count(*) FROM match_summaries WHERE match_id = '9002'").pluck().get()).toBe(0);
    expect(
      db.prepare("SELECT count(*) FROM sync_state WHERE last_error IS NOT NULL OR resource_key = '9002'").pluck().get(),
    ).toBe(0);
  });

  it('skips settled matches and fresh rosters on a routine sync, and --full fetches them again', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { at: '2026-03-22T15:00:00Z' });
    const first = [...standIn().stats.perPath.keys()];
    expect(first).toEqual(expect.arrayContaining([...SETTLED_9001, `${SITE}/teams/1001/roster`]));
    const before = dumpContent(db);

    standIn().reset();
    const again = await syncEspn(db, standIn(), { at: '2026-03-22T16:00:00Z' });
    expect(again.written).toBe(0);
    expect(dumpContent(db)).toEqual(before);
    // The finished match with a stored summary and complete play stream, and the roster stored an hour ago.
    const skipped = [...SETTLED_9001, `${SITE}/teams/1001/roster`];
    expect([...standIn().stats.perPath.keys()].sort()).toEqual(first.filter((p) => !skipped.includes(p)).sort());
    expect(standIn().stats.total).toBe(first.length - skipped.length);

    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-22T16:30:00Z', provider: { full: true } });
    expect([...standIn().stats.perPath.keys()].sort()).toEqual([...first].sort());

    // A day later the roster is due again; the settled match never is.
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-23T17:00:00Z' });
    expect(standIn().stats.perPath.has(`${SITE}/teams/1001/roster`)).toBe(true);
    expect(SETTLED_9001.filter((p) => standIn().stats.perPath.has(p))).toEqual([]);
  });
});
