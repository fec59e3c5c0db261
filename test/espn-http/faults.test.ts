import { describe, expect, it } from 'vitest';
import { fault, faultsByPath } from '../helpers/espn-standin.js';
import { storeState, syncEspn, useStandIn } from '../helpers/espn-sync.js';
import { tempStore } from '../helpers/store.js';

const SITE = '/apis/site/v2/sports/soccer/eng.1';
const PLAYS_9001 = '/v2/sports/soccer/leagues/eng.1/events/9001/competitions/9001/plays?limit=1000';
const MONTH = `${SITE}/scoreboard?dates=202603&limit=500`;
/** These tests are about the transport: --full, so the plan asks everything every time. */
const full = { provider: { full: true } };

describe('ESPN sync through a faulty upstream', () => {
  const standIn = useStandIn();

  it('stores exactly what a clean run stores when every kind of fault is injected along the way', async () => {
    const clean = tempStore().db;
    const cleanReport = await syncEspn(clean, standIn(), full);
    expect(cleanReport.failures).toEqual([]);
    const expected = storeState(clean);
    // The clean run stored something of every kind, so the comparison below means something.
    expect(clean.prepare("SELECT count(*) FROM matches WHERE league_slug = 'eng.1'").pluck().get()).toBe(4);
    expect(clean.prepare("SELECT count FROM play_streams WHERE match_id = '9001'").pluck().get()).toBe(8);
    expect(clean.prepare("SELECT count(*) FROM players WHERE club_id = '1001'").pluck().get()).toBe(3);
    expect(clean.prepare('SELECT count(*) FROM league_clubs').pluck().get()).toBe(4);
    expect(clean.prepare('SELECT count(*) FROM standings').pluck().get()).toBe(1);
    expect(clean.prepare('SELECT count(*) FROM match_summaries').pluck().get()).toBe(1);

    standIn().reset();
    const inject = {
      [MONTH]: [fault.status(500), fault.status(429, '1'), fault.status(503), fault.stall],
      [`${SITE}/summary?event=9001`]: [fault.truncate, fault.html],
      [`${SITE}/summary?event=9002`]: [fault.status(500)], // then the real answer: 404
      [`${PLAYS_9001}&page=2`]: [fault.cut, fault.status(503, new Date(Date.now() + 1000).toUTCString())],
      [`${PLAYS_9001}&page=3`]: [fault.json({ items: 'nope' })],
      [`${SITE}/teams/1001/roster`]: [fault.stallBody, fault.status(502)],
      [`${SITE}/teams`]: [fault.html, fault.status(500)],
      '/apis/v2/sports/soccer/eng.1/standings': [fault.status(504), fault.truncate, fault.status(429, '0')],
    };
    standIn().faults = faultsByPath(inject);
    const faulty = tempStore().db;
    const report = await syncEspn(faulty, standIn(), full);
    expect(report.failures).toEqual([]);
    expect(storeState(faulty)).toEqual(expected);
    for (const [p, faults] of Object.entries(inject)) {
      expect(standIn().stats.perPath.get(p), p).toBe(faults.length + 1);
    }
  });

  it(
    'fails the unit of a payload that stays invalid after the retries, ' +
      'stores nothing of it, and keeps every other unit',
    async () => {
      const { db } = tempStore();
      await syncEspn(db, standIn(), full);
      const before = storeState(db);
      standIn().reset();
      const always = <T>(f: T) => Array<T>(20).fill(f);
      standIn().faults = faultsByPath({
        '/apis/v2/sports/soccer/eng.1/standings': always(fault.html),
        [`${SITE}/summary?event=9001`]: always(fault.json({ header: { id: '9001' } })),
      });
      const report = await syncEspn(db, standIn(), { at: '2026-03-22T16:00:00Z', provider: { full: true } });

      expect(report.failures.map((f) => [f.resource, f.key, f.error])).toEqual([
        [
          'summary',
          '9001',
          expect.stringMatching(/^invalid payload: header\.competitions: .* \(gave up after 6 attempts\)$/),
        ],
        ['standings', '', 'not JSON (content-type text/html) (gave up after 6 attempts)'],
      ]);
      expect(standIn().stats.perPath.get('/apis/v2/sports/soccer/eng.1/standings')).toBe(6);
      expect(report.units.ok).toBe(4); // teams, roster 1001, the month's board, plays 9001
      // Nothing changed upstream, so the kept units rewrote nothing and the failed ones erased nothing.
      expect(storeState(db).content).toEqual(before.content);
      const state = db
        .prepare(
          "SELECT last_success_at, last_error FROM sync_state WHERE resource = 'summary' AND resource_key = '9001'",
        )
        .get();
      expect(state).toEqual({
        last_success_at: '2026-03-22T15:00:00Z',
        last_error: expect.stringMatching(/^invalid payload/),
      });
    },
  );
});
