/**
 * `--purge TARGET` is checked before the first publish: a wrong spec or a missing credential is one
 * line naming what is wrong, never a failure later in the loop.
 */
import { describe, expect, it } from 'vitest';
import { PurgeConfigError, parsePurgeTarget } from '../../src/purge/parse.js';

const ENV = {
  NETLIFY_AUTH_TOKEN: 'nf-token',
  NETLIFY_SITE_ID: 'site-1',
  CLOUDFLARE_API_TOKEN: 'cf-token',
  CLOUDFLARE_ZONE_ID: 'zone-1',
  FASTLY_API_TOKEN: 'fy-token',
  FASTLY_SERVICE_ID: 'svc-1',
};

function configError(spec: string, env: NodeJS.ProcessEnv = ENV): string {
  try {
    parsePurgeTarget(spec, env);
  } catch (err) {
    expect(err).toBeInstanceOf(PurgeConfigError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`${spec} was accepted`);
}

describe('parsePurgeTarget', () => {
  it('accepts each kind of target with the batch size and rate its provider allows', () => {
    const varnish = parsePurgeTarget('varnish:http://127.0.0.1:6081', {});
    expect([varnish.name, varnish.where, varnish.rate, varnish.maxBytes]).toEqual([
      'varnish',
      '127.0.0.1:6081',
      undefined,
      8000,
    ]);
    expect(parsePurgeTarget('netlify', ENV)).toMatchObject({ name: 'netlify', maxTags: 100 });
    expect(parsePurgeTarget('fastly', ENV)).toMatchObject({ name: 'fastly', maxTags: 256 });
    expect(parsePurgeTarget('fastly', ENV).rate).toBeUndefined();
    expect(parsePurgeTarget('cloudflare', ENV)).toMatchObject({
      name: 'cloudflare',
      maxTags: 100,
      rate: { requests: 5, windowMs: 60_000 },
    });
  });

  it('takes the Cloudflare purge rate from CLOUDFLARE_PLAN', () => {
    const rate = (plan: string) => parsePurgeTarget('cloudflare', { ...ENV, CLOUDFLARE_PLAN: plan }).rate;
    expect(rate('free')).toEqual({ requests: 5, windowMs: 60_000 });
    expect(rate('pro')).toEqual({ requests: 5, windowMs: 1000 });
    expect(rate('business')).toEqual({ requests: 10, windowMs: 1000 });
    expect(rate('enterprise')).toEqual({ requests: 50, windowMs: 1000 });
    expect(configError('cloudflare', { ...ENV, CLOUDFLARE_PLAN: 'gold' })).toMatch(/CLOUDFLARE_PLAN must be .*"gold"/);
  });

  it('refuses a spec that names no known target, or gives a target an argument it does not take', () => {
    expect(configError('akamai')).toBe(
      'unknown --purge target "akamai": expected varnish:URL, netlify, cloudflare or fastly',
    );
    expect(configError('')).toMatch(/^unknown --purge target ""/);
    expect(configError('Netlify')).toMatch(/^unknown --purge target/);
    expect(configError('cloudflare:zone-1')).toBe('--purge cloudflare takes no argument, got "cloudflare:zone-1"');
  });

  it('refuses a Varnish without a URL, or with one that is not http(s)', () => {
    expect(configError('varnish')).toMatch(/^--purge varnish needs the Varnish's URL/);
    expect(configError('varnish:')).toMatch(/^--purge varnish needs the Varnish's URL/);
    expect(configError('varnish:ftp://127.0.0.1:6081')).toBe(
      '--purge varnish:ftp://127.0.0.1:6081: not an http(s) URL',
    );
    expect(configError('varnish:127.0.0.1:6081')).toMatch(/not an http\(s\) URL$/);
  });

  it('names every missing credential of a target in one line', () => {
    expect(configError('netlify', {})).toBe(
      '--purge netlify needs NETLIFY_AUTH_TOKEN and NETLIFY_SITE_ID in the environment',
    );
    expect(configError('cloudflare', { CLOUDFLARE_API_TOKEN: 'cf-token', CLOUDFLARE_ZONE_ID: '' })).toBe(
      '--purge cloudflare needs CLOUDFLARE_ZONE_ID in the environment',
    );
    expect(configError('fastly', { FASTLY_SERVICE_ID: 'svc-1' })).toBe(
      '--purge fastly needs FASTLY_API_TOKEN in the environment',
    );
  });

  it('refuses an API URL override that is not http(s)', () => {
    expect(configError('fastly', { ...ENV, FDS_FASTLY_API_URL: 'file:///tmp/x' })).toBe(
      'FDS_FASTLY_API_URL: not an http(s) URL',
    );
  });
});
