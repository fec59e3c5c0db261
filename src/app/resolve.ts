/** Resolving a raw request against the service's route table (api/resolve.ts says what resolving decides). */
import type { Resolution } from '../api/resolve.js';
import { resolveIn } from '../api/resolve.js';
import { ROUTES } from './routes.js';

export type { Resolution, ResolvedRequest } from '../api/resolve.js';

/** Resolve a raw request: path still percent-encoded, query without the `?`. */
export function resolve(rawPath: string, rawQuery: string): Resolution {
  return resolveIn(ROUTES, rawPath, rawQuery);
}

/** The key of a raw request, or null when it is invalid, unrouted or has no key. */
export function requestKey(rawPath: string, rawQuery: string): string | null {
  const r = resolve(rawPath, rawQuery);
  return r.kind === 'resolved' ? r.request.key : null;
}
