/**
 * Where the members of a JSON object or the elements of a JSON array lie in its UTF-8 bytes, found
 * by scanning instead of parsing: stored JSON is passed through by slicing these spans, which costs
 * a fraction of parsing it into objects and serializing it again — and, in bytes, nothing to decode
 * or encode again. Every structural character is ASCII, and no byte of a multi-byte UTF-8 sequence
 * is, so a byte scan finds what a character scan would. The JSON must be valid (the store only
 * holds what JSON.stringify wrote).
 */
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.js';

const decoder = new TextDecoder();

/** The index just past the string that starts at `i` (a quote). */
function skipString(text: Uint8Array, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j]!;
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  throw new Error('unterminated string in stored JSON');
}

/** The index just past the value that starts at `i`. */
function skipValue(text: Uint8Array, i: number): number {
  const c = text[i]!;
  if (c === QUOTE) return skipString(text, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    let j = i;
    while (j < text.length) {
      const d = text[j]!;
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) break;
      j++;
    }
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text[j]!;
    if (d === QUOTE) j = skipString(text, j) - 1;
    else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  throw new Error('unbalanced stored JSON');
}

/** Each member of the object in `text` (compact JSON, as JSON.stringify writes it): key → [start, end) of its value. */
export function objectSpans(text: Uint8Array): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  if (text[0]! !== OPEN_BRACE) throw new Error('stored JSON is not an object');
  let i = 1;
  while (i < text.length && text[i]! !== CLOSE_BRACE) {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(decoder.decode(text.subarray(i, keyEnd))) as string;
    if (text[keyEnd]! !== COLON) throw new Error('stored JSON: expected a colon');
    const start = keyEnd + 1;
    const end = skipValue(text, start);
    out.set(key, [start, end]);
    i = text[end]! === COMMA ? end + 1 : end;
  }
  return out;
}

/** Each element of the array in `text` (compact JSON): [start, end) in its bytes. */
export function arraySpans(text: Uint8Array): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (text[0] !== OPEN_BRACKET) throw new Error('stored JSON is not an array');
  let i = 1;
  while (i < text.length && text[i] !== CLOSE_BRACKET) {
    const end = skipValue(text, i);
    out.push([i, end]);
    i = text[end] === COMMA ? end + 1 : end;
  }
  return out;
}
