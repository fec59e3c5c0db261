/**
 * The server's static-first lookup. A request is answered from a pre-rendered file when its
 * request key (route + validated parameters, api/resolve.ts) is one the published manifest lists;
 * the key is what the handler sees, so the file is exactly the dynamic answer. Headers come from
 * the manifest, not from the file system, and the response is finished as the render core's is.
 *
 * Each request resolves the published release once (`dist` is a symlink swapped atomically) and
 * reads both the manifest entry and the file from that release, so a response never mixes two
 * builds; a newly published release is noticed on the next request, without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORS } from '../api/headers.js';
import type { ApiRequest } from '../api/render.js';
import type { Resolution } from '../api/resolve.js';
import type { ApiResponse } from '../api/respond.js';
import { finishResponse } from '../api/respond.js';
import type { ManifestEntry } from '../publish/manifest.js';
import { readManifestSync } from '../publish/manifest.js';
import { STATIC_PREFIX } from '../publish/plan.js';
import { MANIFEST_FILE } from '../publish/release.js';

export interface StaticLookup {
  /** A pre-rendered answer for exactly this (already resolved) request, or null to render it. */
  lookup(req: ApiRequest, resolution: Resolution): ApiResponse | null;
  readonly description: string;
}

export const NO_STATIC_BUILD: StaticLookup = {
  lookup: () => null,
  description: 'no build: every request is rendered dynamically',
};
import { FRONT_DOOR_FILE } from '../frontdoor/paths.js';

interface LoadedRelease {
  id: string;
  dir: string;
  index: Map<string, ManifestEntry>;
  files: number;
}

/** Never read outside the release: manifest paths are plain relative paths under `_s/`, or the front door. */
const safeFile = (file: string) =>
  (file.startsWith(`${STATIC_PREFIX}/`) || file === FRONT_DOOR_FILE) &&
  !file.split('/').some((s) => s === '' || s === '.' || s === '..') &&
  !file.includes('\\');

export class StaticBuild implements StaticLookup {
  private loaded: LoadedRelease | null = null;

  constructor(readonly dir: string) {}

  get description(): string {
    const r = this.current();
    return r
      ? `static build ${path.basename(r.dir)} in ${this.dir} (${r.files} files)`
      : `no build in ${this.dir} yet: rendering dynamically until one is published`;
  }

  /** The directory `dir` stands for now, every link resolved: this request's release. */
  private releaseDir(): string | null {
    try {
      return fs.realpathSync.native(this.dir);
    } catch {
      return null;
    }
  }

  private current(): LoadedRelease | null {
    const dir = this.releaseDir();
    const st = dir ? fs.statSync(path.join(dir, MANIFEST_FILE), { throwIfNoEntry: false }) : undefined;
    if (!dir || !st) {
      this.loaded = null;
      return null;
    }
    const id = `${dir}\0${st.ino}\0${st.mtimeMs}\0${st.size}`;
    if (this.loaded?.id === id) return this.loaded;
    try {
      const index = new Map<string, ManifestEntry>();
      let files = 0;
      for (const entry of readManifestSync(path.join(dir, MANIFEST_FILE))) {
        if (!safeFile(entry.file) || entry.status !== 200) continue;
        files++;
        for (const key of entry.keys) index.set(key, entry);
      }
      this.loaded = { id, dir, index, files };
    } catch {
      // A release being pruned under us: answer dynamically until the next request looks again.
      this.loaded = null;
    }
    return this.loaded;
  }

  lookup(req: ApiRequest, resolution: Resolution): ApiResponse | null {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const key = resolution.kind === 'resolved' ? resolution.request.key : null;
    if (key === null) return null;
    const release = this.current();
    const entry = release?.index.get(key);
    if (!release || !entry) return null;
    let body: Buffer;
    try {
      body = fs.readFileSync(path.join(release.dir, entry.file));
    } catch {
      return null;
    }
    if (body.length !== entry.bytes) return null;
    // The render core's header set and order; finishing adds the ETag and answers If-None-Match.
    const headers = { 'Content-Type': entry.contentType, 'Cache-Control': entry.cacheControl, ...CORS };
    return finishResponse(req, 200, headers, body, entry.etag);
  }
}
