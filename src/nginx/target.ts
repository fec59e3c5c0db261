/**
 * The nginx target (publish/target.ts): no rules in the CDN's dialect, one configuration instead
 * (config.ts), which reaches every pre-rendered file from its exact request and sends everything
 * else to the fallback, an origin running `fds serve`.
 */
import { RuleError, originUrl } from '../publish/rules/rule-settings.js';
import type { BuildTarget, TargetBuild } from '../publish/target.js';
import { NGINX_FILE, nginxOrigin, writeNginxConfig } from './config.js';

/** Where `fds serve` listens by default. */
export const DEFAULT_ORIGIN = 'http://127.0.0.1:8080';

/** What a build for nginx reports beside the core's summary. */
export interface NginxReport {
  /** The configuration written (null when nothing was published): the requests it answers from files, and its size. */
  nginx: { spellings: number; answers: number; bytes: number } | null;
}

/** Whether the configuration can name `origin` as its upstream (config.ts `nginxOrigin`): refused before any work. */
function canName(origin: string): boolean {
  try {
    nginxOrigin(origin);
    return true;
  } catch {
    return false;
  }
}

export function nginxTarget(): BuildTarget<NginxReport> {
  return {
    name: 'nginx',
    rules: null,
    defaultFallback: DEFAULT_ORIGIN,
    fallbackOf: (fallback) => {
      const origin = originUrl(fallback);
      if (!origin || !canName(origin))
        throw new RuleError(
          `--fallback must be an http(s) origin URL running \`fds serve\` for --target nginx, got ${JSON.stringify(fallback)}`,
        );
      return origin;
    },
    check: (settings) => {
      if (settings.router !== 'rules')
        throw new RuleError(
          "--router edge is Netlify's edge function: nginx reaches every file from its configuration",
        );
      if (settings.origin)
        throw new RuleError(
          '--origin is for Netlify: with --target nginx every request without a file goes to --fallback',
        );
    },
    // Written under the release's final name (`seal`), which it names: not among the files a build compares.
    files: () => [],
    anyFiles: [NGINX_FILE],
    start: async (_store, settings) => new NginxBuild(settings.fallback),
  };
}

class NginxBuild implements TargetBuild<NginxReport> {
  readonly index = null;
  /**
   * The configuration lists every pre-rendered request's spellings, but those with a capital letter or
   * a header value it cannot write (config.ts): none that the demo's or ESPN's ids make.
   */
  readonly reachesAll = true;
  private written: NginxReport['nginx'] = null;

  constructor(private readonly origin: string) {}

  /** The configuration names the release by its real path (config.ts, ROOT): written once it has its name. */
  seal(release: string): void {
    const { spellings, answers, bytes } = writeNginxConfig(release, { origin: this.origin });
    this.written = { spellings, answers, bytes };
  }

  report(): NginxReport {
    return { nginx: this.written };
  }
}
