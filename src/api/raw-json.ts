/**
 * JSON passed through as it is. A response body may hold RawJson values (stored summary sections,
 * play records, list events): serializing the body splices their bytes in where JSON.stringify
 * would have written the parsed value — the same bytes, without parsing and re-serializing them.
 */

/** Marks where each raw value goes; the random part keeps provider text from ever looking like one. */
const MARK = `\u0000fds-raw-${Math.random().toString(36).slice(2)}-`;
const QUOTED_MARK = JSON.stringify(MARK).slice(0, -1);

/** Stored JSON: a text, UTF-8 bytes, or pieces of either that together make one JSON value. */
export type RawPiece = string | Uint8Array;

const decoder = new TextDecoder();

let collecting: Array<RawPiece | readonly RawPiece[]> | null = null;

export class RawJson {
  /** `json` must be what JSON.stringify writes for the value it stands for (in pieces, concatenated). */
  constructor(readonly json: RawPiece | readonly RawPiece[]) {}

  toJSON(): unknown {
    if (!collecting) {
      // Outside serializeWithRaw (a plain JSON.stringify): the value itself.
      const pieces: readonly RawPiece[] = Array.isArray(this.json) ? this.json : [this.json as RawPiece];
      return JSON.parse(pieces.map((p) => (typeof p === 'string' ? p : decoder.decode(p))).join(''));
    }
    collecting.push(this.json);
    return `${MARK}${collecting.length - 1}`;
  }
}

/** JSON.stringify(value) as UTF-8 bytes, with every RawJson in it spliced in as its bytes. */
export function serializeWithRaw(value: unknown): Buffer {
  const raws: Array<RawPiece | readonly RawPiece[]> = [];
  collecting = raws;
  let out: string;
  try {
    out = JSON.stringify(value);
  } finally {
    collecting = null;
  }
  if (!raws.length) return Buffer.from(out, 'utf8');
  const parts: Uint8Array[] = [];
  const push = (p: RawPiece) => {
    if (typeof p !== 'string') parts.push(p);
    else if (p.length) parts.push(Buffer.from(p, 'utf8'));
  };
  let at = 0;
  for (let n = 0; n < raws.length; n++) {
    const mark = `${QUOTED_MARK}${n}"`;
    const i = out.indexOf(mark, at);
    push(out.slice(at, i));
    const raw = raws[n]!;
    if (Array.isArray(raw)) for (const p of raw) push(p);
    else push(raw as RawPiece);
    at = i + mark.length;
  }
  push(out.slice(at));
  return Buffer.concat(parts);
}
