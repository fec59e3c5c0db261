/**
 * How Netlify's rule engine reads a query string (what `fds check`, the Netlify Function and the
 * tests model it by; api/query.ts reads queries the same way), measured against netlify-redirector 0.5.0 (the
 * engine `netlify dev` uses; test/netlify/query.test.ts holds it to this model). The render
 * core must read queries exactly this way wherever the result can equal a literal rule's value, or
 * a rule and the fallback could disagree about what a request asks for:
 *   - pairs are split on `&`; when the query ends in a single `&`, the pair before it is dropped
 *     too (`a=1&` has no `a`; `a=1&&` has);
 *   - a part without `=` never counts (`status=live&status` asks for `live`);
 *   - keys are compared raw: case-sensitive, never percent-decoded;
 *   - a repeated key takes its last value;
 *   - values are percent-decoded byte-wise with `+` as a space; `%` followed by two characters
 *     always consumes them, a non-hex digit counting as 0 (`%3Z` is `0`); a `%` with fewer than two
 *     characters after it is kept literally.
 */
import { TOKEN, netlifyDecode, netlifyParts } from '../api/query.js';

/** The pairs Netlify sees, in order, as raw keys and decoded values (repeats included). */
export function netlifyPairs(raw: string): Array<[string, string]> {
  const parts = netlifyParts(raw);
  const out: Array<[string, string]> = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq !== -1) out.push([part.slice(0, eq), netlifyDecode(part.slice(eq + 1))]);
  }
  return out;
}

/**
 * What the rules' soundness needs from the render core's reading `given` of a raw query (values that
 * are empty mean "not given"): the same keys are given, and wherever either reading has a token value
 * the other has the very same value. Non-token values never meet a literal rule, so they may differ.
 */
export function agreesWithNetlify(raw: string, given: ReadonlyMap<string, string>): boolean {
  const netlify = new Map([...netlifyQuery(raw)].filter(([, v]) => v !== ''));
  const ours = [...given].filter(([, v]) => v !== '');
  if (ours.length !== netlify.size) return false;
  for (const [k, v] of ours) {
    const n = netlify.get(k);
    if (n === undefined || (n !== v && (TOKEN.test(n) || TOKEN.test(v)))) return false;
  }
  return true;
}

/** Key → last value, as a rule's conditions see them (an empty value is present and empty). */
export function netlifyQuery(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of netlifyPairs(raw)) {
    out.delete(k);
    out.set(k, v);
  }
  return out;
}

/**
 * The query re-spelled so that a reader with standard decoding (repeats: last wins; `+` a space)
 * sees exactly the keys and values Netlify saw. The Netlify Function applies it, so the fallback
 * behind the rules always reads a request the way the rules did.
 */
export function netlifyCanonicalQuery(raw: string): string {
  return netlifyPairs(raw)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
}
