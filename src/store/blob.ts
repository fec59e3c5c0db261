/**
 * Large provider JSON (summaries, play streams, a match's record) is stored compressed, so the store
 * stays within 1.2 × the gzip size of what it holds (docs/performance.md, "The store"), small enough
 * to ship with the fallback function, and reads stay cheap. Blobs are Brotli at quality 6 behind a
 * one-byte tag: at ESPN's weight a summary packs to ~5.6 % of its JSON where raw deflate at level 6,
 * which earlier stores hold, gave ~7.4 % (play streams 4.5 against 5.8 %), and both inflate at about
 * the same speed. A blob without the tag is raw deflate, as every store before schema 12 wrote it:
 * the tag byte, 0x06, starts no raw deflate stream (its block type would be 3, which is reserved),
 * so every blob ever stored still reads.
 */
import zlib from 'node:zlib';
import { objectSpans } from '../util/json-spans.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACKET } from '../util/json-bytes.js';
import { hashJoined } from '../util/hash.js';

/** The first byte of a Brotli blob; never the first byte of raw deflate (BTYPE 11 is reserved). */
export const BROTLI_TAG = 0x06;
const TAG = Buffer.of(BROTLI_TAG);
const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT, BROTLI_PARAM_MODE, BROTLI_MODE_TEXT } = zlib.constants;

export function packJson(text: string | Buffer): Buffer {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const packed = zlib.brotliCompressSync(bytes, {
    params: {
      [BROTLI_PARAM_QUALITY]: 6,
      [BROTLI_PARAM_MODE]: BROTLI_MODE_TEXT,
      [BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  return Buffer.concat([TAG, packed], packed.length + 1);
}

export function unpackJson(blob: Buffer): string {
  return unpackBytes(blob).toString('utf8');
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
  const brotli = blob.length > 0 && blob[0] === BROTLI_TAG;
  const packed = brotli ? blob.subarray(1) : blob;
  const inflate = brotli ? zlib.brotliDecompressSync : zlib.inflateRawSync;
  if (size === undefined || !(size >= 0)) return inflate(packed);
  // One byte to spare: output that fills the buffer exactly makes zlib allocate another to look for more.
  return inflate(packed, { chunkSize: Math.min(Math.max(zlib.constants.Z_MIN_CHUNK, size + 1), MAX_CHUNK) });
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
 * Records as a stream is stored (`streamOf`), from their JSON texts, with the stream's content hash,
 * `contentHash(head, ...texts)` — the texts encoded once for both: hashed NUL-separated, and the
 * separators then become the array's brackets and commas.
 */
export function streamOfTexts(head: string, texts: readonly string[]): { bytes: Buffer; ends: Buffer; hash: string } {
  if (head.length !== 1 || head.charCodeAt(0) > 0x7f) throw new Error('a stream head is one ASCII character');
  if (texts.length === 0) return { ...streamOf([]), hash: hashJoined(Buffer.from(`${head}\0`)) };
  // [head, NUL, t0, NUL, t1, …, NUL], hashed; then from the first NUL on: [`[`, t0, `,`, t1, …, `]`].
  const { bytes: all, lengths } = encodeJoined(`${head}\0`, texts, () => 0, 0);
  const hash = hashJoined(all);
  const ends = packEnds(lengths);
  const bytes = all.subarray(1);
  bytes[0] = OPEN_BRACKET;
  for (let i = 0; i < texts.length - 1; i++) bytes[ends.readUInt32LE(4 * i)] = COMMA;
  bytes[bytes.length - 1] = CLOSE_BRACKET;
  return { bytes, ends, hash };
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

/**
 * A summary's sections serialized as JSON.stringify would serialize the object holding them in this
 * order (`{"a":…,"b":…}`), as UTF-8 bytes, with their spans as `packSpans` gives them — taken while
 * encoding the sections instead of scanning the bytes afterwards. Every section is JSON data (no
 * undefined, functions or toJSON at the top).
 */
export function sectionsJson(sections: ReadonlyArray<readonly [string, string]>): {
  bytes: Buffer;
  spans: string;
} {
  const texts = sections.flatMap(([key, json]) => [`${JSON.stringify(key)}:`, json]);
  const { bytes, lengths } = encodeJoined('{', texts, (i) => (i % 2 === 0 ? -1 : COMMA), CLOSE_BRACE);
  const spans: Record<string, [number, number]> = {};
  let at = 1;
  sections.forEach(([key], i) => {
    const start = at + lengths[2 * i]!;
    at = start + lengths[2 * i + 1]!;
    spans[key] = [start, at];
    at += 1;
  });
  return { bytes, spans: JSON.stringify(spans) };
}

const encoder = new TextEncoder();

/**
 * `open`, the texts and `close` as UTF-8 bytes, with `separator(i)` (a byte; -1 for none) after each
 * text but the last, encoded in one pass, and each text's byte length.
 */
function encodeJoined(
  open: string,
  texts: readonly string[],
  separator: (i: number) => number,
  close: number,
): { bytes: Buffer; lengths: number[] } {
  let cap = open.length * 3 + 1 + texts.length;
  for (const t of texts) cap += 3 * t.length;
  const out = Buffer.allocUnsafe(cap);
  let at = encoder.encodeInto(open, out).written;
  const lengths = new Array<number>(texts.length);
  texts.forEach((t, i) => {
    const n = encoder.encodeInto(t, out.subarray(at)).written;
    lengths[i] = n;
    at += n;
    const sep = i < texts.length - 1 ? separator(i) : -1;
    if (sep >= 0) out[at++] = sep;
  });
  out[at++] = close;
  return { bytes: out.subarray(0, at), lengths };
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
