/**
 * The API contract (docs/json-api.md) as one suite of cases, run against any target: every case
 * checks status, error text and headers, and every 200 body is validated against the generated
 * OpenAPI document. Each target file calls `contractSuite` with its factory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiStore } from './helpers/api-store.js';
import { responseComponent, schemaErrors } from './helpers/openapi.js';
import type { Target, TargetFactory, TargetResponse } from './helpers/targets.js';
import type { ContractCase } from './cases/types.js';
import { json } from './cases/types.js';
import { GENERAL_CASES, GENERAL_FLOWS } from './cases/general.js';
import { CATALOG_CASES } from './cases/catalog.js';
import { MATCH_LIST_CASES } from './cases/match-lists.js';
import { MATCH_CASES, MATCH_FLOWS } from './cases/match.js';
import { CLUB_CASES } from './cases/clubs.js';
import { HEALTH_CASES, STORELESS_CASES } from './cases/health.js';

export const ALL_CASES: readonly ContractCase[] = [
  ...GENERAL_CASES,
  ...CATALOG_CASES,
  ...MATCH_LIST_CASES,
  ...MATCH_CASES,
  ...CLUB_CASES,
  ...HEALTH_CASES,
];

/** What every answer must satisfy, whatever the request. */
export function expectCommon(c: Pick<ContractCase, 'method' | 'url'>, res: TargetResponse): void {
  expect(res.headers['access-control-allow-origin']).toBe('*');
  if (res.status === 204 || res.status === 304) {
    expect(res.body.length).toBe(0);
    return;
  }
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  if (c.method === 'HEAD') {
    expect(res.body.length).toBe(0);
    return;
  }
  const body = json(res) as Record<string, unknown>;
  const path = c.url.split('?')[0]!;
  if (res.status === 503 && /^\/(api\/)?health$/.test(path)) {
    // Unhealthy keeps the health shape (docs/json-api.md); every other error is `{error}`.
    expect(schemaErrors('Health', body)).toEqual([]);
    expect(res.headers['cache-control']).toBe('no-store');
  } else if (res.status >= 400) {
    expect(Object.keys(body)).toEqual(['error']);
    expect(typeof body.error).toBe('string');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  }
  if (res.status === 200) {
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(schemaErrors(responseComponent(path), body)).toEqual([]);
  }
}

/**
 * What shared caches are told (docs/json-api.md, "Shared caches"): a 200 (but health's) has its
 * lifetime and names what it shows, the same tags in each CDN's header; an error is no-store for
 * them too and names nothing.
 */
export function expectSharedCache(c: Pick<ContractCase, 'url'>, res: TargetResponse): void {
  const h = res.headers;
  const health = /^\/(api\/)?health$/.test(c.url.split('?')[0]!);
  if (res.status >= 400) {
    expect(h['cdn-cache-control']).toBe('no-store');
    expect(h['netlify-cdn-cache-control']).toBe('no-store');
    expect(h['cache-tag']).toBeUndefined();
  } else if (res.status === 200 && health) {
    expect(h['cdn-cache-control']).toBeUndefined();
    expect(h['cache-tag']).toBeUndefined();
  } else if (res.status === 200) {
    expect(h['cdn-cache-control']).toMatch(/^public, s-maxage=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/);
    expect(h['netlify-cdn-cache-control']).toBe(h['cdn-cache-control']!.replace('public, ', 'public, durable, '));
    expect(h['cache-tag']).toMatch(/^[A-Za-z0-9._-]+(,[A-Za-z0-9._-]+)*$/);
    expect(h['netlify-cache-tag']).toBe(h['cache-tag']);
    expect(h['surrogate-key']).toBe(h['cache-tag']!.replaceAll(',', ' '));
    expect(h.xkey).toBe(h['surrogate-key']);
  }
}

const carriesSharedCache = (t: Target) => t.sharedCache ?? !t.name.startsWith('cdn');

export function contractSuite(factory: TargetFactory): void {
  let target: Target;
  let storeless: Target;

  beforeAll(async () => {
    target = await factory(await buildApiStore());
    storeless = await factory(null);
  });
  afterAll(async () => {
    await target?.close();
    await storeless?.close();
  });

  const run = (cases: readonly ContractCase[], get: () => Target) => {
    for (const c of cases) {
      it(`${c.method ?? 'GET'} ${c.url}: ${c.name}`, async () => {
        const res = await get().request(c.method ?? 'GET', c.url, c.headers);
        expect(res.status, res.body.toString()).toBe(c.status);
        expectCommon(c, res);
        if (c.error !== undefined) expect(json(res)).toEqual({ error: c.error });
        if (c.cache !== undefined) expect(res.headers['cache-control']).toBe(c.cache);
        if (carriesSharedCache(get())) expectSharedCache(c, res);
        c.check?.(res.status === 200 && c.method !== 'HEAD' ? json(res) : undefined, res);
      });
    }
  };

  describe('with a synced store', () => {
    run(ALL_CASES, () => target);
    for (const flow of [...GENERAL_FLOWS, ...MATCH_FLOWS]) it(flow.name, () => flow.run(target));
  });

  describe('when the store cannot be opened', () => {
    run(STORELESS_CASES, () => storeless);
  });
}
