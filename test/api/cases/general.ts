/** docs/json-api.md: methods, routing, errors, validation order, query-string rules, caching, CORS. */
import { expect } from 'vitest';
import type { ContractCase, ContractFlow } from './types.js';
import { json } from './types.js';

const EXPOSED = ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

export const GENERAL_CASES: ContractCase[] = [
  // Methods
  {
    name: 'HEAD answers the status and headers of GET with no body',
    method: 'HEAD',
    url: '/get/soccer/leagues',
    status: 200,
    cache: 'public, max-age=60',
  },
  { name: 'HEAD of an error keeps the error status', method: 'HEAD', url: '/get/soccer/xxx.9/clubs', status: 404 },
  {
    name: 'OPTIONS is a 204 CORS preflight',
    method: 'OPTIONS',
    url: '/get/soccer/eng.1/fixtures',
    status: 204,
    check: (_b, res) => {
      expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toBeDefined();
    },
  },
  ...['POST', 'PUT', 'DELETE', 'PATCH'].map(
    (method): ContractCase => ({
      name: 'any other method is 405 with Allow',
      method,
      url: '/get/soccer/leagues',
      status: 405,
      check: (_b, res) => expect(res.headers.allow).toBe('GET, HEAD, OPTIONS'),
    }),
  ),
  // Routing
  ...[
    '/nope',
    '/get/soccer',
    '/get/soccer/eng.1',
    '/get/soccer/eng.1/unknown',
    '/get/soccer/eng.1/events',
    '/GET/SOCCER/LEAGUES',
    '/get/soccer/leagues/extra',
    '/get//soccer/leagues',
  ].map(
    (url): ContractCase => ({
      name: 'an unknown path is 404 Route not found',
      url,
      status: 404,
      error: 'Route not found',
    }),
  ),
  { name: 'one trailing slash is the same route', url: '/get/soccer/leagues/', status: 200 },
  // Identifiers
  ...['EN%20G', '.eng', '-x', 'a'.repeat(65), 'eng%2F1', '%zz', 'e%C3%A9'].map(
    (slug): ContractCase => ({
      name: 'a malformed league slug is 400',
      url: `/get/soccer/${slug}/scoreboard`,
      status: 400,
      error: 'Invalid league slug',
    }),
  ),
  { name: 'an empty slug segment is 400', url: '/get/soccer//clubs', status: 400, error: 'Invalid league slug' },
  {
    name: 'the slug is lower-cased before use',
    url: '/get/soccer/ENG.1/clubs',
    status: 200,
    check: (b) => expect(b.league.slug).toBe('eng.1'),
  },
  { name: 'a valid but unknown league is 404', url: '/get/soccer/xxx.9/clubs', status: 404, error: 'League not found' },
  ...['a.b', 'x%20y', 'a'.repeat(129), '%zz'].map(
    (id): ContractCase => ({
      name: 'a malformed event id is 400',
      url: `/get/soccer/eng.1/events/${id}`,
      status: 400,
      error: 'Invalid or missing event ID',
    }),
  ),
  {
    name: 'a 128-character event id is well-formed (and unknown)',
    url: `/get/soccer/eng.1/events/${'a'.repeat(128)}`,
    status: 404,
    error: 'Match not found',
  },
  { name: 'a malformed club id is 400', url: '/get/soccer/eng.1/clubs/a.b', status: 400, error: 'Invalid club ID' },
  // Validation order: path identifiers → query values → league → resource
  {
    name: 'a bad slug wins over a bad club id',
    url: '/get/soccer/EN%20G/clubs/a.b',
    status: 400,
    error: 'Invalid league slug',
  },
  {
    name: 'a bad club id is reported before an unknown league',
    url: '/get/soccer/xxx.9/clubs/a.b',
    status: 400,
    error: 'Invalid club ID',
  },
  {
    name: 'a bad event id is reported before a bad page',
    url: '/get/soccer/xxx.9/events/a.b/plays?page=0',
    status: 400,
    error: 'Invalid or missing event ID',
  },
  {
    name: 'page is checked before limit',
    url: '/get/soccer/xxx.9/events/1/plays?page=0&limit=0',
    status: 400,
    error: 'page must be a positive integer',
  },
  {
    name: 'limit is checked before important',
    url: '/get/soccer/xxx.9/events/1/plays?limit=x&important=x',
    status: 400,
    error: 'limit must be a positive integer',
  },
  {
    name: 'query values are checked before the league exists',
    url: '/get/soccer/xxx.9/events/1/plays?important=yes',
    status: 400,
    error: 'important must be true or false',
  },
  {
    name: 'an unknown league is reported before an unknown match',
    url: '/get/soccer/xxx.9/events/9001',
    status: 404,
    error: 'League not found',
  },
  {
    name: 'standings check the season before the league',
    url: '/get/soccer/xxx.9/standings?season=abc',
    status: 400,
    error: 'season must be a four-digit year',
  },
  {
    name: 'fixtures check from > to before the league',
    url: '/get/soccer/xxx.9/fixtures?from=20260101&to=20250101',
    status: 400,
    error: 'from must be before or equal to to',
  },
  {
    name: 'fixtures check from before to',
    url: '/get/soccer/eng.1/fixtures?from=2026&to=x',
    status: 400,
    error: 'from must be a valid YYYYMMDD date',
  },
  {
    name: 'fixtures check from > to before status',
    url: '/get/soccer/eng.1/fixtures?from=20260102&to=20260101&status=x',
    status: 400,
    error: 'from must be before or equal to to',
  },
  {
    name: 'fixtures check status before page',
    url: '/get/soccer/eng.1/fixtures?status=x&page=0',
    status: 400,
    error: 'status must be all, scheduled, live, or finished',
  },
  {
    name: 'scoreboard checks the date before the league',
    url: '/get/soccer/xxx.9/scoreboard?dates=2026',
    status: 400,
    error: 'dates must be a valid YYYYMMDD date',
  },
  // Query-string rules
  {
    name: 'a repeated parameter takes its last value',
    url: '/get/soccer/eng.1/fixtures?status=bogus&status=live',
    status: 200,
    check: (b) => expect(b.filters.status).toBe('live'),
  },
  {
    name: 'a repeated parameter whose last value is bad is 400',
    url: '/get/soccer/eng.1/fixtures?status=live&status=bogus',
    status: 400,
    error: 'status must be all, scheduled, live, or finished',
  },
  {
    name: 'a repeated parameter whose last value is empty is absent',
    url: '/get/soccer/eng.1/fixtures?status=live&status=',
    status: 200,
    check: (b) => expect(b.filters.status).toBe('all'),
  },
  { name: 'unknown parameters are ignored', url: '/get/soccer/leagues?foo=bar&x', status: 200 },
  {
    name: 'parameter names are case-sensitive (STATUS is unknown)',
    url: '/get/soccer/eng.1/fixtures?STATUS=bogus',
    status: 200,
    check: (b) => expect(b.filters.status).toBe('all'),
  },
  {
    name: 'an empty value means not given',
    url: '/get/soccer/eng.1/fixtures?status=&page=&limit=&from=&to=',
    status: 200,
    check: (b) => {
      expect(b.filters).toEqual({ from: null, to: null, status: 'all' });
      expect([b.pageIndex, b.pageSize]).toEqual([1, 100]);
    },
  },
  {
    name: 'a bare parameter name means not given',
    url: '/get/soccer/leagues?available&kind',
    status: 200,
    check: (b) => expect(b.meta).toMatchObject({ kind: 'club', availableOnly: false }),
  },
  {
    name: 'values are percent-decoded',
    url: '/get/soccer/eng.1/fixtures?status=%4CIVE',
    status: 200,
    check: (b) => expect(b.filters.status).toBe('live'),
  },
  {
    name: "a malformed escape in a value is that value's 400",
    url: '/get/soccer/eng.1/fixtures?page=%zz',
    status: 400,
    error: 'page must be a positive integer',
  },
  // Caching and CORS
  {
    name: 'every response exposes ETag, RateLimit-* and Retry-After to scripts',
    url: '/get/soccer/meta',
    status: 200,
    cache: 'public, max-age=60',
    check: (_b, res) => {
      const exposed = (res.headers['access-control-expose-headers'] ?? '').split(',').map((s) => s.trim());
      expect(exposed).toEqual(expect.arrayContaining(EXPOSED));
    },
  },
  {
    name: 'a 304 needs a matching validator: a stale one gets the body',
    url: '/get/soccer/meta',
    headers: { 'if-none-match': '"stale"' },
    status: 200,
  },
];

async function etagOf(target: Parameters<ContractFlow['run']>[0], url: string): Promise<string> {
  const res = await target.request('GET', url);
  expect(res.status).toBe(200);
  return res.headers.etag!;
}

/** What an embedded league carries (docs/json-api.md). */
export const LEAGUE_REF_KEYS = [
  'id',
  'uid',
  'name',
  'abbreviation',
  'slug',
  'country',
  'kind',
  'logo',
  'season',
  'active',
];

export const GENERAL_FLOWS: ContractFlow[] = [
  {
    name: 'If-None-Match with the current ETag, in a list, weak or * gives 304 with ETag and Cache-Control and no body',
    run: async (target) => {
      const url = '/get/soccer/eng.1/standings';
      const etag = await etagOf(target, url);
      for (const inm of [etag, `"x", ${etag}`, `W/${etag}`, '*', `W/"a",W/${etag}`]) {
        for (const method of ['GET', 'HEAD']) {
          const res = await target.request(method, url, { 'if-none-match': inm });
          expect(res.status, inm).toBe(304);
          expect(res.headers.etag).toBe(etag);
          expect(res.headers['cache-control']).toBe('public, max-age=30');
          expect(res.headers['access-control-allow-origin']).toBe('*');
          expect(res.body.length).toBe(0);
        }
      }
    },
  },
  {
    name: 'If-None-Match never turns an error into a 304',
    run: async (target) => {
      const res = await target.request('GET', '/get/soccer/xxx.9/clubs', { 'if-none-match': '*' });
      expect(res.status).toBe(404);
    },
  },
  {
    name: 'HEAD carries the same status, ETag, Cache-Control and Content-Type as GET',
    run: async (target) => {
      for (const url of [
        '/get/soccer/eng.1/fixtures?status=live',
        '/get/soccer/eng.1/clubs/1001',
        '/get/soccer/eng.1/standings?season=x',
        '/nope',
      ]) {
        const get = await target.request('GET', url);
        const head = await target.request('HEAD', url);
        expect(head.status).toBe(get.status);
        for (const h of ['etag', 'cache-control', 'content-type', 'content-length'])
          expect(head.headers[h], h).toBe(get.headers[h]);
      }
    },
  },
  {
    name: 'the ETag is a hash of the bytes: same body, same ETag; different body, different ETag',
    run: async (target) => {
      const a = await target.request('GET', '/get/soccer/leagues');
      const b = await target.request('GET', '/get/soccer/leagues?kind=CLUB&available=false&zzz=1');
      const c = await target.request('GET', '/get/soccer/leagues?kind=all');
      expect(b.body.equals(a.body)).toBe(true);
      expect(b.headers.etag).toBe(a.headers.etag);
      expect(json(c)).not.toEqual(json(a));
      expect(c.headers.etag).not.toBe(a.headers.etag);
    },
  },
  {
    name: 'a slug in capitals gives the bytes of the lower-case slug',
    run: async (target) => {
      const lower = await target.request('GET', '/get/soccer/eng.1/events/9001');
      const upper = await target.request('GET', '/get/soccer/ENG.1/events/9001');
      expect(upper.body.equals(lower.body)).toBe(true);
    },
  },
];
