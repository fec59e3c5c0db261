import { createHash } from 'node:crypto';

/** Content hash used for change detection in the store and for ETags. */
export function contentHash(...parts: Array<string | Buffer>): string {
  const h = createHash('sha1');
  for (const p of parts) {
    h.update(p);
    h.update('\0');
  }
  return h.digest('base64url');
}
