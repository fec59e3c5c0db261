/**
 * THE render core: `render(request, deps) → {status, headers, body}` over the service's route
 * table. Pure — no fs, no http, no wall clock but the injected one — so the build, the server, the
 * edge router's files and the Netlify Function give the same bytes for the same request
 * (api/render.ts holds what it does with a resolved request).
 */
import type { ApiRequest, ApiResponse, RenderDeps } from '../api/render.js';
import { renderResolved } from '../api/render.js';
import type { Resolution } from '../api/resolve.js';
import { resolve } from './resolve.js';
import { ROUTES_BY_NAME } from './routes.js';

export type { ApiRequest, ApiResponse } from '../api/render.js';

/** What a render needs besides the request; the route table is the service's own. */
export type Deps = Omit<RenderDeps, 'routes'>;

/**
 * Render one request. A caller that has already resolved it (the server after a static-lookup
 * miss, the build from its plan) passes the resolution, so a request is parsed and validated once.
 */
export function render(
  req: ApiRequest,
  deps: Deps,
  resolution: Resolution = resolve(req.path, req.rawQuery),
): ApiResponse {
  return renderResolved(req, { ...deps, routes: ROUTES_BY_NAME }, resolution);
}
