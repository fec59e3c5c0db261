import { createHash } from 'node:crypto';

/** The store's content hash, by which a sync tells a changed record from an unchanged one. ETags: api/etag.ts. */
export function contentHash(...parts: Array<string | Buffer>): string {
  const h = createHash('sha1');
  for (const p of parts) {
    h.update(p);
    h.update('\0');
  }
  return h.digest('base64url');
}

/**
 * contentHash of parts already joined as UTF-8 bytes, each followed by a NUL: `hashJoined(a\0b\0)`
 * equals `contentHash(a, b)`. One update instead of two per part, for streams of many small parts.
 */
export function hashJoined(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64url');
}
