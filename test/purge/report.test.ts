/** The cycle line's purge part: short when all went well, one clause per target when not. */
import { describe, expect, it } from 'vitest';
import { formatPurgeReport } from '../../src/purge/report.js';
import type { TargetReport } from '../../src/purge/report.js';

const target = (name: string, fields: Partial<TargetReport> = {}): TargetReport => ({
  name,
  purged: 14,
  requests: 1,
  ms: 23,
  pending: 0,
  busy: false,
  ...fields,
});

const line = (...targets: TargetReport[]) => formatPurgeReport({ targets });

describe('formatPurgeReport', () => {
  it('says how many tags and how long when every target purged them all', () => {
    expect(line(target('varnish'))).toBe('purged 14 tags in 23 ms');
    expect(line(target('varnish', { ms: 3 }), target('cloudflare', { ms: 80 }))).toBe('purged 14 tags in 80 ms');
    expect(line(target('varnish', { purged: 1 }))).toBe('purged 1 tag in 23 ms');
    expect(line(target('varnish', { purged: 0, requests: 0, ms: 0 }))).toBe('purge: nothing to purge');
  });

  it('gives each target its clause as soon as one failed, is busy or is behind', () => {
    expect(line(target('varnish'), target('cloudflare', { purged: 0, pending: 14, error: 'HTTP 503' }))).toBe(
      'purge: varnish 14 tags in 23 ms; cloudflare failed (HTTP 503), 14 tags pending',
    );
    expect(line(target('varnish'), target('fastly', { purged: 0, requests: 0, ms: 0, pending: 14, busy: true }))).toBe(
      'purge: varnish 14 tags in 23 ms; fastly busy (request in flight), 14 tags pending',
    );
    expect(line(target('cloudflare', { purged: 200, ms: 40, pending: 50, retryInMs: 11_200 }))).toBe(
      'purge: cloudflare 200 tags in 40 ms, 50 tags pending (next request in 12 s)',
    );
    expect(line(target('cloudflare', { purged: 100, pending: 150, error: 'HTTP 429', retryInMs: 30_000 }))).toBe(
      'purge: cloudflare 100 tags in 23 ms, failed (HTTP 429), 150 tags pending (next request in 30 s)',
    );
  });

  it('names each target when they purged different numbers of tags', () => {
    expect(line(target('varnish'), target('fastly', { purged: 20 }))).toBe(
      'purge: varnish 14 tags in 23 ms; fastly 20 tags in 23 ms',
    );
  });
});
