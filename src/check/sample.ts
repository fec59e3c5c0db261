/**
 * Requests that probe the rules: pre-rendered requests bent in the ways the CDN's matcher is known
 * to be subtle about (docs/publishing.md) — extra, repeated, bare and empty parameters,
 * odd casing, percent-encodings, trailing slashes, invalid values. `fds check` draws a seeded sample;
 * the property tests draw theirs from fast-check through the same mutations.
 */
import { ROUTES } from '../app/routes.js';

export interface RawRequest {
  path: string;
  /** Raw query string without `?`. */
  query: string;
}

type Part = { key: string; value: string | null };
export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence on every platform. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

export const QUERY_KEYS: readonly string[] = [...new Set(ROUTES.flatMap((r) => Object.keys(r.query)))].sort();

const VALUES: Record<string, readonly string[]> = {
  status: ['all', 'scheduled', 'live', 'finished', 'FINISHED', 'Live', 'done', ''],
  page: ['1', '2', '3', '0', '01', '-1', 'abc', '10001', ''],
  limit: ['1', '50', '100', '200', '300', '1000', '0'],
  important: ['true', 'false', 'TRUE', 'yes', ''],
  kind: ['club', 'international', 'all', 'CLUB', 'national'],
  available: ['true', 'false', 'True', '1'],
  dates: ['20260321', '20260322', '20260230', '2026-03-21', ''],
  season: ['2025', '2024', '25', 'now'],
  event: ['9001', '9002', 'bad$id', ''],
  fields: ['header', 'header,meta', ' meta ', 'bogus'],
  from: ['20260101', '20261231', 'x'],
  to: ['20260101', '20261231'],
};

export const valuesFor = (key: string): readonly string[] => VALUES[key] ?? ['x', '1', ''];

export function parseRaw(query: string): Part[] {
  return query === ''
    ? []
    : query.split('&').map((p) => {
        const eq = p.indexOf('=');
        return eq === -1 ? { key: p, value: null } : { key: p.slice(0, eq), value: p.slice(eq + 1) };
      });
}

export const formatRaw = (parts: Part[]): string =>
  parts.map((p) => (p.value === null ? p.key : `${p.key}=${p.value}`)).join('&');

export function splitUrl(url: string): RawRequest {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, query: '' } : { path: url.slice(0, q), query: url.slice(q + 1) };
}

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
function encodeOneChar(s: string, rng: Rng): string {
  if (!s) return s;
  const i = Math.floor(rng() * s.length);
  const enc = rng() < 0.5 ? hex(s[i]!) : hex(s[i]!).toLowerCase();
  return s.slice(0, i) + enc + s.slice(i + 1);
}

function withParts(r: RawRequest, f: (parts: Part[]) => Part[]): RawRequest {
  return { path: r.path, query: formatRaw(f(parseRaw(r.query))) };
}

/** Each mutation keeps the request well-formed enough to reach a route, or deliberately not. */
export const MUTATIONS: Record<string, (r: RawRequest, rng: Rng) => RawRequest> = {
  unknownParam: (r, rng) =>
    withParts(r, (p) => [...p, { key: pick(rng, ['utm', 'x', 'callback', '_']), value: pick(rng, ['1', '', 'a b']) }]),
  knownParam: (r, rng) =>
    withParts(r, (p) => {
      const key = pick(rng, QUERY_KEYS);
      return [...p, { key, value: pick(rng, valuesFor(key)) }];
    }),
  dropParam: (r, rng) => withParts(r, (p) => p.filter((_, i) => i !== Math.floor(rng() * p.length))),
  changeValue: (r, rng) =>
    withParts(r, (p) =>
      p.map((x, i, all) =>
        i === Math.floor(rng() * all.length) ? { key: x.key, value: pick(rng, valuesFor(x.key)) } : x,
      ),
    ),
  repeatBefore: (r, rng) =>
    withParts(r, (p) =>
      p.length ? [{ key: pick(rng, p).key, value: pick(rng, valuesFor(pick(rng, p).key)) }, ...p] : p,
    ),
  repeatAfter: (r, rng) =>
    withParts(r, (p) => {
      const key = p.length ? pick(rng, p).key : pick(rng, QUERY_KEYS);
      return [...p, { key, value: pick(rng, valuesFor(key)) }];
    }),
  bareKey: (r, rng) =>
    withParts(r, (p) => {
      const key = p.length && rng() < 0.7 ? pick(rng, p).key : pick(rng, QUERY_KEYS);
      return rng() < 0.5 ? [...p, { key, value: null }] : [{ key, value: null }, ...p];
    }),
  emptyValue: (r, rng) =>
    withParts(r, (p) => {
      const key = p.length && rng() < 0.7 ? pick(rng, p).key : pick(rng, QUERY_KEYS);
      return [...p, { key, value: '' }];
    }),
  upperValue: (r, rng) =>
    withParts(r, (p) =>
      p.map((x, i, all) =>
        i === Math.floor(rng() * all.length) && x.value ? { ...x, value: x.value.toUpperCase() } : x,
      ),
    ),
  upperKey: (r, rng) =>
    withParts(r, (p) =>
      p.map((x, i, all) =>
        i === Math.floor(rng() * all.length) ? { ...x, key: x.key.slice(0, 1).toUpperCase() + x.key.slice(1) } : x,
      ),
    ),
  encodeValue: (r, rng) =>
    withParts(r, (p) =>
      p.map((x, i, all) =>
        i === Math.floor(rng() * all.length) && x.value ? { ...x, value: encodeOneChar(x.value, rng) } : x,
      ),
    ),
  encodeKey: (r, rng) =>
    withParts(r, (p) =>
      p.map((x, i, all) => (i === Math.floor(rng() * all.length) ? { ...x, key: encodeOneChar(x.key, rng) } : x)),
    ),
  plusValue: (r, rng) =>
    withParts(r, (p) =>
      p.map((x, i, all) =>
        i === Math.floor(rng() * all.length) && x.value
          ? { ...x, value: `${x.value}${pick(rng, ['+', '%20', '%2B', '%', '%ZZ', '&'])}` }
          : x,
      ),
    ),
  reorder: (r) => withParts(r, (p) => [...p].reverse()),
  emptyPairs: (r) => ({ path: r.path, query: `&${r.query}&&` }),
  trailingSlash: (r) => ({ ...r, path: `${r.path}/` }),
  doubleSlash: (r, rng) => ({ ...r, path: rng() < 0.5 ? `${r.path}//` : r.path.replace('/soccer/', '/soccer//') }),
  upperPath: (r) => ({
    ...r,
    path: r.path.replace(/\/get\/soccer\/([a-z]+)/, (_, s: string) => `/get/soccer/${s.toUpperCase()}`),
  }),
  encodePath: (r, rng) => {
    const segs = r.path.split('/');
    const i = 1 + Math.floor(rng() * (segs.length - 1));
    segs[i] = encodeOneChar(segs[i]!, rng);
    return { ...r, path: segs.join('/') };
  },
  dotSegment: (r, rng) => ({
    ...r,
    path: r.path.replace('/soccer/', pick(rng, ['/soccer/./', '/x/../soccer/', '/soccer/%2E/'])),
  }),
  staticPath: (r) => ({ path: `/_s${r.path}/index.json`, query: r.query }),
};

export const MUTATION_NAMES = Object.keys(MUTATIONS);

/** Paths outside any pre-rendered request: service routes, the file tree, unknown routes. */
export const OTHER_REQUESTS: readonly string[] = [
  '/',
  '/health',
  '/api/health',
  '/openapi.json',
  '/get/soccer/eng.1/scoreboard',
  '/get/soccer/zzz.9/clubs',
  '/get/soccer/eng.1/nothing',
  '/_redirects',
  '/_headers',
  '/manifest.ndjson',
  '/_s/get/soccer/leagues/available-false,kind-club.json',
];

/** `base` with 0–3 mutations applied; `rng` decides which. */
export function mutate(base: RawRequest, rng: Rng): RawRequest {
  let r = base;
  const n = Math.floor(rng() * 4);
  for (let i = 0; i < n; i++) r = MUTATIONS[pick(rng, MUTATION_NAMES)]!(r, rng);
  return r;
}
