/**
 * One file of a build: render its request and place its bytes in the new release. The same code
 * runs in the build's own thread and in its render workers (render-worker.ts).
 */
import { render } from '../../app/render.js';
import { ROUTES_BY_NAME } from '../../app/routes.js';
import type { StoreReader } from '../../store/read/reader.js';
import type { Clock } from '../../util/time.js';
import type { FilePlacer, Placed } from '../place/place.js';
import type { RecycledFile } from '../reuse/recycle.js';
import { formatQuery } from '../../api/query.js';
import type { ManifestEntry } from '../../release/manifest.js';
import type { PlannedFile } from '../plan/plan.js';

/** Plain data, so it crosses to a worker as is. */
export interface RenderJob {
  file: string;
  route: string;
  path: string;
  rawQuery: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  key: string;
  /** What the published release's manifest says of this file, if anything. */
  before: { etag: string; bytes: number } | null;
  /** What a recycled release (recycle.ts) holds at the file's path, if anything. */
  recycled: RecycledFile | null;
  /** Its place among the jobs a render pool was sent, when the build's own thread may take it over (render-pool.ts). */
  seq?: number;
}

export type JobResult =
  | {
      ok: true;
      status: number;
      etag: string;
      cacheControl: string;
      contentType: string;
      bytes: number;
      placed: Placed;
      /** Whether the bytes differ from the published release's file, or it had none (its cache tag is purged). */
      bytesChanged: boolean;
    }
  | { ok: false; error: string };

export async function runJob(job: RenderJob, store: StoreReader, clock: Clock, placer: FilePlacer): Promise<JobResult> {
  const route = ROUTES_BY_NAME.get(job.route);
  if (!route) return { ok: false, error: `${job.path}: unknown route ${job.route}` };
  const req = { method: 'GET', path: job.path, rawQuery: job.rawQuery, headers: {} };
  const request = { route, params: job.params, query: job.query, key: job.key };
  // Only ETag, Cache-Control and Content-Type are recorded: the shared-cache headers are the server's to add.
  const res = render(req, { store, clock, sharedCache: false }, { kind: 'resolved', route, request });
  const { ETag: etag, 'Cache-Control': cacheControl, 'Content-Type': contentType } = res.headers;
  const url = job.rawQuery ? `${job.path}?${job.rawQuery}` : job.path;
  if (res.status !== 200 || !etag || !cacheControl || !contentType) {
    return { ok: false, error: `${url}: rendered ${res.status} ${res.body.toString('utf8').slice(0, 200)}` };
  }
  try {
    const placed = await placer.place(job.file, res.body, etag, job.before, job.recycled);
    const bytes = res.body.length;
    // A full build rewrites every file (`changed`), whether or not its bytes differ: the manifest says.
    const same = job.before !== null && job.before.etag === etag && job.before.bytes === bytes;
    const bytesChanged = placed === 'added' || (placed === 'changed' && !same);
    return { ok: true, status: res.status, etag, cacheControl, contentType, bytes, placed, bytesChanged };
  } catch (err) {
    return { ok: false, error: `${job.file}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The job that renders a planned file (resolved when it was planned), with what the published release says of it. */
export function jobOf(file: PlannedFile, before: ManifestEntry | null, recycled: RecycledFile | null): RenderJob {
  const { path: urlPath, query } = file.request;
  if (!file.resolved) throw new Error(`${file.file}: rendered without resolving its request`);
  return {
    file: file.file,
    route: file.route.name,
    path: urlPath,
    rawQuery: formatQuery(Object.fromEntries(query)).slice(1),
    params: file.resolved.params,
    query: file.resolved.query,
    key: file.resolved.key!,
    before: before && { etag: before.etag, bytes: before.bytes },
    recycled,
  };
}
