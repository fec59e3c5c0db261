/**
 * The seam for serving pre-rendered files: the server asks its static lookup first and renders
 * dynamically only when it has no answer. Until a build exists in `--dir` (the static publisher
 * plugs its lookup in here), nothing is served from files.
 */
import type { ApiRequest, ApiResponse } from '../api/render.js';
import { StaticBuild } from '../publish/static-lookup.js';

export interface StaticLookup {
  /** A pre-rendered answer for exactly this request, or null to render it dynamically. */
  lookup(req: ApiRequest): ApiResponse | null;
  readonly description: string;
}

export const NO_STATIC_BUILD: StaticLookup = {
  lookup: () => null,
  description: 'no build: every request is rendered dynamically',
};

/** The published build in `dir` (src/publish/static-lookup.ts); it follows new builds without a restart. */
export function openStaticBuild(dir: string): StaticLookup {
  return new StaticBuild(dir);
}
