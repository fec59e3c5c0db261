/** Every request the route table says to pre-render, as a URL, rendered in process. */
import { render } from '../../../src/app/render.js';
import type { ApiResponse } from '../../../src/app/render.js';
import { formatQuery } from '../../../src/api/query.js';
import type { AnyRoute, PrerenderRequest } from '../../../src/api/route.js';
import { eachRequest, routePath } from '../../../src/api/route.js';
import { ROUTES } from '../../../src/app/routes.js';
import { StoreReader } from '../../../src/store/read/reader.js';
import { openStore } from '../../../src/store/db.js';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { clock } from './api-store.js';
import { unpackRecords } from '../../helpers/store.js';
import type { Clock } from '../../../src/util/time.js';

export const urlOf = (route: AnyRoute, req: PrerenderRequest) => routePath(route, req.params) + formatQuery(req.query);

export function* prerendered(store: StoreReader): Generator<{ route: AnyRoute; url: string }> {
  for (const route of ROUTES) {
    for (const req of eachRequest(route.prerender?.(store, route) ?? [])) yield { route, url: urlOf(route, req) };
  }
}

export function renderUrl(store: StoreReader, clock: Clock, url: string): ApiResponse {
  const q = url.indexOf('?');
  return render(
    { method: 'GET', path: q === -1 ? url : url.slice(0, q), rawQuery: q === -1 ? '' : url.slice(q + 1), headers: {} },
    { store, clock },
  );
}

/** A summary's URL, in either of its forms. */
export const isSummary = (url: string) => /\/events\/[^/?]+$|\/summary\?/.test(url);

/**
 * Every pre-rendered response of the store in `file` that `pick` keeps, then the `extra` URLs, as
 * URL → body: what a migration must leave byte for byte as it was.
 */
export function storeResponses(
  file: string,
  pick: (url: string) => boolean = () => true,
  extra: (store: StoreReader) => string[] = () => [],
): Map<string, string> {
  const store = StoreReader.open(file);
  try {
    const urls = [...prerendered(store)].map(({ url }) => url).filter(pick);
    return new Map([...urls, ...extra(store)].map((url) => [url, renderUrl(store, clock, url).body.toString('utf8')]));
  } finally {
    store.close();
  }
}

/** The same requests, each answered with the same bytes. */
export function expectSameResponses(after: Map<string, string>, before: Map<string, string>): void {
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [url, body] of before) expect(after.get(url), url).toBe(body);
}

/**
 * The store in `file` taken back to schema `version` by `undo` (dropping what that version did not
 * have yet), then opened for writing, which migrates it. The reader refuses it in between; after it,
 * `check` holds on the migrated file and the responses `pick` keeps (at least `atLeast` of them) are
 * byte for byte what they were.
 */
export function expectMigrated(opts: {
  file: string;
  version: number;
  undo: (db: Database.Database) => void;
  pick?: (url: string) => boolean;
  atLeast: number;
  check?: (db: Database.Database) => void;
}): void {
  const { file, version } = opts;
  const before = storeResponses(file, opts.pick);
  expect(before.size).toBeGreaterThan(opts.atLeast);
  const db = new Database(file);
  // Every version a test takes a store back to is before schema 12, which packed the match records.
  unpackRecords(db);
  opts.undo(db);
  db.pragma(`user_version = ${version}`);
  db.close();
  expect(() => StoreReader.open(file)).toThrow(new RegExp(`schema version ${version}\\b`));
  openStore(file).close();
  if (opts.check) {
    const after = new Database(file, { readonly: true });
    opts.check(after);
    after.close();
  }
  expectSameResponses(storeResponses(file, opts.pick), before);
}
