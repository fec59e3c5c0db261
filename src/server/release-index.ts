/**
 * A release's manifest reduced to what answering a request needs: request key → file number, and
 * per file its path, ETag, size and header set. Requests, aliases and whole entries are dropped,
 * and the few distinct header sets (a handful of Cache-Control values, one Content-Type) are
 * shared, so the index costs tens of bytes per file beyond its keys and paths.
 */
import path from 'node:path';
import { CORS } from '../api/headers.js';
import type { ManifestEntry } from '../release/manifest.js';
import { STATIC_PREFIX } from '../release/file-name.js';
import { FRONT_DOOR_FILE } from '../frontdoor/paths.js';
import { MANIFEST_FILE } from '../release/layout.js';
import { linesSync } from '../util/lines.js';

/**
 * Never read outside the release: manifest paths are plain relative paths under the static prefix,
 * every segment non-empty and neither `.` nor `..`, with no backslash or NUL.
 */
const SAFE_FILE = new RegExp(`^${STATIC_PREFIX}(?:/(?!\\.\\.?(?:/|$))[^/\\\\\\0]+)+$`);
/** Never read outside the release: plain relative paths under `_s/`, or the front door. */
const safeFile = (file: unknown): file is string =>
  typeof file === 'string' && (SAFE_FILE.test(file) || file === FRONT_DOOR_FILE);

/** Values that can go into a response header as they are (a damaged manifest must not make a 500). */
const headerSafe = (v: unknown): v is string => typeof v === 'string' && /^[\x20-\x7e]*$/.test(v);
const etagSafe = (v: unknown): v is string => headerSafe(v) && /^"[^"]*"$/.test(v);

/** The headers `fds serve` sends with every file from its manifest line (static-lookup.ts adds the route's). */
export const manifestHeaders = (contentType: string, cacheControl: string): Record<string, string> => ({
  'Content-Type': contentType,
  'Cache-Control': cacheControl,
  ...CORS,
});

export class ReleaseIndex {
  private readonly byKey = new Map<string, number>();
  private readonly paths: string[] = [];
  private readonly etags: string[] = [];
  private readonly sizes: number[] = [];
  private allBytes = 0;
  private readonly headerIds: number[] = [];
  /** Frozen: a response copies one, never changes it. */
  private readonly headerSets: Readonly<Record<string, string>>[] = [];

  /** Read `dir`'s manifest; throws when it cannot be read (a release being pruned), skips entries it cannot trust. */
  static load(dir: string): ReleaseIndex {
    const index = new ReleaseIndex();
    const interned = new Map<string, number>();
    for (const line of linesSync(path.join(dir, MANIFEST_FILE))) {
      if (!line) continue;
      const e = JSON.parse(line) as Partial<ManifestEntry>;
      if (e.status !== 200 || !safeFile(e.file) || !etagSafe(e.etag) || !Array.isArray(e.keys)) continue;
      if (!Number.isSafeInteger(e.bytes) || (e.bytes as number) < 0) continue;
      const set = `${e.contentType}\n${e.cacheControl}`;
      let headerId = interned.get(set);
      if (headerId === undefined) {
        // Checked once per distinct set: -1 marks one that cannot be sent.
        const safe = headerSafe(e.contentType) && headerSafe(e.cacheControl);
        headerId = safe ? index.headerSets.length : -1;
        interned.set(set, headerId);
        if (safe)
          index.headerSets.push(Object.freeze(manifestHeaders(e.contentType as string, e.cacheControl as string)));
      }
      if (headerId < 0) continue;
      const n = index.paths.length;
      index.paths.push(e.file);
      index.etags.push(e.etag);
      index.sizes.push(e.bytes as number);
      index.allBytes += e.bytes as number;
      index.headerIds.push(headerId);
      for (const key of e.keys) if (typeof key === 'string') index.byKey.set(key, n);
    }
    return index;
  }

  get files(): number {
    return this.paths.length;
  }

  /** The bytes of all its files. */
  get totalBytes(): number {
    return this.allBytes;
  }

  /** The file answering a request key, or -1. */
  find(key: string): number {
    return this.byKey.get(key) ?? -1;
  }

  file(n: number): string {
    return this.paths[n]!;
  }

  etag(n: number): string {
    return this.etags[n]!;
  }

  bytes(n: number): number {
    return this.sizes[n]!;
  }

  /** The render core's header set and order for this file, without the ETag. */
  headers(n: number): Readonly<Record<string, string>> {
    return this.headerSets[this.headerIds[n]!]!;
  }
}
