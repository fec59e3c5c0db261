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
