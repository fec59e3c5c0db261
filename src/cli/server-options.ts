/**
 * The server's options, which `fds serve` and `fds live` both take (docs/cli.md): whose address a
 * rate limit counts, and the limits. Declared once here, so the two commands cannot drift apart.
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import type { ServerOptions } from '../server/http.js';
import { DEFAULT_RATE_LIMITS } from '../server/rate-limit.js';
import { UsageError, parsePositiveInt } from './errors.js';

export interface ServerFlags {
  /** false: not given; true: given without a number (one proxy). */
  trustProxy: boolean | number;
  rateLimit: number;
  rateLimitOther: number;
  rateLimiting: boolean;
}

/** The most proxies `--trust-proxy` takes: a chain longer than this is a mistake. */
const MAX_PROXIES = 10;

function parseProxies(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_PROXIES)
    throw new UsageError(
      `--trust-proxy takes a number of proxies from 1 to ${MAX_PROXIES}, got ${JSON.stringify(value)}`,
    );
  return Number(value);
}

/** Adds `--trust-proxy [n]`, `--rate-limit <n>`, `--rate-limit-other <n>` and `--no-rate-limiting` to `cmd`. */
export function addServerOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--trust-proxy [n]',
        'behind n proxies you control (n: 1 when left out; a CDN and a Varnish are 2), rate-limit by the client ' +
          'address they append to X-Forwarded-For, the n-th from its end',
      )
        .argParser(parseProxies)
        .default(false, 'off'),
    )
    .option(
      '--rate-limit <n>',
      'requests per minute per client on /get/*',
      parsePositiveInt('--rate-limit'),
      DEFAULT_RATE_LIMITS.api,
    )
    .option(
      '--rate-limit-other <n>',
      'requests per minute per client elsewhere',
      parsePositiveInt('--rate-limit-other'),
      DEFAULT_RATE_LIMITS.other,
    )
    .option('--no-rate-limiting', 'turn rate limiting off (behind a CDN that limits)');
}

/** What the server is given for these flags. */
export function serverOptionsOf(f: ServerFlags): Pick<ServerOptions, 'trustProxy' | 'rateLimit'> {
  return {
    trustProxy: f.trustProxy,
    rateLimit: f.rateLimiting
      ? { api: f.rateLimit, other: f.rateLimitOther, windowMs: DEFAULT_RATE_LIMITS.windowMs }
      : null,
  };
}
