/**
 * `--purge TARGET`, which `fds build` and `fds live` both take (docs/cli.md): repeatable, each one
 * checked as it is parsed (purge/parse.ts), so a wrong one is a usage error (exit 2) before any
 * work. What a publish purges is its build's `changedTags`.
 */
import { Option } from 'commander';
import { PurgeConfigError, parsePurgeTarget } from '../purge/parse.js';
import { Purger } from '../purge/purger.js';
import type { PurgeReport } from '../purge/report.js';
import { mergeReports } from '../purge/report.js';
import type { PurgeTarget } from '../purge/target.js';
import { UsageError } from './errors.js';

/** How long `fds build` waits for its purge (rates and retries included) before it reports what is left. */
export const BUILD_PURGE_MS = 20_000;

function collectTarget(spec: string, previous: PurgeTarget[]): PurgeTarget[] {
  try {
    return [...previous, parsePurgeTarget(spec, process.env)];
  } catch (err) {
    if (err instanceof PurgeConfigError) throw new UsageError(err.message);
    throw err;
  }
}

export function purgeOption(after: string): Option {
  return new Option(
    '--purge <target>',
    `purge shared caches by cache tag ${after}: varnish:URL, netlify, cloudflare or fastly ` +
      '(credentials from the environment, see docs/cli.md); repeatable',
  )
    .argParser(collectTarget)
    .default([], 'none');
}

/**
 * A one-shot purge (`fds build`): every tag sent to every target, rates waited out and failures
 * retried for at most `withinMs`; what is still pending then is reported, not purged.
 */
export async function purgeOnce(
  targets: readonly PurgeTarget[],
  tags: readonly string[],
  withinMs = BUILD_PURGE_MS,
): Promise<PurgeReport> {
  const purger = new Purger(targets);
  const first = await purger.purge(tags);
  return mergeReports(first, await purger.flush(withinMs));
}
