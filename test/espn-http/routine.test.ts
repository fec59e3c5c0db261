import { describe, expect, it } from 'vitest';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import path from 'node:path';
import { fault, faultsByPath } from '../helpers/espn-standin.js';
import type { FaultPlan } from '../helpers/espn-standin.js';
import { espnFixture, storeState, syncEspn, useStandIn } from '../helpers/espn-sync.js';
import { dumpContent, readJson, tempStore } from '../helpers/store.js';

const SITE = '/apis/site/v2/sports/soccer/eng.1';
const MONTH = `${SITE}/scoreboard?dates=202603&limit=500`;
const playsPath = (id: string, page: number) =>
  `/v2/sports/soccer/leagues/eng.1/events/${id}/competitions/${id}/plays?limit=1000&page=${page}`;
const SETTLE_9001 = [`${SITE}/summary?event=9001`, playsPath('9001', 1), playsPath('9001', 2), playsPath('9001', 3)];
const asked = (standIn: { stats: { perPath: Map<string, number> } }) => [...standIn.stats.perPath.keys()].sort();

// The recording: 9001 finished and 9003 postponed on 2026-03-21, 9002 a fixture that never started
// that evening, 9004 in its second half on 2026-03-22 at 15:00.
describe('ESPN sync: the request plan', () => {
  const standIn = useStandIn();

  it('never has more requests in flight than the concurrency bound, plays pages and retries included', async () => {
    standIn().delayMs = 15;
    // Every path fails once, so retries overlap with first attempts.
    const firstFails: FaultPlan = ({ attempt }) => (attempt === 1 ? fault.status(503) : undefined);
    standIn().faults = firstFails;
    const full = { provider: { full: true } };
    // One slot: a plays unit fetches its later pages side by side, which one provider call would exceed.
    await syncEspn(tempStore().db, standIn(), { concurrency: 1, ...full });
    expect(standIn().stats.maxInFlight).toBe(1);

    standIn().reset();
    await syncEspn(tempStore().db, standIn(), { concurrency: 3, leagues: [...LEAGUE_SLUGS], ...full });
    expect(standIn().stats.maxInFlight).toBe(3);
    expect(standIn().stats.total).toBeGreaterThan(90);
  });

  it('asks a month board for the window, never a range or a limit of 600 or more', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { leagues: [...LEAGUE_SLUGS] });
    const boards = asked(standIn()).filter((p) => p.includes('/scoreboard'));
    expect(boards).toHaveLength(LEAGUE_SLUGS.length);
    expect(boards).toContain(MONTH);
    for (const p of boards) expect(p).toMatch(/scoreboard\?dates=202603&limit=500$/);
    expect(db.prepare("SELECT count(*) FROM matches WHERE league_slug = 'eng.1'").pluck().get()).toBe(4);
  });

  it('asks the summary and plays of the matches that moved, the one in play, and nothing of a fixture', async () => {
    const { db } = tempStore();
    const report = await syncEspn(db, standIn());
    expect(report.failures).toEqual([]);
    const paths = asked(standIn());
    // 9001 ended (settled), 9004 is in play; 9003 is postponed (post: asked once, nothing there);
    // 9002 is a fixture whose kickoff passed long ago without it starting: not asked.
    expect(paths).toEqual(expect.arrayContaining([...SETTLE_9001, `${SITE}/summary?event=9004`, playsPath('9004', 1)]));
    expect(paths.filter((p) => p.includes('9002'))).toEqual([]);
    expect(report.upstream?.hot).toEqual(['eng.1']);
  });

  it('a minute later asks only the hot league’s day board and the summary of the match in play', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { at: '2026-03-22T14:59:00Z' });
    // The clubs the team list named: their rosters are asked in the next runs.
    await syncEspn(db, standIn(), { at: '2026-03-22T15:00:00Z' });
    standIn().reset();
    const report = await syncEspn(db, standIn(), { at: '2026-03-22T15:01:00Z' });
    // The board is unchanged, so no plays; the summary because 9004 is in play and its last is a minute old.
    expect(asked(standIn())).toEqual([`${SITE}/scoreboard?dates=20260322`, `${SITE}/summary?event=9004`]);
    expect(report.upstream?.asked).toMatchObject({ 'board-day': { requests: 1 }, summary: { requests: 1 } });
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-22T15:01:30Z' });
    expect(asked(standIn())).toEqual([`${SITE}/scoreboard?dates=20260322`]);
  });

  it('settles a finished match once, again 30 minutes later, then never without --full', async () => {
    const { db } = tempStore();
    // The day after: nothing is hot, and 9001 ended within the last 12 hours of the first sync? No: a
    // day and a half ago, so the first settle is final at once.
    await syncEspn(db, standIn(), { at: '2026-03-21T15:00:00Z' });
    expect(asked(standIn())).toEqual(expect.arrayContaining(SETTLE_9001));
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-21T15:20:00Z' });
    expect(SETTLE_9001.filter((p) => standIn().stats.perPath.has(p))).toEqual([]);
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-21T15:31:00Z' });
    expect(asked(standIn())).toEqual(
      expect.arrayContaining([...SETTLE_9001, '/apis/v2/sports/soccer/eng.1/standings']),
    );
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-21T18:00:00Z' });
    expect(SETTLE_9001.filter((p) => standIn().stats.perPath.has(p))).toEqual([]);
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-21T18:01:00Z', provider: { full: true } });
    expect(asked(standIn())).toEqual(expect.arrayContaining(SETTLE_9001));
  });

  it('reads a 404 as "not available": asked once, nothing stored, not a failure', async () => {
    const { db } = tempStore();
    const report = await syncEspn(db, standIn(), { provider: { full: true } });
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

  it('asks rosters a few per run: the never-asked first, then each a day after its last', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { at: '2026-03-22T15:00:00Z' });
    // The first run learns the clubs from the team list; their rosters start with the next.
    const rosters = () => asked(standIn()).filter((p) => p.includes('/roster'));
    expect(rosters()).toEqual([]);
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-22T15:05:00Z' });
    expect(rosters()).toHaveLength(4);
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-22T18:00:00Z' });
    expect(rosters()).toEqual([]);
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-23T15:06:00Z' });
    expect(rosters()).toHaveLength(4);
  });

  it('asks nothing at all right after a sync when no league is hot, and keeps the store as it was', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { at: '2026-03-24T12:00:00Z', leagues: [...LEAGUE_SLUGS] });
    // … and the rosters of the clubs that one learned.
    await syncEspn(db, standIn(), { at: '2026-03-24T12:01:00Z', leagues: [...LEAGUE_SLUGS] });
    const before = dumpContent(db);
    standIn().reset();
    const report = await syncEspn(db, standIn(), { at: '2026-03-24T12:05:00Z', leagues: [...LEAGUE_SLUGS] });
    expect(standIn().stats.total).toBe(0);
    expect(report.written).toBe(0);
    expect(report.upstream?.hot).toEqual([]);
    expect(dumpContent(db)).toEqual(before);
    // An hour later: one month board per league, no summary.
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-24T13:05:00Z', leagues: [...LEAGUE_SLUGS] });
    const paths = asked(standIn());
    expect(paths.filter((p) => p.includes('/scoreboard'))).toHaveLength(LEAGUE_SLUGS.length);
    expect(paths.filter((p) => p.includes('/summary'))).toEqual([]);
    expect(storeState(db).content).toEqual(before);
  });

  it('asks a fixture that left the window unfinished by its id, to catch a reschedule, about once a day', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { at: '2026-03-22T15:00:00Z' });
    // A week on the window starts after 9002's kickoff, and 9002 never started.
    const week = { from: '20260326', to: '20260405' };
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-29T12:00:00Z', provider: week });
    expect(asked(standIn())).toContain(`${SITE}/summary?event=9002`);
    standIn().reset();
    await syncEspn(db, standIn(), { at: '2026-03-29T18:00:00Z', provider: week });
    expect(asked(standIn())).not.toContain(`${SITE}/summary?event=9002`);
    // The next day it falls due again, its turn shared with the rosters due then: once in the day.
    standIn().reset();
    for (const at of ['2026-03-30T12:01:00Z', '2026-03-30T20:00:00Z', '2026-03-31T06:00:00Z'])
      await syncEspn(db, standIn(), { at, provider: week });
    expect(standIn().stats.perPath.get(`${SITE}/summary?event=9002`)).toBe(1);
  });

  it('moves a fixture to the date its summary gives when a reschedule check finds it moved', async () => {
    const { db } = tempStore();
    await syncEspn(db, standIn(), { at: '2026-03-22T15:00:00Z' });
    // ESPN's answer for 9002: rescheduled to 2 April (9001's recorded summary, made 9002's).
    const summary = readJson<any>(path.join(espnFixture(), 'eng.1/summary/9001.json'));
    const comp = summary.header.competitions[0];
    summary.header.id = '9002';
    comp.id = '9002';
    comp.date = '2026-04-02T18:45Z';
    comp.status = {
      ...comp.status,
      clock: 0,
      displayClock: "0'",
      period: 0,
      type: { ...comp.status.type, id: '1', name: 'STATUS_SCHEDULED', state: 'pre', completed: false },
    };
    standIn().faults = faultsByPath({ 'summary?event=9002': [fault.json(summary)] });
    await syncEspn(db, standIn(), { at: '2026-03-29T12:00:00Z', provider: { from: '20260326', to: '20260405' } });
    expect(db.prepare("SELECT kickoff, state FROM matches WHERE id = '9002'").get()).toEqual({
      kickoff: '2026-04-02T18:45:00Z',
      state: 'pre',
    });
  });
});
