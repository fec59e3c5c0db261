import { LEAGUE_REF_KEYS } from './general.js';
/** docs/json-api.md scoreboard and fixtures. */
import { expect } from 'vitest';
import type { ContractCase } from './types.js';

const EVENT_KEYS = ['id', 'uid', 'date', 'name', 'shortName', 'season', 'status', 'venue', 'competitions'];
const COMPETITION_KEYS = [
  'id',
  'uid',
  'date',
  'startDate',
  'status',
  'attendance',
  'venue',
  'competitors',
  'details',
  'broadcasts',
  'odds',
  'notes',
  'format',
  'playByPlayAvailable',
  'wasSuspended',
];
const COMPETITOR_KEYS = ['id', 'uid', 'type', 'homeAway', 'score', 'winner', 'form', 'team', 'statistics'];
const FIXTURES_KEYS = ['league', 'count', 'pageIndex', 'pageSize', 'pageCount', 'filters', 'events'];

const ids = (b: any) => b.events.map((e: { id: string }) => e.id);

export const MATCH_LIST_CASES: ContractCase[] = [
  {
    name: 'the date-less scoreboard is today (UTC) by the clock, events by kickoff',
    url: '/get/soccer/eng.1/scoreboard',
    status: 200,
    cache: 'public, max-age=30',
    check: (b) => {
      expect(Object.keys(b)).toEqual(['leagues', 'events']);
      expect(b.leagues).toHaveLength(1);
      // A LeagueRef: identity only, so a sync elsewhere in the league does not change this day's bytes.
      expect(Object.keys(b.leagues[0])).toEqual(LEAGUE_REF_KEYS);
      expect(b.leagues[0].slug).toBe('eng.1');
      // 9001 kicks off 12:30, 9003 15:00, 9002 17:30.
      expect(ids(b)).toEqual(['9001', '9003', '9002']);
      const e = b.events[0];
      expect(Object.keys(e)).toEqual(EVENT_KEYS);
      expect(e.venue).toEqual({ displayName: 'Harbour Ground' });
      expect(Object.keys(e.competitions[0])).toEqual(COMPETITION_KEYS);
      expect(e.competitions[0].competitors.map((c: { homeAway: string }) => c.homeAway)).toEqual(['home', 'away']);
      expect(Object.keys(e.competitions[0].competitors[0])).toEqual(COMPETITOR_KEYS);
      expect(e.competitions[0].competitors.map((c: { score: string }) => c.score)).toEqual(['2', '1']);
      expect(e.status.type).toMatchObject({ state: 'post', completed: true });
    },
  },
  {
    name: 'a scheduled match has no score yet',
    url: '/get/soccer/eng.1/scoreboard?dates=20260321',
    status: 200,
    check: (b) => {
      const pre = b.events.find((e: { id: string }) => e.id === '9002');
      expect(pre.competitions[0].competitors.map((c: { score: unknown }) => c.score)).toEqual([null, null]);
    },
  },
  {
    name: 'a day with a live match is cached for 4 seconds',
    url: '/get/soccer/eng.1/scoreboard?dates=20260322',
    status: 200,
    cache: 'public, max-age=4',
    check: (b) => expect(ids(b)).toEqual(['9004']),
  },
  {
    name: 'a day without matches is an empty list',
    url: '/get/soccer/eng.1/scoreboard?dates=20200101',
    status: 200,
    check: (b) => expect(b.events).toEqual([]),
  },
  {
    name: 'an empty dates is today',
    url: '/get/soccer/eng.1/scoreboard?dates=',
    status: 200,
    check: (b) => expect(ids(b)).toEqual(['9001', '9003', '9002']),
  },
  ...['20260230', '2026032', '202603210', 'abcdefgh', '2026-03-21', '00000000'].map(
    (d): ContractCase => ({
      name: 'dates must be a real YYYYMMDD day',
      url: `/get/soccer/eng.1/scoreboard?dates=${d}`,
      status: 400,
      error: 'dates must be a valid YYYYMMDD date',
    }),
  ),
  {
    name: 'scoreboard of an unknown league is 404',
    url: '/get/soccer/xxx.9/scoreboard',
    status: 404,
    error: 'League not found',
  },
  {
    name: 'fixtures page every match by kickoff, with an echo of the filters',
    url: '/get/soccer/esp.1/fixtures',
    status: 200,
    cache: 'public, max-age=4',
    check: (b) => {
      expect(Object.keys(b)).toEqual(FIXTURES_KEYS);
      expect(b).toMatchObject({
        count: 4,
        pageIndex: 1,
        pageSize: 100,
        pageCount: 1,
        filters: { from: null, to: null, status: 'all' },
      });
      expect(ids(b)).toEqual(['9101', '9102', '9104', '9103']);
      expect(b.league.slug).toBe('esp.1');
    },
  },
  {
    name: 'status=scheduled is state pre',
    url: '/get/soccer/esp.1/fixtures?status=scheduled',
    status: 200,
    cache: 'public, max-age=30',
    check: (b) => expect(ids(b)).toEqual(['9103']),
  },
  {
    name: 'status=live is state in',
    url: '/get/soccer/esp.1/fixtures?status=Live',
    status: 200,
    cache: 'public, max-age=4',
    check: (b) => expect(ids(b)).toEqual(['9102']),
  },
  {
    name: 'status=finished is state post',
    url: '/get/soccer/esp.1/fixtures?status=FINISHED',
    status: 200,
    check: (b) => expect([ids(b), b.filters.status]).toEqual([['9101'], 'finished']),
  },
  {
    name: 'a match of unknown state appears only under all',
    url: '/get/soccer/esp.1/fixtures?from=20260401&to=20260401',
    status: 200,
    check: (b) => {
      expect(ids(b)).toEqual(['9104', '9103']);
      expect(b.events[0].status.type.state).toBe('unknown');
      expect(b.filters).toEqual({ from: '20260401', to: '20260401', status: 'all' });
    },
  },
  {
    name: 'from and to are inclusive',
    url: '/get/soccer/eng.1/fixtures?from=20260321&to=20260322',
    status: 200,
    check: (b) => expect(b.count).toBe(4),
  },
  {
    name: 'from alone is an open range',
    url: '/get/soccer/eng.1/fixtures?from=20260322',
    status: 200,
    check: (b) => expect(ids(b)).toEqual(['9004']),
  },
  {
    name: 'to alone is an open range',
    url: '/get/soccer/eng.1/fixtures?to=20260321',
    status: 200,
    check: (b) => expect(b.count).toBe(3),
  },
  {
    name: 'limit and page slice the list; pageCount = ceil(count / pageSize)',
    url: '/get/soccer/eng.1/fixtures?limit=3&page=2',
    status: 200,
    cache: 'public, max-age=4',
    check: (b) => expect([b.count, b.pageIndex, b.pageSize, b.pageCount, ids(b)]).toEqual([4, 2, 3, 2, ['9004']]),
  },
  {
    name: 'the page sets the cache class: a page without the live match is 30 s',
    url: '/get/soccer/eng.1/fixtures?limit=3&page=1',
    status: 200,
    cache: 'public, max-age=30',
  },
  {
    name: 'leading zeros are digits',
    url: '/get/soccer/eng.1/fixtures?limit=003&page=002',
    status: 200,
    check: (b) => expect([b.pageIndex, b.pageSize]).toEqual([2, 3]),
  },
  {
    name: 'a page past the end is an empty list',
    url: '/get/soccer/eng.1/fixtures?page=7',
    status: 200,
    check: (b) => expect([b.pageIndex, b.count, b.events]).toEqual([7, 4, []]),
  },
  {
    name: 'limit above 200 and page above 10000 are clamped and shown clamped',
    url: '/get/soccer/eng.1/fixtures?limit=5000&page=99999999999999999999',
    status: 200,
    check: (b) => expect([b.pageIndex, b.pageSize, b.pageCount, b.events]).toEqual([10000, 200, 1, []]),
  },
  {
    name: 'no match in range is count 0, pageCount 0',
    url: '/get/soccer/ger.1/fixtures',
    status: 200,
    check: (b) => expect([b.count, b.pageCount, b.events]).toEqual([0, 0, []]),
  },
  ...['0', '-1', '1.5', '1e3', 'abc', ' 1', '0x10'].map(
    (v): ContractCase => ({
      name: 'page must be a positive integer',
      url: `/get/soccer/eng.1/fixtures?page=${encodeURIComponent(v)}`,
      status: 400,
      error: 'page must be a positive integer',
    }),
  ),
  ...['0', '-5', '2.0'].map(
    (v): ContractCase => ({
      name: 'limit must be a positive integer',
      url: `/get/soccer/eng.1/fixtures?limit=${v}`,
      status: 400,
      error: 'limit must be a positive integer',
    }),
  ),
  {
    name: 'from must be a real date',
    url: '/get/soccer/eng.1/fixtures?from=20261301',
    status: 400,
    error: 'from must be a valid YYYYMMDD date',
  },
  {
    name: 'to must be a real date',
    url: '/get/soccer/eng.1/fixtures?to=20260229',
    status: 400,
    error: 'to must be a valid YYYYMMDD date',
  },
  {
    name: 'from after to is 400',
    url: '/get/soccer/eng.1/fixtures?from=20260322&to=20260321',
    status: 400,
    error: 'from must be before or equal to to',
  },
  {
    name: 'an unknown status is 400',
    url: '/get/soccer/eng.1/fixtures?status=postponed',
    status: 400,
    error: 'status must be all, scheduled, live, or finished',
  },
  {
    name: 'fixtures of an unknown league is 404',
    url: '/get/soccer/xxx.9/fixtures',
    status: 404,
    error: 'League not found',
  },
];
