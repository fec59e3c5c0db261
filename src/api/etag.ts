/**
 * The strong ETag of a body: XXH128 of its exact bytes, base64url, quoted.
 *
 * Every 200 is hashed — each file of a build and each dynamic answer — so the hash is a measurable
 * share of both, and XXH128 (WebAssembly) costs a fraction of what SHA-1, the fastest hash
 * node:crypto offers here, does (docs/performance.md). An ETag needs no cryptographic strength,
 * only that two different bodies practically never share one: the build reuses the previous
 * release's file when ETag and size match (publish/place.ts), and the server's body cache is keyed
 * by ETag. With 128 bits an accidental collision is out of reach.
 *
 * Kept apart from headers.ts: the edge router bundles that for Deno, and never makes an ETag.
 */
import { createXXHash128 } from 'hash-wasm';

// Loaded once per thread before any response is finished; the hasher is used synchronously after.
const hasher = await createXXHash128();

export function etagOf(body: Uint8Array): string {
  const digest = hasher.init().update(body).digest('binary');
  return `"${Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString('base64url')}"`;
}
