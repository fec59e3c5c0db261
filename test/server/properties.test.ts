/** Generated hostile requests over real HTTP: the server never answers 5xx and every 4xx is `{error}`. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/server/http.js';
import { createApiServer } from '../../src/server/http.js';
import { buildApiStore, clock } from '../api/helpers/api-store.js';
import { methodArb, pathArb, printable, queryArb } from '../api/helpers/arbitraries.js';
import { rawRequest } from '../api/helpers/targets.js';
import { rawExchange } from './helpers.js';

let api: ApiServer;
let port: number;

beforeAll(async () => {
  api = createApiServer({ storeFile: await buildApiStore(), clock, rateLimit: null, log: null });
  ({ port } = await api.listen(0, '127.0.0.1'));
});
afterAll(() => api.close());

function expectErrorShape(status: number, body: string): void {
  expect(status).toBeLessThan(500);
  if (status >= 400) {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['error']);
    expect(typeof parsed.error).toBe('string');
  }
}

describe('HTTP server under generated requests', () => {
  it('answers generated paths and query strings without a 5xx; 4xx bodies are exactly {error}', async () => {
    await fc.assert(
      fc.asyncProperty(methodArb, pathArb, queryArb, async (method, path, query) => {
        const target = printable(query ? `${path}?${query}` : path);
        const res = await rawRequest(port, method, target, { 'accept-encoding': 'identity' });
        if (method === 'HEAD') expect(res.status).toBeLessThan(500);
        else expectErrorShape(res.status, res.body.toString());
      }),
      { numRuns: 400 },
    );
  });

  it('answers arbitrary bytes in the request target without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 60 }), async (bytes) => {
        const req = Buffer.concat([
          Buffer.from('GET /get/soccer/'),
          Buffer.from(bytes),
          Buffer.from(' HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'),
        ]);
        const res = await rawExchange(port, req);
        // A target with CR/LF may end the request early; whatever the parser made of it is answered with < 500.
        if (res.status !== 0) expectErrorShape(res.status, res.body.split('\r\n')[0] ?? res.body);
      }),
      { numRuns: 200 },
    );
  });
});
