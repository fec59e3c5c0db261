/** Query strings read the way the CDN's rule engine reads them, and conditional-GET matching. */
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/api/query.js';
import { cacheControl, ifNoneMatch } from '../../src/api/headers.js';

const q = (raw: string) => Object.fromEntries(parseQuery(raw));

describe('parseQuery', () => {
  it('takes the last value of a repeated key', () => {
    expect(q('a=1&b=2&a=3')).toEqual({ a: '3', b: '2' });
  });
  it('treats an empty value and a bare key as absent, even after a value', () => {
    expect(q('a=&b&c=1&c=')).toEqual({});
  });
  it('decodes values (plus is a space) but not keys, which stay case-sensitive', () => {
    expect(q('p%61ge=2&Page=3&v=a%20b+c')).toEqual({ 'p%61ge': '2', Page: '3', v: 'a b c' });
  });
  it('keeps a malformed escape literally instead of failing', () => {
    expect(q('v=%zz&w=%E2%82')).toEqual({ v: '%zz', w: '%E2%82' });
  });
  it('splits only on the first = of a pair', () => {
    expect(q('fields=a=b&&')).toEqual({ fields: 'a=b' });
  });
});

describe('ifNoneMatch', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", W/"abc"', true],
    ['*', true],
    ['abc', true],
    ['"abcd"', false],
    ['', false],
    ['W/"x"', false],
  ])('%s → %s', (header, expected) => {
    expect(ifNoneMatch(header, etag)).toBe(expected);
  });
  it('is false without the header', () => {
    expect(ifNoneMatch(undefined, etag)).toBe(false);
  });
});

describe('cacheControl', () => {
  it('follows the cache class, the live flag and the status', () => {
    expect(cacheControl('live', 200, true)).toBe('public, max-age=4');
    expect(cacheControl('live', 200, false)).toBe('public, max-age=30');
    expect(cacheControl('match', 200, true)).toBe('public, max-age=30');
    expect(cacheControl('list', 200, false)).toBe('public, max-age=60');
    expect(cacheControl('none', 200, false)).toBe('no-store');
    expect(cacheControl('list', 404, false)).toBe('no-store');
  });
});
