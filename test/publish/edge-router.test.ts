/**
 * The edge router (`fds build --router edge`), run as Netlify would run it — the generated module
 * itself, its default export called with Web Request objects — reaches every pre-rendered request,
 * and whenever it rewrites a request to a file, that file holds exactly the dynamic answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { render } from '../../src/app/render.js';
import { summaryLine } from '../../src/cli/commands/build.js';
import { check } from '../../src/check/check.js';
import { formatQuery } from '../../src/api/query.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { NetlifyCdn, webRequest as platformRequest } from '../helpers/netlify-cdn.js';
import { EDGE_FILE, EDGE_LIMIT_BYTES } from '../../src/netlify/edge/bundle.js';
import type { NetlifyBuildSummary as BuildSummary } from '../../src/netlify/build.js';
import { readManifestSync } from '../../src/release/manifest.js';
import { defaultSpelling } from '../../src/publish/plan/plan.js';
import { currentRelease } from '../../src/release/layout.js';
import { MUTATIONS, mutate, seededRng, splitUrl } from '../../src/check/sample.js';
import type { RawRequest } from '../../src/check/sample.js';
import { buildInto, demoStore } from './helpers.js';

type EdgeFunction = (request: Request, context: object) => Promise<URL | Response | undefined>;

const NOW = new Date('2026-03-21T12:00:00Z');
const BASE = 'https://fds.test';

let db: string;
let store: StoreReader;
let release: string;
let summary: BuildSummary;
let edge: { default: EdgeFunction; config: { path: string[] } };
let code: string;
let bases: Array<RawRequest & { file: string }>;
let cdn: NetlifyCdn;
const tally = { rewritten: 0, passed: 0, wrong: 0 };

beforeAll(async () => {
  db = await demoStore();
  const built = await buildInto(db, undefined, { router: 'edge' });
  summary = built.summary;
  release = currentRelease(built.out)!;
  code = fs.readFileSync(path.join(release, EDGE_FILE), 'utf8');
  edge = await import(pathToFileURL(path.join(release, EDGE_FILE)).href);
  cdn = await NetlifyCdn.open(release);
  store = StoreReader.open(db);
  bases = readManifestSync(path.join(release, 'manifest.ndjson')).flatMap((e) =>
    [e.request, ...e.aliases].map((url) => ({ ...splitUrl(url), file: e.file })),
  );
});
afterAll(() => store?.close());

/** A Web Request for a raw request, or null when no platform would hand such a URL over. */
function webRequest(method: string, req: RawRequest): Request | null {
  try {
    return new Request(`${BASE}${req.path}${req.query ? `?${req.query}` : ''}`, { method });
  } catch {
    return null;
  }
}

/** Call the function without Node's Buffer in reach: it runs on Deno, where there is none. */
async function route(method: string, req: RawRequest): Promise<{ request: Request; out: unknown }> {
  const request = webRequest(method, req);
  if (!request) throw new Error(`${req.path}?${req.query} is not a URL`);
  const g = globalThis as { Buffer?: unknown };
  const buffer = g.Buffer;
  delete g.Buffer;
  let pending: Promise<unknown>;
  try {
    pending = edge.default(request, {});
  } finally {
    g.Buffer = buffer;
  }
  return { request, out: await pending };
}

/** A rewrite must land on a file that holds exactly what the fallback would answer for the URL it was handed. */
async function expectSound(req: RawRequest): Promise<void> {
  if (!webRequest('GET', req)) return;
  const routed = await route('GET', req);
  const { request, out } = routed;
  if (out === undefined) {
    tally.passed++;
    return;
  }
  expect(out).toBeInstanceOf(URL);
  const to = out as URL;
  const url = new URL(request.url);
  const label = `${req.path}?${req.query} → ${to.pathname}`;
  if (to.pathname.startsWith('/_unrouted/')) return;
  tally.rewritten++;
  const dynamic = render(
    { method: 'GET', path: url.pathname, rawQuery: url.search.slice(1), headers: {} },
    { store, clock: () => NOW },
  );
  const body = fs.readFileSync(path.join(release, to.pathname));
  // What `_headers` gives the file (Netlify makes its ETag itself, from these bytes).
  const headers = await cdn.headersFor(to.pathname);
  const wrong =
    dynamic.status !== 200 ||
    !body.equals(dynamic.body) ||
    headers['Cache-Control'] !== dynamic.headers['Cache-Control'] ||
    headers['Content-Type'] !== dynamic.headers['Content-Type'];
  if (wrong) tally.wrong++;
  expect(wrong, `${label}: status ${dynamic.status}, or body or headers differ`).toBe(false);
}

describe('the edge router', () => {
  it('is a Netlify edge function on the API paths and the files, well within the size limit', () => {
    expect(edge.config.path).toEqual(['/get/*', '/openapi.json', '/_s/*']);
    expect(summary.edge).not.toBeNull();
    expect(summary.edge!.gzipBytes).toBeLessThan(EDGE_LIMIT_BYTES);
    expect(summary.edge!.entries).toBe(bases.length);
    expect(summary.reach!.reached).toBe(summary.reach!.requests);
  });

  it('needs nothing from Node: everything is bundled and nothing names a Node global', () => {
    // Matches only, never the whole (megabytes of) module in a failure message.
    expect(code.match(/(?:^|[;}\n])\s*import\s*[\w{*"']|\bimport\s*\(|\brequire\s*\(/)?.[0]).toBeUndefined();
    expect(code.match(/\bBuffer\b|\bprocess\.|node:/)?.[0]).toBeUndefined();
  });

  it('rewrites every pre-rendered request, as planned and in its shortest spelling, to its own file', async () => {
    for (const base of bases) {
      const short = defaultSpelling(`${base.path}${base.query ? `?${base.query}` : ''}`)!;
      const spellings = [base, { path: short.path, query: formatQuery(Object.fromEntries(short.query)).slice(1) }];
      for (const req of spellings) {
        const { out } = await route('GET', req);
        expect((out as URL | undefined)?.pathname, `${req.path}?${req.query}`).toBe(`/${base.file}`);
      }
    }
  });

  it('gives the dynamic answer, or passes the request on, for mutated pre-rendered requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: bases.length - 1 }), fc.integer(), (i, seed) =>
        expectSound(mutate(bases[i]!, seededRng(seed))),
      ),
      { numRuns: 3000 },
    );
    for (const m of Object.values(MUTATIONS)) {
      for (let i = 0; i < 100; i++) await expectSound(m(bases[(i * 7919) % bases.length]!, seededRng(i)));
    }
    expect(tally.wrong).toBe(0);
    // Not vacuous: both outcomes happen often.
    expect(tally.rewritten).toBeGreaterThan(1000);
    expect(tally.passed).toBeGreaterThan(500);
  });

  it('passes on what no file answers: other methods, invalid, unrouted requests, and days not pre-rendered', async () => {
    // The date-less scoreboard is today's at request time: on a day far from the snapshot, no file has it.
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2031-01-01T12:00:00Z'));
    const clubs = bases.find((b) => b.path.endsWith('/clubs'))!;
    for (const method of ['POST', 'OPTIONS', 'DELETE']) expect((await route(method, clubs)).out).toBeUndefined();
    for (const req of [
      { path: '/get/soccer/eng.1/scoreboard', query: '' },
      { path: '/get/soccer/eng.1/scoreboard', query: 'dates=20260230' },
      { path: '/get/soccer/zzz.9/clubs', query: '' },
      { path: '/get/soccer/eng.1/nothing', query: '' },
      { path: '/get/soccer/eng.1/fixtures', query: 'status=all&page=1&from=20260101' },
    ])
      expect((await route('GET', req)).out, `${req.path}?${req.query}`).toBeUndefined();
    vi.restoreAllMocks();
  });

  it("rewrites a date-less scoreboard to today's file, today being the request's (UTC), not the build's", async () => {
    const fileOfDay = (day: string) =>
      bases.find((b) => b.path === '/get/soccer/eng.1/scoreboard' && b.query === `dates=${day}`)?.file;
    const at = async (instant: string, query = '') => {
      vi.spyOn(Date, 'now').mockReturnValue(Date.parse(instant));
      try {
        return ((await route('GET', { path: '/get/soccer/eng.1/scoreboard', query })).out as URL | undefined)?.pathname;
      } finally {
        vi.restoreAllMocks();
      }
    };
    // Yesterday, today and tomorrow around the snapshot are always pre-rendered, with matches or without.
    for (const day of ['20260320', '20260321', '20260322']) expect(fileOfDay(day), day).toBeDefined();
    expect(await at('2026-03-21T00:00:00Z')).toBe(`/${fileOfDay('20260321')}`);
    expect(await at('2026-03-21T23:59:59Z', 'utm=x')).toBe(`/${fileOfDay('20260321')}`);
    expect(await at('2026-03-22T00:00:00Z', 'dates=')).toBe(`/${fileOfDay('20260322')}`);
    expect(await at('2026-03-20T08:00:00Z')).toBe(`/${fileOfDay('20260320')}`);
    // An explicit day is that day, whatever the clock says.
    expect(await at('2026-03-22T08:00:00Z', 'dates=20260320')).toBe(`/${fileOfDay('20260320')}`);
  });

  it('is the same, byte for byte, when the same store is built again', async () => {
    const again = currentRelease((await buildInto(db, undefined, { router: 'edge', workers: 0 })).out)!;
    for (const file of [EDGE_FILE, '_redirects', '_headers'])
      expect(fs.readFileSync(path.join(again, file)).equals(fs.readFileSync(path.join(release, file))), file).toBe(
        true,
      );
  });

  it('is what `fds check` resolves the sample and the reach through, finding nothing wrong', async () => {
    const report = await check({ dir: release, db, sample: 200 });
    expect(report.fileMismatches + report.sampleMismatches, report.reasons.join('\n')).toBe(0);
    expect(report.edge).toBe(true);
    expect(report.reach).toEqual(summary.reach);
    expect(summaryLine(summary, 'dist')).toMatch(/edge router \d+\.\d MB, \d+\.\d MB compressed \(limit 20\.0 MB\)/);
  });

  it('keeps clients off the files themselves: a direct request goes where any path outside the API goes', async () => {
    const file = bases[0]!.file;
    const { out } = await route('GET', { path: `/${file}`, query: '' });
    expect((out as URL).pathname).toBe(`/_unrouted/${file}`);
    expect((await cdn.serve(platformRequest('GET', `/${file}`)!)).kind).toBe('function');
    // …while its own rewrites reach the file through the rules.
    expect(await cdn.serve(platformRequest('GET', bases[0]!.path, bases[0]!.query)!)).toMatchObject({
      kind: 'file',
      via: 'edge',
      file,
    });
  });
});
