/**
 * JSON text passed through as it is. A response body may hold RawJson values (stored summary
 * sections, play records): serializing the body splices their text in where JSON.stringify would
 * have written the parsed value — the same bytes, without parsing and re-serializing them.
 */

/** Marks where each raw value goes; the random part keeps provider text from ever looking like one. */
const MARK = `\u0000fds-raw-${Math.random().toString(36).slice(2)}-`;
const QUOTED_MARK = JSON.stringify(MARK).slice(0, -1);

let collecting: string[] | null = null;

export class RawJson {
  /** `text` must be what JSON.stringify writes for the value it stands for. */
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (!collecting) return JSON.parse(this.text);
    collecting.push(this.text);
    return `${MARK}${collecting.length - 1}`;
  }
}

/** JSON.stringify(value), with every RawJson in it spliced in as its text. */
export function stringifyWithRaw(value: unknown): string {
  const raws: string[] = [];
  collecting = raws;
  let out: string;
  try {
    out = JSON.stringify(value);
  } finally {
    collecting = null;
  }
  if (!raws.length) return out;
  const parts: string[] = [];
  let at = 0;
  for (let n = 0; n < raws.length; n++) {
    const mark = `${QUOTED_MARK}${n}"`;
    const i = out.indexOf(mark, at);
    parts.push(out.slice(at, i), raws[n]!);
    at = i + mark.length;
  }
  parts.push(out.slice(at));
  return parts.join('');
}
