/**
 * `--purge TARGET`, one target per option: `varnish:URL`, `netlify`, `cloudflare` or `fastly`, the
 * credentials from the environment. Everything wrong with a target is found here, before the first
 * publish, as one line the CLI prints as a usage error:
 *
 *   netlify     NETLIFY_AUTH_TOKEN, NETLIFY_SITE_ID
 *   cloudflare  CLOUDFLARE_API_TOKEN, CLOUDFLARE_ZONE_ID; CLOUDFLARE_PLAN free (default), pro,
 *               business or enterprise, which sets the purge rate
 *   fastly      FASTLY_API_TOKEN, FASTLY_SERVICE_ID
 *
 * FDS_NETLIFY_API_URL, FDS_CLOUDFLARE_API_URL and FDS_FASTLY_API_URL replace the providers' API
 * origins (https://api.netlify.com, https://api.cloudflare.com, https://api.fastly.com; the
 * documented path follows), so tests can point a target at a stand-in on loopback.
 */
import { CLOUDFLARE_PLANS, cloudflareTarget, fastlyTarget, netlifyTarget, varnishTarget } from './providers.js';
import type { CloudflarePlan } from './providers.js';
import type { PurgeTarget } from './target.js';

export class PurgeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PurgeConfigError';
  }
}

const KINDS = 'varnish:URL, netlify, cloudflare or fastly';

export function parsePurgeTarget(spec: string, env: NodeJS.ProcessEnv): PurgeTarget {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? undefined : spec.slice(colon + 1);
  if (kind === 'varnish') {
    if (!arg)
      throw new PurgeConfigError(`--purge varnish needs the Varnish's URL, as in varnish:http://127.0.0.1:6081`);
    return varnishTarget(httpUrl(arg, `--purge varnish:${arg}`));
  }
  if (kind !== 'netlify' && kind !== 'cloudflare' && kind !== 'fastly')
    throw new PurgeConfigError(`unknown --purge target ${JSON.stringify(spec)}: expected ${KINDS}`);
  if (arg !== undefined) throw new PurgeConfigError(`--purge ${kind} takes no argument, got ${JSON.stringify(spec)}`);
  if (kind === 'netlify') {
    const [token, siteId] = required(kind, env, 'NETLIFY_AUTH_TOKEN', 'NETLIFY_SITE_ID');
    return netlifyTarget({ token, siteId, apiUrl: apiUrl(env, 'FDS_NETLIFY_API_URL', 'https://api.netlify.com') });
  }
  if (kind === 'cloudflare') {
    const [token, zoneId] = required(kind, env, 'CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ZONE_ID');
    const plan = env.CLOUDFLARE_PLAN || 'free';
    if (!(CLOUDFLARE_PLANS as readonly string[]).includes(plan))
      throw new PurgeConfigError(
        `CLOUDFLARE_PLAN must be ${CLOUDFLARE_PLANS.join(', ')} (it sets the purge rate), got ${JSON.stringify(plan)}`,
      );
    const url = apiUrl(env, 'FDS_CLOUDFLARE_API_URL', 'https://api.cloudflare.com');
    return cloudflareTarget({ token, zoneId, plan: plan as CloudflarePlan, apiUrl: url });
  }
  const [token, serviceId] = required(kind, env, 'FASTLY_API_TOKEN', 'FASTLY_SERVICE_ID');
  return fastlyTarget({ token, serviceId, apiUrl: apiUrl(env, 'FDS_FASTLY_API_URL', 'https://api.fastly.com') });
}

/** The values of `names`, or one error naming every one that is missing. */
function required<N extends string[]>(kind: string, env: NodeJS.ProcessEnv, ...names: N): { [K in keyof N]: string } {
  const missing = names.filter((n) => !env[n]);
  if (missing.length) throw new PurgeConfigError(`--purge ${kind} needs ${missing.join(' and ')} in the environment`);
  return names.map((n) => env[n]!) as { [K in keyof N]: string };
}

function apiUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name];
  return value ? httpUrl(value, name).href : fallback;
}

function httpUrl(text: string, what: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new PurgeConfigError(`${what}: not an http(s) URL`);
  return url;
}
