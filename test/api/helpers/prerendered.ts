/** Every request the route table says to pre-render, as a URL, rendered in process. */
import { render } from '../../../src/api/render.js';
import type { ApiResponse } from '../../../src/api/render.js';
import { formatQuery } from '../../../src/api/query.js';
import type { AnyRoute, PrerenderRequest } from '../../../src/api/route.js';
import { routePath } from '../../../src/api/route.js';
import { ROUTES } from '../../../src/api/routes.js';
import type { StoreReader } from '../../../src/store/read/reader.js';
import type { Clock } from '../../../src/util/time.js';

export const urlOf = (route: AnyRoute, req: PrerenderRequest) => routePath(route, req.params) + formatQuery(req.query);

export function* prerendered(store: StoreReader): Generator<{ route: AnyRoute; url: string }> {
  for (const route of ROUTES) {
    for (const req of route.prerender?.(store, route) ?? []) yield { route, url: urlOf(route, req) };
  }
}

export function renderUrl(store: StoreReader, clock: Clock, url: string): ApiResponse {
  const q = url.indexOf('?');
  return render(
    { method: 'GET', path: q === -1 ? url : url.slice(0, q), rawQuery: q === -1 ? '' : url.slice(q + 1), headers: {} },
    { store, clock },
  );
}
