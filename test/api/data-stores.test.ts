/**
 * The API over the two other kinds of store it must serve: one synced from real recorded ESPN
 * responses (../shared/fixtures/espn) and a demo sync. Every pre-rendered request is a 200 that
 * matches its schema, and generated requests never get a 5xx.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../src/app/render.js';
import { openStore } from '../../src/store/db.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import { runSync } from '../../src/sync/run-sync.js';
import { FilesProvider } from '../../src/sync/providers/files.js';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import { SHARED_ESPN, tempDir } from '../helpers/store.js';
import { clock, openReader } from './helpers/api-store.js';
import { methodArb, pathArb, queryArb } from './helpers/arbitraries.js';
import { responseComponent, schemaErrors } from './helpers/openapi.js';
import { prerendered, renderUrl } from './helpers/prerendered.js';

const at = (iso: string) => () => new Date(iso);

function everyPrerenderedRequestIsValid(store: StoreReader): number {
  let n = 0;
  for (const { route, url } of prerendered(store)) {
    const res = renderUrl(store, clock, url);
    expect(res.status, url).toBe(200);
    // The front door is HTML; every other body is JSON.
    const body = route.contentType ? res.body.toString() : JSON.parse(res.body.toString());
    expect(schemaErrors(responseComponent(url.split('?')[0]!), body), url).toEqual([]);
    n++;
  }
  return n;
}

function neverFails(store: StoreReader): void {
  fc.assert(
    fc.property(methodArb, pathArb, queryArb, (method, p, rawQuery) => {
      expect(render({ method, path: p, rawQuery, headers: {} }, { store, clock }).status).toBeLessThan(500);
    }),
    { numRuns: 500 },
  );
}

describe.skipIf(!fs.existsSync(SHARED_ESPN))('a store synced from real recorded ESPN responses', () => {
  let store: StoreReader;
  beforeAll(async () => {
    const file = path.join(tempDir('fds-real-'), 'real.sqlite');
    const db = openStore(file);
    await runSync(db, new FilesProvider(SHARED_ESPN), {
      leagues: LEAGUE_SLUGS,
      concurrency: 4,
      clock: at('2026-03-22T15:00:00Z'),
    });
    db.close();
    store = openReader(file);
  });
  afterAll(() => store?.close());

  it('answers every pre-rendered request with a valid 200', () => {
    expect(everyPrerenderedRequestIsValid(store)).toBeGreaterThan(50);
  });

  it('answers 404 for plays stored without their match', () => {
    const orphan = store.db
      .prepare(
        `SELECT league_slug, match_id FROM play_streams s
         WHERE NOT EXISTS (SELECT 1 FROM matches m WHERE m.league_slug = s.league_slug AND m.id = s.match_id) LIMIT 1`,
      )
      .get() as { league_slug: string; match_id: string } | undefined;
    // The recorded responses hold such plays (eng.1 740722, mex.1 401877018): without one this tests nothing.
    expect(orphan, 'plays stored without their match').toBeDefined();
    const res = renderUrl(store, clock, `/get/soccer/${orphan!.league_slug}/events/${orphan!.match_id}/plays`);
    expect([res.status, JSON.parse(res.body.toString())]).toEqual([404, { error: 'Match not found' }]);
  });

  it('passes real summary sections through and computes availability from them', () => {
    const row = store.db.prepare('SELECT league_slug, match_id FROM match_summaries LIMIT 1').get() as
      | { league_slug: string; match_id: string }
      | undefined;
    expect(row).toBeDefined();
    const body = JSON.parse(
      renderUrl(store, clock, `/get/soccer/${row!.league_slug}/events/${row!.match_id}`).body.toString(),
    );
    expect(body.header.league.slug).toBe(row!.league_slug);
    expect(body.meta.dataAvailability.statisticsAndSummary.available).toBe(true);
  });

  it('never answers a generated request with a 5xx', () => neverFails(store));
});

describe('a demo store (one league)', () => {
  let store: StoreReader;
  beforeAll(async () => {
    const { createDemoProvider, demoReferenceInstant } = await import('../../src/sync/providers/demo/index.js');
    const file = path.join(tempDir('fds-demo-'), 'demo.sqlite');
    const db = openStore(file);
    const instant = demoReferenceInstant('20260321');
    await runSync(db, createDemoProvider({ seed: 7, today: '20260321', scale: 1, weight: 'light' }), {
      leagues: ['eng.1'],
      concurrency: 8,
      clock: () => instant,
    });
    db.close();
    store = openReader(file);
  }, 180_000);
  afterAll(() => store?.close());

  it('says it is demo data', () => {
    const meta = JSON.parse(renderUrl(store, clock, '/get/soccer/meta').body.toString());
    expect(meta.service.dataSource).toBe('demo');
    const id = store.db.prepare("SELECT id FROM matches WHERE league_slug = 'eng.1' LIMIT 1").pluck().get() as string;
    const summary = JSON.parse(renderUrl(store, clock, `/get/soccer/eng.1/events/${id}?fields=meta`).body.toString());
    expect(summary.meta.provider).toBe('demo');
  });

  it('caches a response holding a live match for 4 seconds', () => {
    const live = store.db
      .prepare("SELECT id FROM matches WHERE league_slug = 'eng.1' AND state = 'in' LIMIT 1")
      .pluck()
      .get() as string | undefined;
    // The demo always has matches in play at its reference instant: without one this tests nothing.
    expect(live, 'a live eng.1 match').toBeDefined();
    expect(renderUrl(store, clock, `/get/soccer/eng.1/events/${live}`).headers['Cache-Control']).toBe(
      'public, max-age=4',
    );
    expect(renderUrl(store, clock, '/get/soccer/eng.1/fixtures?status=live').headers['Cache-Control']).toBe(
      'public, max-age=4',
    );
  });

  it('answers every pre-rendered request with a valid 200', () => {
    expect(everyPrerenderedRequestIsValid(store)).toBeGreaterThan(500);
  }, 120_000);

  it('never answers a generated request with a 5xx', () => neverFails(store));
});
