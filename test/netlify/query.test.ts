/**
 * The model of Netlify's query reading (src/api/netlify-query.ts) against the engine itself:
 * probe rules capture which of the keys a, b, c a request carries and their values, for generated
 * queries full of repeats, bare keys, empty pairs, trailing `&` and broken percent-escapes.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { netlifyDecode } from '../../src/api/query.js';
import { netlifyCanonicalQuery, netlifyQuery } from '../../src/netlify/query.js';

type Match = (q: string) => string;
let probe: Match;

const KEYS = ['a', 'b', 'c'];

beforeAll(async () => {
  const redirector = createRequire(import.meta.url)('netlify-redirector') as {
    parsePlain(rules: string, o: object): Promise<{ match(r: object): { to: string } | null }>;
  };
  const subsets = Array.from({ length: 7 }, (_, i) => KEYS.filter((_, b) => (i + 1) & (1 << b))).sort(
    (x, y) => y.length - x.length,
  );
  const rules = subsets.map(
    (s) => `/x ${s.map((k) => `${k}=:${k}`).join(' ')} /r/${s.join('')}/${s.map((k) => `:${k}`).join('/')} 200!`,
  );
  const m = await redirector.parsePlain(`${rules.join('\n')}\n/x /r/ 200!\n`, {});
  probe = (q) =>
    m.match({ scheme: 'https', host: 'x', path: '/x', query: q, getHeader: () => '', getCookie: () => '' })!.to;
});

/** What the engine saw, from the probe's target: `/r/<keys>/<re-encoded value>/…`. */
function seen(q: string): Record<string, string> {
  const [, , keys, ...values] = probe(q).split('/');
  return Object.fromEntries([...(keys ?? '')].map((k, i) => [k, netlifyDecode(values[i] ?? '')]));
}

const model = (q: string): Record<string, string> =>
  Object.fromEntries([...netlifyQuery(q)].filter(([k]) => KEYS.includes(k)));

describe("Netlify's query reading", () => {
  it.each([
    ['a=1&', {}],
    ['a=1&&', { a: '1' }],
    ['a=1&b=2&', { a: '1' }],
    ['a=1&a=2&', { a: '1' }],
    ['a=live&a', { a: 'live' }],
    ['a&a=live', { a: 'live' }],
    ['%61=1', {}],
    ['A=1', {}],
    ['a=li%76e', { a: 'live' }],
    ['a=1%3Z', { a: '10' }],
    ['a=%7Zay', { a: 'pay' }],
    ['a=live%', { a: 'live%' }],
    ['a=live%2', { a: 'live%2' }],
    ['a=a+b', { a: 'a b' }],
    ['a=', { a: '' }],
  ])('reads %s as %j', (q, expected) => {
    expect(seen(q)).toEqual(expected);
    expect(model(q)).toEqual(expected);
  });

  it('matches the model on generated queries', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'A', '%61', '', 'x', 'a ', 'a+');
    const value = fc.oneof(
      fc.constantFrom(
        '',
        '1',
        'live',
        '%',
        '%2',
        '%6C',
        '%6c',
        '+',
        '%20',
        '%2B',
        '=',
        'é',
        '%C3%A9',
        '%FF',
        '%00',
        'a%',
        'li%76e',
        '%%',
        '%2%',
        '%ZZ',
        '%3Z',
        '%5G',
        '%7x',
        '.',
        '..',
        '/',
        '%2F',
        '~',
        '-',
        '_',
      ),
      fc.string({ maxLength: 4 }).filter((s) => !/[&#]/.test(s)),
    );
    const part = fc.oneof(
      fc.tuple(key, value).map(([k, v]) => `${k}=${v}`),
      key,
      fc.constant(''),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const q = parts.join('&');
        expect(model(q), q).toEqual(seen(q));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('the canonical re-spelling the Netlify Function reads', () => {
  it('gives a standard reader exactly the keys and values Netlify saw', () => {
    const standard = (q: string) => {
      const out: Record<string, string> = {};
      for (const part of q.split('&').filter(Boolean)) {
        const eq = part.indexOf('=');
        out[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1).replaceAll('+', ' '));
      }
      return out;
    };
    const part = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('a', 'b', 'A', '%61', 'a+'),
          fc.constantFrom('', '1', 'li%76e', '%3Z', '%', '%ZZ', 'a+b', '%2B', 'é', '%FF'),
        )
        .map(([k, v]) => `${k}=${v}`),
      fc.constantFrom('a', 'b', ''),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        const q = parts.join('&');
        expect(standard(netlifyCanonicalQuery(q)), q).toEqual(Object.fromEntries(netlifyQuery(q)));
      }),
    );
  });
});
