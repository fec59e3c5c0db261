/**
 * Reading a raw query string the way the CDN's rule engine reads it, so a request means the same
 * thing to a rewrite rule and to the fallback: keys are case-sensitive and not percent-decoded,
 * values are decoded (`+` is a space), a repeated key takes its last value, and an empty value
 * (`status=` or a bare `status`) means the parameter was not given.
 */
export type Query = ReadonlyMap<string, string>;

function decodeValue(raw: string): string {
  const spaced = raw.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A malformed escape is kept literally; the parameter's own validation then rejects it.
    return spaced;
  }
}

export function parseQuery(raw: string): Query {
  const out = new Map<string, string>();
  if (raw === '') return out;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : decodeValue(part.slice(eq + 1));
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
