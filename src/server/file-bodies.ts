/**
 * Bodies of pre-rendered files, and their gzip/brotli variants, held in memory within one byte
 * budget. Entries are keyed by the file's ETag — the hash of its exact bytes — not by release
 * and path: a body can then only ever be sent with the ETag of its own bytes, whichever release
 * the request resolved to, and the many files a new release leaves unchanged stay hot across a
 * publish. Variants are made once, on the first request that accepts them, and held whenever they
 * fit: making one again costs a compression, a body only a read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { HeldBuffer } from '../util/byte-lru.js';
import { ByteLru, exactBuffer } from '../util/byte-lru.js';
import type { Coding } from './compress.js';
import { compress } from './compress.js';
import type { ReleaseIndex } from './release-index.js';

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** A body, and the memory's item holding it (null when it is not held: too large, or no memory). */
export interface Body {
  bytes: Buffer;
  held: HeldBuffer | null;
}

export class FileBodies {
  private readonly lru: ByteLru;

  constructor(budgetBytes = DEFAULT_CACHE_BYTES) {
    this.lru = new ByteLru(budgetBytes);
  }

  /** The bytes it may hold in all. */
  get budget(): number {
    return this.lru.budget;
  }

  get held(): { items: number; bytes: number } {
    return { items: this.lru.size, bytes: this.lru.bytes };
  }

  /** File `n` of the release in `dir`, or null when its bytes are not what the manifest says. */
  body(dir: string, index: ReleaseIndex, n: number): Body | null {
    const etag = index.etag(n);
    const held = this.lru.entry(etag);
    if (held?.value) return { bytes: held.value, held };
    let bytes: Buffer;
    try {
      bytes = exactBuffer(fs.readFileSync(path.join(dir, index.file(n))));
    } catch {
      return null;
    }
    if (bytes.length !== index.bytes(n)) return null;
    return { bytes, held: this.lru.set(etag, bytes) };
  }

  /** File `n` in a content coding, compressed the first time it is asked for. */
  encoded(dir: string, index: ReleaseIndex, n: number, coding: Coding): Body | null {
    const key = `${index.etag(n)} ${coding}`;
    const held = this.lru.entry(key);
    if (held?.value) return { bytes: held.value, held };
    const body = this.body(dir, index, n);
    if (body === null) return null;
    const bytes = exactBuffer(compress(body.bytes, coding));
    return { bytes, held: this.lru.set(key, bytes, true) };
  }
}
