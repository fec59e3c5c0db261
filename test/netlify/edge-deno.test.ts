/**
 * The edge router on Deno, the runtime Netlify's edge runs it on: the module `fds build --router
 * edge` wrote, run by the `deno` binary (test/helpers/deno-edge.ts) over the API contract's requests
 * and every pre-rendered request, answers exactly as it does under Node — and every rewrite it
 * makes lands, through Netlify's rule engine (@netlify/redirects), on a file that holds the dynamic
 * answer to the request, with the headers `_headers` gives it (@netlify/headers).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { render } from '../../src/app/render.js';
import { EDGE_FILE } from '../../src/netlify/edge/bundle.js';
import { currentRelease } from '../../src/release/layout.js';
import { readManifestSync } from '../../src/release/manifest.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { ALL_CASES } from '../api/contract-suite.js';
import { NOW, buildApiStore } from '../api/helpers/api-store.js';
import type { EdgeAnswer, EdgeCase, EdgeRun } from '../helpers/deno-edge.js';
import { denoBinary, runOnDeno } from '../helpers/deno-edge.js';
import { NetlifyCdn, ORIGIN } from '../helpers/netlify-cdn.js';
import { buildInto } from '../publish/helpers.js';

const deno = denoBinary();

type EdgeModule = {
  default: (request: Request, context: object) => Promise<URL | Response | undefined>;
  config: { path: string[] };
};

/** The same request through the module under Node, with the same clock. */
async function onNode(edge: EdgeModule, c: EdgeCase): Promise<EdgeAnswer> {
  let request: Request;
  try {
    request = new Request(c.url, { method: c.method ?? 'GET', headers: c.headers ?? {} });
  } catch (err) {
    return { kind: 'invalid', error: String(err) };
  }
  const pathname = new URL(request.url).pathname;
  if (!edge.config.path.some((p) => (p.endsWith('/*') ? pathname.startsWith(p.slice(0, -1)) : pathname === p)))
    return { kind: 'not-invoked' };
  if (c.now !== undefined) vi.spyOn(Date, 'now').mockReturnValue(c.now);
  try {
    const out = await edge.default(request, {});
    return out === undefined
      ? { kind: 'pass' }
      : out instanceof URL
        ? { kind: 'rewrite', url: out.href }
        : { kind: 'response', status: out.status };
  } finally {
    vi.restoreAllMocks();
  }
}

describe.skipIf(!deno)(
  `the edge router on Deno${deno ? '' : ' (skipped: the deno package installed no binary)'}`,
  () => {
    let db: string;
    let store: StoreReader;
    let release: string;
    let cdn: NetlifyCdn;
    let edge: EdgeModule;
    let cases: EdgeCase[];
    let run: EdgeRun;

    beforeAll(async () => {
      db = await buildApiStore();
      release = currentRelease((await buildInto(db, undefined, { router: 'edge' })).out)!;
      store = StoreReader.open(db);
      cdn = await NetlifyCdn.open(release);
      edge = (await import(pathToFileURL(path.join(release, EDGE_FILE)).href)) as EdgeModule;
      const now = NOW.getTime();
      const manifest = readManifestSync(path.join(release, 'manifest.ndjson'));
      cases = [
        // The contract's requests, at the contract's clock (its date-less scoreboard is 2026-03-21's).
        ...ALL_CASES.map((c) => ({ method: c.method, url: `${ORIGIN}${c.url}`, headers: c.headers, now })),
        // Every pre-rendered request and alias, and a direct request for a file.
        ...manifest.flatMap((e) => [e.request, ...e.aliases].map((url) => ({ url: `${ORIGIN}${url}`, now }))),
        { url: `${ORIGIN}/${manifest[0]!.file}`, now },
      ];
      run = runOnDeno(deno!, release, cases);
    }, 120_000);
    afterAll(() => store?.close());

    it('is the module Netlify would deploy: its config names the API paths and the files', () => {
      expect(run.config).toEqual({ path: ['/get/*', '/openapi.json', '/_s/*'], onError: 'bypass' });
      expect(run.answers).toHaveLength(cases.length);
      expect(run.answers.filter((a) => a.kind === 'error')).toEqual([]);
    });

    it('answers every request as it does under Node', async () => {
      // A URL neither runtime accepts is compared by that alone: their messages differ.
      const same = (a: EdgeAnswer) => (a.kind === 'invalid' ? { kind: 'invalid' } : a);
      for (const [i, c] of cases.entries())
        expect(same(run.answers[i]!), `${c.method ?? 'GET'} ${c.url}`).toEqual(same(await onNode(edge, c)));
    });

    it('rewrites only to files that Netlify serves, each holding the dynamic answer with its headers', async () => {
      let rewritten = 0;
      let passed = 0;
      for (const [i, c] of cases.entries()) {
        const a = run.answers[i]!;
        const label = `${c.method ?? 'GET'} ${c.url}`;
        if (a.kind === 'pass') passed++;
        if (a.kind !== 'rewrite') continue;
        const to = new URL(a.url);
        expect(to.origin, label).toBe(ORIGIN);
        if (to.pathname.startsWith('/_unrouted/')) {
          // A direct request for a file: the rules give it to the fallback, as any path outside the API.
          expect((await cdn.rules(new Request(to))).kind, label).toBe('function');
          continue;
        }
        rewritten++;
        const served = await cdn.rules(new Request(to, { method: c.method ?? 'GET', headers: c.headers }), 'edge');
        expect(served.kind === 'file' && `/${served.file}`, label).toBe(to.pathname);
        if (served.kind !== 'file') continue;
        const asked = new URL(c.url);
        const dynamic = render(
          {
            method: c.method ?? 'GET',
            path: asked.pathname,
            rawQuery: asked.search.slice(1),
            headers: c.headers ?? {},
          },
          { store, clock: () => NOW },
        );
        expect(served.response.status, label).toBe(dynamic.status);
        expect(served.response.body.equals(dynamic.body), `${label}: body`).toBe(true);
        for (const h of ['Cache-Control', 'Content-Type', 'Access-Control-Allow-Origin', 'ETag'])
          expect(served.response.headers[h], `${label}: ${h}`).toBe(dynamic.headers[h]);
      }
      expect(rewritten).toBeGreaterThan(200);
      expect(passed).toBeGreaterThan(50);
    });

    it("rewrites the date-less scoreboard to the request's day, at the day boundary too", () => {
      const at = (instant: string): EdgeCase => ({
        url: `${ORIGIN}/get/soccer/eng.1/scoreboard`,
        now: Date.parse(instant),
      });
      const days = runOnDeno(deno!, release, [
        at('2026-03-21T23:59:59.999Z'),
        at('2026-03-22T00:00:00Z'),
        at('2026-03-23T12:00:00Z'),
        at('2026-03-24T00:00:00Z'),
      ]).answers.map((a) => (a.kind === 'rewrite' ? new URL(a.url).pathname : a.kind));
      const file = (day: string) => `/_s/get/soccer/eng.1/scoreboard/dates-${day}.json`;
      for (const day of ['20260321', '20260322', '20260323'])
        expect(fs.existsSync(path.join(release, file(day))), file(day)).toBe(true);
      // The snapshot is 2026-03-22: yesterday, today and tomorrow have files; the 24th is the fallback's.
      expect(days).toEqual([file('20260321'), file('20260322'), file('20260323'), 'pass']);
    });
  },
);
