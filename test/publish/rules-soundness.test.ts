/**
 * The generated rules are sound under Netlify's own rule engine (@netlify/redirects, over
 * netlify-redirector; files with their `_headers` by @netlify/headers): a request that the rules
 * answer from a file gets exactly the dynamic answer, whatever is done to it — extra,
 * repeated, bare or empty parameters, odd casing, percent-encodings, trailing slashes. And they
 * reach: requests that still mean a pre-rendered request are answered from its file, so the
 * soundness properties are exercised on file answers, not only on the fallback.
 *
 * A request is read as the platform hands it over, a parsed URL (dot segments resolved); the
 * fallback behind the rules is handed the same URL, so a file answer is judged against the dynamic
 * answer to that URL. Every test keeps its own tally; the shared fixtures (one store, one build)
 * are only read.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../src/app/render.js';
import { matchRoute } from '../../src/api/route.js';
import { ROUTES } from '../../src/app/routes.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { NetlifyCdn, webRequest } from '../helpers/netlify-cdn.js';
import { readManifestSync } from '../../src/release/manifest.js';
import { currentRelease } from '../../src/release/layout.js';
import { loadMatcher } from '../../src/netlify/matcher.js';
import { MUTATIONS, QUERY_KEYS, formatRaw, mutate, seededRng, splitUrl, valuesFor } from '../../src/check/sample.js';
import type { RawRequest } from '../../src/check/sample.js';
import { parseQuery } from '../../src/api/query.js';
import { agreesWithNetlify, netlifyQuery } from '../../src/netlify/query.js';
import { buildInto, demoStore } from './helpers.js';

const NOW = new Date('2026-03-21T12:00:00Z');

/** A pre-rendered request (canonical or alias) and the file the manifest says answers it. */
type Base = RawRequest & { file: string };

let store: StoreReader;
let storeFile: string;
let release: string;
let cdn: NetlifyCdn;
let bases: Base[];

/** One test's count of where its requests went. */
interface Tally {
  file: number;
  fallback: number;
  /** Requests not checked because the premise of the soundness argument does not hold for them. */
  premise: string[];
}
const tally = (): Tally => ({ file: 0, fallback: 0, premise: [] });

/** The premise of the rules' soundness proof: the render core reads the query as Netlify does. */
const readsLikeNetlify = (query: string) => agreesWithNetlify(query, parseQuery(query));

const labelOf = (req: RawRequest) => `${req.path}?${req.query}`;

/** Where Netlify's rule engine sends a GET (null: no platform would hand such a URL over). */
async function ask(via: NetlifyCdn, req: RawRequest) {
  const request = webRequest('GET', req.path, req.query);
  return request ? via.rules(request) : null;
}

/** Where `via` sends `req`; when it is a file, that file must hold exactly the dynamic answer. */
async function expectSound(req: RawRequest, via: NetlifyCdn, t: Tally): Promise<'file' | 'fallback' | 'premise'> {
  const label = labelOf(req);
  const request = webRequest('GET', req.path, req.query);
  const url = request && new URL(request.url);
  if (!url || !readsLikeNetlify(url.search.slice(1))) {
    // The rules cannot be sound for such a request; each test asserts that none came up.
    t.premise.push(label);
    return 'premise';
  }
  const answer = await via.rules(request);
  expect(answer.kind, `${label}: ${answer.kind === 'not-found' ? answer.reason : ''}`).not.toBe('not-found');
  if (answer.kind !== 'file') {
    t.fallback++;
    return 'fallback';
  }
  t.file++;
  const dynamic = render(
    { method: 'GET', path: url.pathname, rawQuery: url.search.slice(1), headers: {} },
    { store, clock: () => NOW },
  );
  expect(answer.response.status, `${label} served ${answer.file}`).toBe(dynamic.status);
  expect(answer.response.body.equals(dynamic.body), `${label} served ${answer.file}: body differs`).toBe(true);
  for (const h of ['ETag', 'Cache-Control', 'Content-Type'])
    expect(answer.response.headers[h], `${label}: ${h}`).toBe(dynamic.headers[h]);
  return 'file';
}

/**
 * No request is skipped for the premise: the render core reads every generated query as Netlify
 * does (pinned by its own test below). Both outcomes must have been seen often enough to matter.
 */
function expectReached(t: Tally, atLeast: { file: number; fallback: number }): void {
  expect(t.premise, 'requests skipped because the render core reads their query unlike Netlify').toEqual([]);
  expect(t.file, 'requests answered from files').toBeGreaterThanOrEqual(atLeast.file);
  expect(t.fallback, 'requests sent to the fallback').toBeGreaterThanOrEqual(atLeast.fallback);
}

const anyBase = () => fc.nat({ max: bases.length - 1 }).map((i) => bases[i]!);

/** Bends that leave the request meaning what it meant: Netlify still finds its literal rule. */
const SAME_REQUEST = [
  'unknownParam',
  'repeatBefore',
  'bareKey',
  'encodeValue',
  'reorder',
  'emptyPairs',
  'trailingSlash',
];
/**
 * Bends of the path itself, which no literal rule spells as such: Netlify's engine decodes a
 * percent-encoded path, and the platform resolves dot segments, before a rule is matched, so those
 * may still land on the file of the path they mean; the others reach the fallback.
 */
const PATH_BENDS = ['doubleSlash', 'upperPath', 'encodePath', 'dotSegment', 'staticPath'];
/** Bends of the query that may or may not change what is asked: some land on files, some do not. */
const QUERY_BENDS = Object.keys(MUTATIONS).filter((n) => !SAME_REQUEST.includes(n) && !PATH_BENDS.includes(n));

const mutation = (name: string) => {
  const m = MUTATIONS[name];
  if (!m) throw new Error(`sample.ts has no mutation ${name}`);
  return m;
};

beforeAll(async () => {
  storeFile = await demoStore();
  const { out } = await buildInto(storeFile);
  release = currentRelease(out)!;
  cdn = await NetlifyCdn.open(release);
  store = StoreReader.open(storeFile);
  bases = readManifestSync(path.join(release, 'manifest.ndjson')).flatMap((e) =>
    [e.request, ...e.aliases].map((url) => ({ ...splitUrl(url), file: e.file })),
  );
});
afterAll(() => store?.close());

describe('generated Netlify rules', () => {
  it('serve every pre-rendered request, aliases included, from the file the manifest names', async () => {
    const t = tally();
    for (const req of bases) {
      const answer = await ask(cdn, req);
      expect(answer?.kind === 'file' && answer.file, labelOf(req)).toBe(req.file);
      await expectSound(req, cdn, t);
    }
    expect(bases.length).toBeGreaterThan(300);
    expect(bases.some((b) => b.path.endsWith('/summary'))).toBe(true);
    expectReached(t, { file: bases.length, fallback: 0 });
  });

  it('give the dynamic answer, or the fallback, for mutated pre-rendered requests', async () => {
    const t = tally();
    await fc.assert(
      fc.asyncProperty(anyBase(), fc.integer(), async (base, seed) => {
        await expectSound(mutate(base, seededRng(seed)), cdn, t);
      }),
      { numRuns: 4000 },
    );
    // About 58% of these land on files and 42% on the fallback.
    expectReached(t, { file: 1000, fallback: 1000 });
    // Netlify's rule engine takes milliseconds a request: thousands of them need more than the default.
  }, 240_000);

  it('classify every mutation exactly once', () => {
    expect([...SAME_REQUEST, ...PATH_BENDS, ...QUERY_BENDS].sort()).toEqual(Object.keys(MUTATIONS).sort());
    expect(QUERY_BENDS.length).toBeGreaterThan(5);
  });

  it.each(SAME_REQUEST)('still serve a pre-rendered request bent by %s from its own file', async (name) => {
    const t = tally();
    await fc.assert(
      fc.asyncProperty(anyBase(), fc.integer(), async (base, seed) => {
        const req = mutation(name)(base, seededRng(seed));
        const answer = await ask(cdn, req);
        expect(answer?.kind === 'file' && answer.file, `${labelOf(base)} bent to ${labelOf(req)}`).toBe(base.file);
        await expectSound(req, cdn, t);
      }),
      { numRuns: 100 },
    );
    expectReached(t, { file: 100, fallback: 0 });
  });

  it.each(QUERY_BENDS)('give the dynamic answer, or the fallback, for a query bent by %s', async (name) => {
    const t = tally();
    await fc.assert(
      fc.asyncProperty(anyBase(), fc.integer(), async (base, seed) => {
        await expectSound(mutation(name)(base, seededRng(seed)), cdn, t);
      }),
      { numRuns: 150 },
    );
    // Each of these sends at least 15% of its requests each way, so both sides are exercised.
    expectReached(t, { file: 1, fallback: 1 });
  });

  it.each(PATH_BENDS)('give the dynamic answer, or the fallback, for a path bent by %s', async (name) => {
    const t = tally();
    let bent = 0;
    await fc.assert(
      fc.asyncProperty(anyBase(), fc.integer(), async (base, seed) => {
        const req = mutation(name)(base, seededRng(seed));
        if (req.path !== base.path) bent++;
        await expectSound(req, cdn, t);
      }),
      { numRuns: 150 },
    );
    expect(bent, 'requests whose path the mutation changed').toBeGreaterThan(100);
    expectReached(t, { file: 0, fallback: 0 });
    expect(t.file + t.fallback, 'requests answered').toBe(150);
  });

  it('give the dynamic answer, or the fallback, for arbitrary queries on pre-rendered paths', async () => {
    const t = tally();
    const paths = [...new Set(bases.map((b) => b.path))];
    const key = fc.oneof(
      fc.constantFrom(...QUERY_KEYS),
      fc.constantFrom(...QUERY_KEYS).map((k) => k.toUpperCase()),
      fc.constantFrom(...QUERY_KEYS).map((k) => `%${k.charCodeAt(0).toString(16)}${k.slice(1)}`),
      fc.constantFrom('utm', 'x', '', 'status[]'),
    );
    const value = fc.oneof(
      fc.constantFrom(...QUERY_KEYS.flatMap((k) => valuesFor(k))),
      fc.constantFrom(...bases.flatMap((b) => b.query.split('&').map((p) => p.split('=')[1] ?? ''))),
      fc.string({ maxLength: 6 }),
      fc.constantFrom('%31', '%74rue', 'fals%65', '1%20', '1+', '%', '%zz', '２'),
    );
    const part = fc.record({ key, value: fc.option(value, { freq: 6 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.array(part, { maxLength: 5 }),
        fc.boolean(),
        async (p, parts, slash) => {
          await expectSound({ path: slash ? `${p}/` : p, query: formatRaw(parts) }, cdn, t);
        },
      ),
      { numRuns: 3000 },
    );
    // About 93% of these land on files (mostly unknown keys and values the rules ignore).
    expectReached(t, { file: 1500, fallback: 75 });
  }, 240_000);

  it('rest on the render core reading every query as Netlify does (bare keys, a trailing &, broken escapes)', () => {
    const part = fc.oneof(
      fc
        .tuple(fc.constantFrom(...QUERY_KEYS), fc.constantFrom('', 'live', '1', '1%3Z', '%', '%ZZ', 'li%76e', 'true+'))
        .map(([k, v]) => `${k}=${v}`),
      fc.constantFrom(...QUERY_KEYS),
      fc.constant(''),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        const q = parts.join('&');
        expect(
          readsLikeNetlify(q),
          `${q}: render core ${JSON.stringify([...parseQuery(q)])}, Netlify ${JSON.stringify([...netlifyQuery(q)])}`,
        ).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('stay sound when a tight rule budget leaves most requests to the fallback', async () => {
    const t = tally();
    const { out, summary } = await buildInto(storeFile, undefined, { ruleBudget: 120 });
    expect(summary.rules!.total).toBeLessThanOrEqual(120);
    expect(summary.rules!.literals).toBeGreaterThan(0);
    const tight = await NetlifyCdn.open(currentRelease(out)!);
    for (let i = 0; i < 1500; i++) await expectSound(mutate(bases[i % bases.length]!, seededRng(i)), tight, t);
    // Only league-level literals fit: with these seeds, 50 of the 1500 requests land on files.
    expectReached(t, { file: 20, fallback: 1000 });
  });

  it('stay sound with an origin as the fallback, which gets the request path and its route keys back', async () => {
    const t = tally();
    const { out } = await buildInto(storeFile, undefined, { fallback: 'https://origin.example' });
    const viaOrigin = await NetlifyCdn.open(currentRelease(out)!);
    const matcher = await loadMatcher(path.join(currentRelease(out)!, '_redirects'));
    let withRouteKeys = 0;
    for (let i = 0; i < 800; i++) {
      const req = mutate(bases[i % bases.length]!, seededRng(1000 + i));
      if ((await expectSound(req, viaOrigin, t)) !== 'fallback') continue;
      const where = matcher.resolve(req.path, req.query);
      expect(where.kind, labelOf(req)).toBe('fallback');
      const to = where.kind === 'fallback' ? where.to : '';
      expect(to.startsWith('https://origin.example/'), `${labelOf(req)} → ${to}`).toBe(true);
      // The path comes back as sent, up to the slashes Netlify collapses (doubled ones, a trailing one).
      const slashes = (p: string) => p.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
      const toPath = to.slice('https://origin.example'.length).split('?')[0]!;
      expect(slashes(toPath), `${labelOf(req)} → ${to}`).toBe(slashes(req.path));
      // An escape rebuilds the query: the origin must read the route's keys as Netlify read them.
      // (The catch-all has no query of its own, so Netlify passes the request's query through.)
      const search = new URL(to).search;
      if (!search) continue;
      withRouteKeys++;
      const keys = Object.keys(matchRoute(ROUTES, req.path)?.route.query ?? {});
      const route = (m: ReadonlyMap<string, string>) => [...m].filter(([k, v]) => keys.includes(k) && v !== '').sort();
      expect(route(parseQuery(search.slice(1))), `${labelOf(req)} → ${to}`).toEqual(route(netlifyQuery(req.query)));
    }
    expectReached(t, { file: 200, fallback: 200 });
    expect(withRouteKeys, 'fallback answers through an escape rule').toBeGreaterThan(50);
  });

  it('are all forced rewrites, point only at existing files, and end with the catch-all', () => {
    const lines = fs
      .readFileSync(path.join(release, '_redirects'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    let toFiles = 0;
    for (const line of lines) {
      expect(line.endsWith(' 200!'), line).toBe(true);
      const to = line.split(/\s+/).at(-2)!;
      if (to === '/.netlify/functions/fds') continue;
      // The per-match bodies the function fetches from its own deploy (netlify/function-package.ts).
      if (line === '/_b/* /_b/:splat 200!') {
        expect(fs.statSync(path.join(release, '_b')).isDirectory()).toBe(true);
        continue;
      }
      if (to.startsWith('/_s/')) toFiles++;
      // Rendered files, the front door and its assets: nothing else of the release is reachable.
      expect(to, line).toMatch(/^\/(_s\/|_fd\/|index\.html$)/);
      expect(fs.statSync(path.join(release, to), { throwIfNoEntry: false })?.isFile(), line).toBe(true);
    }
    expect(toFiles).toBeGreaterThanOrEqual(new Set(bases.map((b) => b.file)).size);
    expect(lines.at(-1)).toBe('/* /.netlify/functions/fds 200!');
  });
});
