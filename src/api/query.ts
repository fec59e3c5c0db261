/**
 * Reading a raw query string the way the CDN's rule engine reads it, so a request means the same
 * thing to a rewrite rule and to the fallback: keys are case-sensitive and not percent-decoded,
 * values are decoded (`+` is a space), a repeated key takes its last value, an empty value
 * (`status=`) means the parameter was not given, and a bare `status` (no `=`) is not there at all.
 */
import { TOKEN, netlifyDecode, netlifyParts } from './netlify-query.js';

export type Query = ReadonlyMap<string, string>;

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
