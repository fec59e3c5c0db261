/** Reading a request header by its lower-case name, from any caller's header record. */
import { describe, expect, it } from 'vitest';
import { finishResponse, requestHeader } from '../../src/api/respond.js';

describe('requestHeader', () => {
  it('finds a header whatever case the record spells its name in', () => {
    const req = { method: 'GET', headers: { 'If-None-Match': '"a"', host: 't' } };
    expect(requestHeader(req, 'if-none-match')).toBe('"a"');
    expect(requestHeader(req, 'host')).toBe('t');
    expect(requestHeader(req, 'accept-encoding')).toBeUndefined();
  });

  it('reads only the lower-case name of a record whose names are all lower case', () => {
    const req = { method: 'GET', headers: { 'If-None-Match': '"a"' }, lowerCaseNames: true };
    expect(requestHeader(req, 'if-none-match')).toBeUndefined();
    expect(requestHeader({ ...req, headers: { 'if-none-match': '"a"' } }, 'if-none-match')).toBe('"a"');
  });

  it('answers a conditional GET from a lower-case record with 304', () => {
    const req = { method: 'GET', headers: { 'if-none-match': '"a"' }, lowerCaseNames: true };
    expect(finishResponse(req, 200, {}, Buffer.from('{}'), '"a"').status).toBe(304);
  });
});
