/** Every request the route table says to pre-render, as a URL, rendered in process. */
import { render } from '../../../src/api/render.js';
import type { ApiResponse } from '../../../src/api/render.js';
import { formatQuery } from '../../../src/api/query.js';
import type { AnyRoute, PrerenderRequest } from '../../../src/api/route.js';
import { eachRequest, routePath } from '../../../src/api/route.js';
import { ROUTES } from '../../../src/api/routes.js';
import { StoreReader } from '../../../src/store/read/reader.js';
import { expect } from 'vitest';
import { clock } from './api-store.js';
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
