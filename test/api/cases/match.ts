import { LEAGUE_REF_KEYS } from './general.js';
/** docs/json-api.md match summary and plays. */
import { expect } from 'vitest';
import { SUMMARY_FIELDS } from '../../../src/api/fields.js';
import type { ContractCase, ContractFlow } from './types.js';
import { json } from './types.js';

const FIELDS_ERROR =
  'fields must be a comma-separated list of: header, boxscore, keyEvents, rosters, gameInfo, commentary, ' +
  'broadcasts, odds, leaders, news, videos, format, meta';
const PLAY_KEYS = [
  'id',
  'sequence',
  'type',
  'text',
  'homeScore',
  'awayScore',
  'period',
  'clock',
  'addedClock',
  'scoringPlay',
  'scoreValue',
  'redCard',
  'yellowCard',
  'penaltyKick',
  'ownGoal',
  'shootout',
  'substitution',
  'team',
  'athletesInvolved',
  'participants',
  'wallclock',
];
const PLAYS_KEYS = ['count', 'pageIndex', 'pageSize', 'pageCount', 'dataSource', 'importantOnly', 'items'];

const playIds = (b: any) => b.items.map((p: { id: string }) => p.id);

export const MATCH_CASES: ContractCase[] = [
  {
    name: 'a summary has every section in the canonical order; stored sections pass through',
    url: '/get/soccer/eng.1/events/9001',
    status: 200,
    cache: 'public, max-age=30',
    check: (b) => {
      expect(Object.keys(b)).toEqual([...SUMMARY_FIELDS]);
      expect(b.header.id).toBe('9001');
      // The header carries the league's LeagueRef: no coverage or lastSyncedAt, which change with every sync.
      expect(b.header.league).toMatchObject({ slug: 'eng.1', season: { year: 2025 } });
      expect(Object.keys(b.header.league)).toEqual(LEAGUE_REF_KEYS);
      expect(b.keyEvents.map((e: { id: string }) => e.id)).toEqual(['70001', '70004']);
      expect(b.news).toEqual({ header: 'News', articles: [] });
      expect(b.leaders).toEqual([]);
      expect(b.gameInfo.venue.fullName).toBe('Harbour Ground');
      expect(b.meta).toMatchObject({ dataSource: 'database', provider: 'files' });
      expect(b.meta.dataAvailability).toEqual({
        timeline: { available: true, storedIn: 'plays' },
        matchGoals: { available: true, storedIn: ['plays', 'match_summaries.keyEvents'] },
        statisticsAndSummary: { available: true, storedIn: 'match_summaries' },
        leagueTopScorers: { available: false, reason: expect.any(String) },
      });
    },
  },
  {
    name: 'a match without a stored summary: header from the match, unstored sections [] or null, availability says so',
    url: '/get/soccer/eng.1/events/9002',
    status: 200,
    check: (b) => {
      expect(Object.keys(b)).toEqual([...SUMMARY_FIELDS]);
      expect(Object.keys(b.header)).toEqual(['id', 'uid', 'season', 'league', 'competitions']);
      expect(b.header.competitions[0].competitors).toHaveLength(2);
      expect([b.boxscore, b.gameInfo, b.format]).toEqual([null, null, null]);
      for (const k of ['keyEvents', 'rosters', 'commentary', 'broadcasts', 'odds', 'leaders', 'news', 'videos'])
        expect(b[k], k).toEqual([]);
      expect(b.meta.dataAvailability.timeline.available).toBe(false);
      expect(b.meta.dataAvailability.matchGoals.available).toBe(false);
    },
  },
  {
    name: 'goals can be known from key events alone',
    url: '/get/soccer/esp.1/events/9101?fields=meta,header',
    status: 200,
    check: (b) => {
      expect(b.meta.dataAvailability.timeline.available).toBe(false);
      expect(b.meta.dataAvailability.matchGoals.available).toBe(true);
      // A stored header without a league gets the league record after its season.
      expect(Object.keys(b.header)).toEqual(['id', 'uid', 'season', 'league', 'competitions']);
    },
  },
  {
    name: 'the summary of a live match is cached for 4 seconds',
    url: '/get/soccer/eng.1/summary?event=9004',
    status: 200,
    cache: 'public, max-age=4',
  },
  {
    name: 'fields selects sections, trimmed and de-duplicated, in the canonical order',
    url: '/get/soccer/eng.1/events/9001?fields=%20meta%20,keyEvents,header,meta',
    status: 200,
    check: (b) => expect(Object.keys(b)).toEqual(['header', 'keyEvents', 'meta']),
  },
  {
    name: '/summary accepts fields too',
    url: '/get/soccer/eng.1/summary?event=9001&fields=format',
    status: 200,
    check: (b) => expect(b).toEqual({ format: { regulation: { periods: 2, clock: 2700 } } }),
  },
  {
    name: 'an empty fields is every section',
    url: '/get/soccer/eng.1/events/9001?fields=',
    status: 200,
    check: (b) => expect(Object.keys(b)).toHaveLength(13),
  },
  {
    name: 'an unknown section name is 400 with the list',
    url: '/get/soccer/eng.1/events/9001?fields=header,lineups',
    status: 400,
    error: FIELDS_ERROR,
  },
  {
    name: 'section names are case-sensitive',
    url: '/get/soccer/eng.1/summary?event=9001&fields=HEADER',
    status: 400,
    error: FIELDS_ERROR,
  },
  {
    name: 'fields is checked before the league exists',
    url: '/get/soccer/xxx.9/events/9001?fields=x',
    status: 400,
    error: FIELDS_ERROR,
  },
  {
    name: '/summary without event is 400',
    url: '/get/soccer/eng.1/summary',
    status: 400,
    error: 'Invalid or missing event ID',
  },
  {
    name: '/summary with an empty event is 400',
    url: '/get/soccer/eng.1/summary?event=',
    status: 400,
    error: 'Invalid or missing event ID',
  },
  {
    name: '/summary with a malformed event is 400',
    url: '/get/soccer/eng.1/summary?event=a.b',
    status: 400,
    error: 'Invalid or missing event ID',
  },
  {
    name: '/summary takes the last of repeated events',
    url: '/get/soccer/eng.1/summary?event=a.b&event=9001',
    status: 200,
    check: (b) => expect(b.header.id).toBe('9001'),
  },
  {
    name: 'an unknown match is 404',
    url: '/get/soccer/eng.1/summary?event=424242',
    status: 404,
    error: 'Match not found',
  },
  {
    name: 'a match of another league is 404 in this one',
    url: '/get/soccer/esp.1/events/9001',
    status: 404,
    error: 'Match not found',
  },
  {
    name: 'plays come in match order with the default page',
    url: '/get/soccer/eng.1/events/9001/plays',
    status: 200,
    cache: 'public, max-age=30',
    check: (b) => {
      expect(Object.keys(b)).toEqual(PLAYS_KEYS);
      expect(b).toMatchObject({
        count: 8,
        pageIndex: 1,
        pageSize: 100,
        pageCount: 1,
        dataSource: 'database',
        importantOnly: false,
      });
      expect(b.items.map((p: { sequence: number }) => p.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(Object.keys(b.items[0])).toEqual(PLAY_KEYS);
      const sub = b.items.find((p: { substitution: boolean }) => p.substitution);
      expect(sub.participants.map((p: { type: string; athlete: { id: string } }) => [p.type, p.athlete.id])).toEqual([
        ['subbed-in', '5002'],
        ['subbed-out', '5001'],
      ]);
      expect(JSON.stringify(b)).not.toMatch(/\$ref|https?:\/\/sports\.core/);
    },
  },
  {
    name: 'important=true keeps goals, cards, substitutions, own goals and key events',
    url: '/get/soccer/eng.1/events/9001/plays?important=true',
    status: 200,
    check: (b) => {
      // 70004 (offside) is a key event of the match; the kickoff and the foul are not important.
      expect(playIds(b)).toEqual(['70001', '70003', '70004', '70005', '70006', '70007']);
      expect([b.count, b.importantOnly]).toEqual([6, true]);
    },
  },
  {
    name: 'plays page by limit',
    url: '/get/soccer/eng.1/events/9001/plays?limit=3&page=3',
    status: 200,
    check: (b) => expect([b.count, b.pageCount, playIds(b)]).toEqual([8, 3, ['70006', '70007']]),
  },
  {
    name: 'important plays page by limit',
    url: '/get/soccer/eng.1/events/9001/plays?important=true&limit=4&page=2',
    status: 200,
    check: (b) => expect([b.pageCount, playIds(b)]).toEqual([2, ['70006', '70007']]),
  },
  {
    name: 'limit above 300 is clamped to 300',
    url: '/get/soccer/eng.1/events/9001/plays?limit=301',
    status: 200,
    check: (b) => expect(b.pageSize).toBe(300),
  },
  {
    name: 'a plays page past the end is empty',
    url: '/get/soccer/eng.1/events/9001/plays?page=10001',
    status: 200,
    check: (b) => expect([b.pageIndex, b.items]).toEqual([10000, []]),
  },
  {
    name: 'a match without plays has an empty stream',
    url: '/get/soccer/eng.1/events/9004/plays',
    status: 200,
    cache: 'public, max-age=4',
    check: (b) => expect([b.count, b.pageCount, b.items]).toEqual([0, 0, []]),
  },
  ...['TRUE', '1', 'yes'].map(
    (v): ContractCase => ({
      name: 'important must be exactly true or false',
      url: `/get/soccer/eng.1/events/9001/plays?important=${v}`,
      status: 400,
      error: 'important must be true or false',
    }),
  ),
  {
    name: 'plays of an unknown match are 404',
    url: '/get/soccer/eng.1/events/424242/plays',
    status: 404,
    error: 'Match not found',
  },
  {
    name: 'plays with a bad page are 400',
    url: '/get/soccer/eng.1/events/9001/plays?page=-1',
    status: 400,
    error: 'page must be a positive integer',
  },
];

export const MATCH_FLOWS: ContractFlow[] = [
  {
    name: '/summary?event=ID and /events/ID answer the identical body and ETag',
    run: async (target) => {
      for (const [league, id] of [
        ['eng.1', '9001'],
        ['eng.1', '9004'],
        ['esp.1', '9101'],
      ]) {
        const a = await target.request('GET', `/get/soccer/${league}/summary?event=${id}`);
        const b = await target.request('GET', `/get/soccer/${league}/events/${id}`);
        expect(a.status).toBe(200);
        expect(a.body.equals(b.body)).toBe(true);
        expect(a.headers.etag).toBe(b.headers.etag);
        expect(a.headers['cache-control']).toBe(b.headers['cache-control']);
      }
    },
  },
  {
    name: 'the important plays are a subset of all plays, in the same order',
    run: async (target) => {
      const all = json(await target.request('GET', '/get/soccer/eng.1/events/9001/plays?limit=300')) as {
        items: Array<{ id: string }>;
      };
      const imp = json(await target.request('GET', '/get/soccer/eng.1/events/9001/plays?limit=300&important=true')) as {
        items: Array<{ id: string }>;
      };
      const order = all.items.map((p) => p.id);
      // A proper, non-empty subset: otherwise the order check below proves nothing.
      expect(imp.items.length).toBeGreaterThan(0);
      expect(imp.items.length).toBeLessThan(all.items.length);
      const positions = imp.items.map((p) => order.indexOf(p.id));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    },
  },
];
