/**
 * Large provider JSON (summaries, play streams) is stored compressed: raw deflate at level 6 keeps
 * a summary at about an eighth of its size and inflates at close to a gigabyte a second, so the
 * store stays small enough to ship with the fallback function and reads stay cheap.
 */
import zlib from 'node:zlib';
import { objectSpans } from '../util/json-spans.js';
import { CLOSE_BRACKET, COMMA, OPEN_BRACKET } from '../util/json-bytes.js';

export function packJson(text: string | Buffer): Buffer {
  return zlib.deflateRawSync(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, { level: 6 });
}

export function unpackJson(blob: Buffer): string {
  return zlib.inflateRawSync(blob).toString('utf8');
}

/** No single buffer beyond this is asked for on a stored size's word. */
const MAX_CHUNK = 1 << 26;

/**
 * The stored JSON as UTF-8 bytes, for passing through without decoding it (util/json-spans.ts).
 * `size`, when what is stored beside the blob tells it (`summarySize`, `streamSize`), lets zlib
 * inflate into one buffer that holds it all, instead of 16 KB chunks concatenated afterwards, which
 * is markedly faster for summaries and play streams (docs/performance.md). A wrong size costs only
 * that gain.
 */
export function unpackBytes(blob: Buffer, size?: number): Buffer {
  if (size === undefined || !(size >= 0)) return zlib.inflateRawSync(blob);
  // One byte to spare: output that fills the buffer exactly makes zlib allocate another to look for more.
  return zlib.inflateRawSync(blob, { chunkSize: Math.min(Math.max(zlib.constants.Z_MIN_CHUNK, size + 1), MAX_CHUNK) });
}

/**
 * Where each element of a stored JSON array ends, as little-endian 32-bit byte offsets: element i
 * spans [end(i-1) + 1, end(i)) of the array's bytes (the first starts after the `[`). Stored beside
 * a play stream, so a page is sliced out of it without scanning the stream.
 */
export function packEnds(byteLengths: readonly number[]): Buffer {
  const ends = Buffer.alloc(4 * byteLengths.length);
  let at = 0;
  byteLengths.forEach((n, i) => {
    at += 1 + n;
    ends.writeUInt32LE(at, 4 * i);
  });
  return ends;
}

/**
 * Records as a stream is stored: one JSON array of them, separated by single commas (the bytes a
 * page slices), and where each ends in it (`packEnds`). Not yet compressed.
 */
export function streamOf(records: readonly Uint8Array[]): { bytes: Buffer; ends: Buffer } {
  const ends = packEnds(records.map((r) => r.length));
  const bytes = Buffer.allocUnsafe(streamSize(ends)!);
  bytes[0] = OPEN_BRACKET;
  let at = 1;
  records.forEach((r, i) => {
    if (i) bytes[at++] = COMMA;
    bytes.set(r, at);
    at += r.length;
  });
  bytes[at] = CLOSE_BRACKET;
  return { bytes, ends };
}

/** The span [start, end) of element `i` from `packEnds`' offsets, or undefined past the end. */
export function spanAt(ends: Buffer, i: number): [number, number] | undefined {
  if (i < 0 || 4 * i >= ends.length) return undefined;
  const end = ends.readUInt32LE(4 * i);
  return [i === 0 ? 1 : ends.readUInt32LE(4 * (i - 1)) + 1, end];
}

/**
 * Where each section of a summary lies in its JSON bytes (util/json-spans.ts `objectSpans`), as the
 * text stored beside it: `{"name":[start,end],…}`. A render slices the sections out with it instead
 * of scanning the whole summary.
 */
export function packSpans(json: Uint8Array): string {
  return JSON.stringify(Object.fromEntries(objectSpans(json)));
}

/** The spans `packSpans` stored, as text. */
export function spansOf(text: string): Map<string, [number, number]> {
  return new Map(Object.entries(JSON.parse(text) as Record<string, [number, number]>));
}

/** The byte length of a summary's JSON, from its stored spans: the last section's end, then the closing brace. */
export function summarySize(spans: ReadonlyMap<string, readonly [number, number]>): number | undefined {
  let end = -1;
  for (const [, e] of spans.values()) if (e > end) end = e;
  return end < 0 ? undefined : end + 1;
}

/** The byte length of a play stream's JSON array, from its stored ends (`packEnds`): the last play's end, then `]`. */
export function streamSize(ends: Buffer | null): number | undefined {
  if (!ends) return undefined;
  const last = spanAt(ends, ends.length / 4 - 1);
  return last ? last[1] + 1 : 2;
}
