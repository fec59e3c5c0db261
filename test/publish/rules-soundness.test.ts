/**
 * The generated rules are sound under Netlify's own matcher (netlify-redirector): a request that
 * the rules answer from a file gets exactly the dynamic answer, whatever is done to it — extra,
 * repeated, bare or empty parameters, odd casing, percent-encodings, trailing slashes.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../src/api/render.js';
import { matchRoute } from '../../src/api/route.js';
import { ROUTES } from '../../src/api/routes.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { CdnEmulator } from '../../src/publish/cdn-emulator.js';
import { readManifestSync } from '../../src/publish/manifest.js';
import { currentRelease } from '../../src/publish/release.js';
import { loadMatcher } from '../../src/publish/netlify-matcher.js';
import { MUTATIONS, QUERY_KEYS, formatRaw, mutate, seededRng, splitUrl, valuesFor } from '../../src/publish/sample.js';
import type { RawRequest } from '../../src/publish/sample.js';
import { parseQuery } from '../../src/api/query.js';
import { agreesWithNetlify, netlifyQuery } from '../../src/api/netlify-query.js';
import { buildInto, demoStore } from './helpers.js';

const NOW = new Date('2026-03-21T12:00:00Z');

let store: StoreReader;
let storeFile: string;
let release: string;
let cdn: CdnEmulator;
let bases: RawRequest[];
const hits = { file: 0, fallback: 0, skipped: 0 };

/** The premise of the rules' soundness proof: the render core reads the query as Netlify does. */
const readsLikeNetlify = (query: string) => agreesWithNetlify(query, parseQuery(query));

function expectSound(req: RawRequest, via = cdn): void {
  if (!readsLikeNetlify(req.query)) {
    // Counted, and pinned by its own test below: the rules cannot be sound for such a request.
    hits.skipped++;
    return;
  }
  const label = `${req.path}?${req.query}`;
  const answer = via.answer('GET', req.path, req.query);
  expect(answer.kind, `${label}: ${answer.kind === 'broken' ? answer.reason : ''}`).not.toBe('broken');
  if (answer.kind !== 'file') {
    hits.fallback++;
    return;
  }
  hits.file++;
  const dynamic = render(
    { method: 'GET', path: req.path, rawQuery: req.query, headers: {} },
    { store, clock: () => NOW },
  );
  expect(answer.response.status, `${label} served ${answer.file}`).toBe(dynamic.status);
  expect(answer.response.body.equals(dynamic.body), `${label} served ${answer.file}: body differs`).toBe(true);
  for (const h of ['ETag', 'Cache-Control', 'Content-Type'])
    expect(answer.response.headers[h], `${label}: ${h}`).toBe(dynamic.headers[h]);
}

beforeAll(async () => {
  storeFile = await demoStore();
  const db = storeFile;
  const { out } = await buildInto(db);
  release = currentRelease(out)!;
  cdn = await CdnEmulator.open(release);
  store = StoreReader.open(db);
  bases = readManifestSync(path.join(release, 'manifest.ndjson'))
    .flatMap((e) => [e.request, ...e.aliases])
    .map(splitUrl);
});
afterAll(() => store?.close());

describe('generated Netlify rules', () => {
  it('serve every pre-rendered request from its own file', () => {
    for (const req of bases) {
      const answer = cdn.answer('GET', req.path, req.query);
      expect(answer.kind, `${req.path}?${req.query}`).toBe('file');
      expectSound(req);
    }
  });

  it('give the dynamic answer, or the fallback, for mutated pre-rendered requests', () => {
    fc.assert(
      fc.property(fc.nat({ max: bases.length - 1 }), fc.integer(), (i, seed) =>
        expectSound(mutate(bases[i]!, seededRng(seed))),
      ),
      { numRuns: 4000 },
    );
  });

  it('give the dynamic answer, or the fallback, after each kind of mutation alone', () => {
    for (const [name, m] of Object.entries(MUTATIONS)) {
      fc.assert(
        fc.property(fc.nat({ max: bases.length - 1 }), fc.integer(), (i, seed) =>
          expectSound(m(bases[i]!, seededRng(seed))),
        ),
        {
          numRuns: 150,
          examples: [],
        },
      );
      expect(name).toBeTruthy();
    }
  });

  it('give the dynamic answer, or the fallback, for arbitrary queries on pre-rendered paths', () => {
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
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.array(part, { maxLength: 5 }), fc.boolean(), (p, parts, slash) =>
        expectSound({ path: slash ? `${p}/` : p, query: formatRaw(parts) }),
      ),
      { numRuns: 4000 },
    );
  });

  it('rest on the render core reading every query exactly as Netlify does (bare keys, a trailing &, broken escapes)', () => {
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

  it('answer from files often enough that the properties above are not vacuous', () => {
    expect(hits.file).toBeGreaterThan(1000);
    expect(hits.fallback).toBeGreaterThan(1000);
  });

  it('stay sound when a tight rule budget leaves most requests to the fallback', async () => {
    const { out, summary } = await buildInto(storeFile, undefined, { ruleBudget: 120 });
    expect(summary.rules.total).toBeLessThanOrEqual(120);
    const tight = await CdnEmulator.open(currentRelease(out)!);
    for (let i = 0; i < 1500; i++) expectSound(mutate(bases[i % bases.length]!, seededRng(i)), tight);
  });

  it('stay sound with an origin as the fallback, which gets the request path and its route keys back', async () => {
    const { out } = await buildInto(storeFile, undefined, { fallback: 'https://origin.example' });
    const viaOrigin = await CdnEmulator.open(currentRelease(out)!);
    const matcher = await loadMatcher(path.join(currentRelease(out)!, '_redirects'));
    for (let i = 0; i < 800; i++) {
      const req = mutate(bases[i % bases.length]!, seededRng(1000 + i));
      expectSound(req, viaOrigin);
      const where = matcher.resolve(req.path, req.query);
      if (where.kind !== 'fallback') continue;
      const url = new URL(where.to);
      expect(url.origin).toBe('https://origin.example');
      // An escape rebuilds the query: the origin must read the route's keys as Netlify read them.
      // (The catch-all has no query of its own, so Netlify passes the request's query through.)
      if (!url.search) continue;
      const keys = Object.keys(matchRoute(ROUTES, req.path)?.route.query ?? {});
      const route = (m: ReadonlyMap<string, string>) => [...m].filter(([k, v]) => keys.includes(k) && v !== '').sort();
      expect(route(parseQuery(url.search.slice(1))), `${req.path}?${req.query} → ${where.to}`).toEqual(
        route(netlifyQuery(req.query)),
      );
    }
  });

  it('are all forced rewrites, point only at existing files, and end with the catch-all', () => {
    const lines = fs
      .readFileSync(path.join(release, '_redirects'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const line of lines) {
      expect(line.endsWith(' 200!'), line).toBe(true);
      const to = line.split(/\s+/).at(-2)!;
      if (to === '/.netlify/functions/fds') continue;
      // Rendered files, the front door and its assets: nothing else of the release is reachable.
      expect(to, line).toMatch(/^\/(_s\/|_fd\/|index\.html$)/);
      expect(fs.statSync(path.join(release, to), { throwIfNoEntry: false })?.isFile(), line).toBe(true);
    }
    expect(lines.at(-1)).toBe('/* /.netlify/functions/fds 200!');
  });
});
