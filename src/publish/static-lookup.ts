/**
 * The server's static-first lookup (plugs into src/server/static.ts). A request is answered from a
 * pre-rendered file when its request key (route + validated parameters, request-key.ts) is one the
 * published manifest lists; the key is what the handler sees, so the file is exactly the dynamic
 * answer. Headers come from the manifest, not from the file system, and conditional GETs are
 * answered as the render core answers them.
 *
 * Each request resolves the published release once (`dist` is a symlink swapped atomically) and
 * reads both the manifest entry and the file from that release, so a response never mixes two
 * builds; a newly published release is noticed on the next request, without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ApiRequest, ApiResponse } from '../api/render.js';
import { CORS, ifNoneMatch } from '../api/headers.js';
import type { ManifestEntry } from './manifest.js';
import { readManifestSync } from './manifest.js';
import { requestKey } from './request-key.js';
import { MANIFEST_FILE } from './release.js';
import { STATIC_PREFIX } from './plan.js';
import { FRONT_DOOR_FILE } from '../frontdoor/paths.js';

interface LoadedRelease {
  id: string;
  dir: string;
  index: Map<string, ManifestEntry>;
  files: number;
}

const EMPTY = Buffer.alloc(0);

/** Never read outside the release: manifest paths are plain relative paths under `_s/`, or the front door. */
const safeFile = (file: string) =>
  (file.startsWith(`${STATIC_PREFIX}/`) || file === FRONT_DOOR_FILE) &&
  !file.split('/').some((s) => s === '' || s === '.' || s === '..') &&
  !file.includes('\\');

function header(req: ApiRequest, name: string): string | string[] | undefined {
  if (name in req.headers) return req.headers[name];
  const key = Object.keys(req.headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : req.headers[key];
}

export class StaticBuild {
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

  lookup(req: ApiRequest): ApiResponse | null {
    if (req.method !== 'GET') return null;
    const key = requestKey(req.path, req.rawQuery);
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
    // The render core's header set and order (api/render.ts `finish`).
    const headers: Record<string, string> = {
      'Content-Type': entry.contentType,
      'Cache-Control': entry.cacheControl,
      ...CORS,
      ETag: entry.etag,
    };
    if (ifNoneMatch(header(req, 'if-none-match'), entry.etag)) {
      const { 'Content-Type': _type, ...kept } = headers;
      return { status: 304, headers: kept, body: EMPTY };
    }
    headers['Content-Length'] = String(body.length);
    return { status: 200, headers, body };
  }
}
