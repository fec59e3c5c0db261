/**
 * Reading a raw query string the way the CDN's rule engine reads it, so a request means the same
 * thing to a rewrite rule and to the fallback: keys are case-sensitive and not percent-decoded,
 * values are decoded (`+` is a space), a repeated key takes its last value, an empty value
 * (`status=`) means the parameter was not given, and a bare `status` (no `=`) is not there at all.
 */

export type Query = ReadonlyMap<string, string>;

// How Netlify's engine splits and decodes a query (netlify/query.ts has the whole model, and
// test/netlify/query.test.ts holds both to the engine).
const hexval = (c: number): number => {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return 0;
};

const utf8 = new TextDecoder('utf-8');
const toUtf8 = new TextEncoder();

// Web APIs only (no Buffer): the edge router runs this on Deno.
export function netlifyDecode(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  const src = toUtf8.encode(raw);
  const out = new Uint8Array(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25 && i + 2 < src.length) {
      out[n++] = (hexval(src[i + 1]!) << 4) | hexval(src[i + 2]!);
      i += 2;
    } else out[n++] = c;
  }
  return utf8.decode(out.subarray(0, n));
}

/** The raw `key=value` parts of a query as Netlify splits it: on `&`, minus the trailing-`&` pair. */
export function netlifyParts(raw: string): string[] {
  const parts = raw === '' ? [] : raw.split('&');
  if (parts.length >= 2 && parts[parts.length - 1] === '') parts.splice(-2, 2);
  return parts;
}

/** A value a literal rule may hold (plan.ts): it survives Netlify's decoding unambiguously. */
export const TOKEN = /^[A-Za-z0-9._-]+$/;

function decodeValue(raw: string): string {
  const spaced = raw.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Netlify decodes a broken escape anyway (`%3Z` is `0`); where that yields a plain token a
    // literal rule could hold, we must read it the same way. Otherwise validation rejects it.
    const netlify = netlifyDecode(raw);
    return TOKEN.test(netlify) ? netlify : spaced;
  }
}

export function parseQuery(raw: string): Query {
  const out = new Map<string, string>();
  for (const part of netlifyParts(raw)) {
    const eq = part.indexOf('=');
    if (eq === -1) continue; // a bare key never counts for Netlify
    const key = part.slice(0, eq);
    const value = decodeValue(part.slice(eq + 1));
    // Delete first so the map's order is that of each key's last occurrence.
    out.delete(key);
    if (value !== '') out.set(key, value);
  }
  return out;
}

/** A canonical query string: keys in the given order, values encoded. */
export function formatQuery(query: Readonly<Record<string, string>>): string {
  const parts = Object.entries(query).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
