/** fast-check generators of hostile and odd requests: paths, query strings, validators. */
import fc from 'fast-check';

const SEGMENTS = [
  'get',
  'soccer',
  'eng.1',
  'ENG.1',
  'esp.1',
  'xxx.9',
  'leagues',
  'meta',
  'scoreboard',
  'fixtures',
  'summary',
  'events',
  'plays',
  'clubs',
  'standings',
  'health',
  'api',
  'openapi.json',
  '9001',
  '9101',
  '1001',
  '2004',
  '',
  '.',
  '..',
  '%',
  '%zz',
  '%2F',
  '%00',
  '%E2%82',
  '%C3%A9',
  'a.b',
  '%20',
  '\u00e9',
  '\u{1F600}',
  'x'.repeat(200),
];

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.%-]{0,20}$/) },
);

/** Mostly paths near the real routes, some anywhere. */
export const pathArb = fc.oneof(
  fc.array(segment, { minLength: 0, maxLength: 7 }).map((s) => `/${s.join('/')}`),
  fc
    .tuple(
      fc.constantFrom('eng.1', 'ENG.1', 'esp.1', 'xxx.9', 'EN G', '%zz'),
      fc.constantFrom(
        'scoreboard',
        'fixtures',
        'summary',
        'clubs',
        'standings',
        'events/9001',
        'events/9001/plays',
        'clubs/1001',
        'events/a.b/plays',
      ),
    )
    .map(([l, r]) => `/get/soccer/${l}/${r}`),
  fc.constantFrom('/get/soccer/leagues', '/get/soccer/meta', '/health', '/api/health', '/openapi.json'),
);

const KEYS = [
  'page',
  'limit',
  'status',
  'from',
  'to',
  'dates',
  'kind',
  'available',
  'important',
  'event',
  'fields',
  'season',
  'PAGE',
  'x',
  '',
  '%70age',
];

const value = fc.oneof(
  fc.constantFrom(
    '',
    '1',
    '0',
    '-1',
    '007',
    '1e3',
    '1.5',
    '99999999999999999999999',
    'true',
    'false',
    'TRUE',
    'all',
    'LIVE',
    'club',
    'finished',
    '20260321',
    '20260230',
    '2025',
    'header,meta',
    'header,,x',
    '9001',
    'a.b',
    '%zz',
    '%',
    '+',
    '%2B',
    '%00',
    '%E2%82%AC',
  ),
  fc.string({ maxLength: 20, unit: 'grapheme' }).map(encodeURIComponent),
  fc.string({ maxLength: 20 }),
  fc.nat().map(String),
);

const pair = fc
  .tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 6 })), value, fc.boolean())
  .map(([k, v, eq]) => (eq ? `${k}=${v}` : k));

export const queryArb = fc.oneof(
  fc.constant(''),
  fc.array(pair, { maxLength: 8 }).map((p) => p.join('&')),
  fc.string({ maxLength: 40 }),
);

export const methodArb = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE', 'PUT', 'PATCH');

export const ifNoneMatchArb = fc.option(
  fc.oneof(fc.constant('*'), fc.string({ maxLength: 30 }), fc.constant('W/"x", "y"')),
  { nil: undefined },
);

/** Characters an HTTP client refuses in a request target are escaped; the rest is sent as generated. */
export function printable(target: string): string {
  return target.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}
