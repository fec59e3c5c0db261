/**
 * Large provider JSON (summaries, play streams) is stored compressed: raw deflate at level 6 keeps
 * a summary at about an eighth of its size and inflates at close to a gigabyte a second, so the
 * store stays small enough to ship with the fallback function and reads stay cheap.
 */
import zlib from 'node:zlib';

export function packJson(text: string): Buffer {
  return zlib.deflateRawSync(Buffer.from(text, 'utf8'), { level: 6 });
}

export function unpackJson(blob: Buffer): string {
  return zlib.inflateRawSync(blob).toString('utf8');
}

/** The stored JSON as UTF-8 bytes, for passing through without decoding it (util/json-spans.ts). */
export function unpackBytes(blob: Buffer): Buffer {
  return zlib.inflateRawSync(blob);
}
