/** docs/json-api.md health, and what every route answers when the store cannot be read. */
import { expect } from 'vitest';
import type { ContractCase } from './types.js';

const HEALTH_KEYS = ['status', 'timestamp', 'uptime', 'version', 'database'];

export const HEALTH_CASES: ContractCase[] = [
  ...['/health', '/api/health'].map(
    (url): ContractCase => ({
      name: 'health is 200 healthy when the store answers, never cached',
      url,
      status: 200,
      cache: 'no-store',
      check: (b) => {
        expect(Object.keys(b)).toEqual(HEALTH_KEYS);
        expect(b).toMatchObject({
          status: 'healthy',
          version: '2.0.0',
          database: { status: 'connected', name: 'api.sqlite' },
        });
        expect(Number.isNaN(Date.parse(b.timestamp))).toBe(false);
        expect(b.uptime).toBeGreaterThanOrEqual(0);
      },
    }),
  ),
  {
    name: 'the API describes itself as OpenAPI 3.1',
    url: '/openapi.json',
    status: 200,
    cache: 'public, max-age=60',
    check: (b) => expect(b.openapi).toBe('3.1.0'),
  },
];

export const STORELESS_CASES: ContractCase[] = [
  ...['/health', '/api/health'].map(
    (url): ContractCase => ({
      name: 'health is 503 unhealthy with the same shape',
      url,
      status: 503,
      cache: 'no-store',
      check: (_b, res) => {
        const b = JSON.parse(res.body.toString());
        expect(Object.keys(b)).toEqual(HEALTH_KEYS);
        expect(b).toMatchObject({ status: 'unhealthy', database: { status: 'disconnected', name: 'missing.sqlite' } });
      },
    }),
  ),
  { name: 'a data route answers 503 with an error body', url: '/get/soccer/leagues', status: 503, cache: 'no-store' },
  { name: 'validation still comes first', url: '/get/soccer/EN%20G/clubs', status: 400, error: 'Invalid league slug' },
  { name: 'unknown paths are still 404', url: '/nope', status: 404, error: 'Route not found' },
];
