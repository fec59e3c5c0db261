import { Command, Option } from 'commander';
import { openStore } from '../../store/db.js';
import type { DB } from '../../store/db.js';
import { LEAGUE_SLUGS } from '../../reference/leagues.js';
import { runSync } from '../../sync/run-sync.js';
import type { SyncReport } from '../../sync/run-sync.js';
import { rosterFreshness } from '../../sync/freshness.js';
import { HTTP_DEFAULTS, HttpClient } from '../../sync/http/fetch-json.js';
import type { Provider } from '../../sync/provider.js';
import { FilesProvider } from '../../sync/providers/files.js';
import { addDays, parseInstant, parseYmd, systemClock, ymd } from '../../util/time.js';
import type { Clock } from '../../util/time.js';
import { Progress } from '../progress.js';
import { UsageError, parsePositiveInt } from '../errors.js';

interface SyncFlags {
  db: string;
  provider: 'demo' | 'files' | 'espn';
  source?: string;
  seed: number;
  today?: string;
  now?: Date;
  scale: number;
  baseUrl: string;
  coreUrl: string;
  leagues?: string;
  from?: string;
  to?: string;
  season?: number[];
  concurrency: number;
  timeout: number;
  retries: number;
  full?: boolean;
}

function parseDate(name: string) {
  return (value: string): string => {
    if (!parseYmd(value)) throw new UsageError(`${name} must be a valid YYYYMMDD date, got ${JSON.stringify(value)}`);
    return value;
  };
}

function parseNow(value: string): Date {
  const instant = parseInstant(value);
  if (!instant)
    throw new UsageError(
      `--now must be an ISO-8601 instant with a zone, such as 2026-03-21T15:30:00Z, got ${JSON.stringify(value)}`,
    );
  return instant;
}

function parseLeagues(value: string | undefined): string[] {
  if (!value) return [...LEAGUE_SLUGS];
  const slugs = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const unknown = slugs.filter((s) => !LEAGUE_SLUGS.includes(s));
  if (unknown.length)
    throw new UsageError(`unknown league(s): ${unknown.join(', ')} (known: ${LEAGUE_SLUGS.join(', ')})`);
  return slugs;
}

export const DEFAULT_WINDOW_BACK = 3;
export const DEFAULT_WINDOW_AHEAD = 7;

/**
 * `store` is read only once the sync runs; the provider is built first so usage errors create no store file.
 * For the demo, `clock` is the demo clock.
 */
async function makeProvider(f: SyncFlags, clock: Clock, store: () => DB): Promise<Provider> {
  switch (f.provider) {
    case 'demo': {
      const { createDemoProvider } = await import('../../sync/providers/demo/index.js');
      return createDemoProvider({ seed: f.seed, now: clock(), scale: f.scale });
    }
    case 'files':
      if (!f.source) throw new UsageError('--provider files needs --source DIR');
      return new FilesProvider(f.source);
    case 'espn': {
      const today = clock();
      const from = f.from ?? ymd(addDays(today, -DEFAULT_WINDOW_BACK));
      const to = f.to ?? ymd(addDays(today, DEFAULT_WINDOW_AHEAD));
      if (from > to) throw new UsageError('--from must be before or equal to --to');
      const { EspnProvider } = await import('../../sync/providers/espn.js');
      let fresh: ((league: string, teamId: string) => boolean) | undefined;
      return new EspnProvider({
        baseUrl: f.baseUrl,
        coreUrl: f.coreUrl,
        from,
        to,
        seasons: f.season ?? [],
        full: f.full ?? false,
        // The same bound as the orchestrator's, but per HTTP request: one plays unit is several pages.
        http: new HttpClient({ concurrency: f.concurrency, timeoutMs: f.timeout, retries: f.retries }),
        isRosterFresh: (league, teamId) => {
          fresh ??= rosterFreshness(store(), 'espn', clock);
          return fresh(league, teamId);
        },
      });
    }
  }
}

/**
 * The demo's clock stands still for the whole run (`--now`, `--today` at noon UTC, or the time the
 * run started) and stamps everything the sync writes, so the same seed and clock give the same store.
 */
async function demoClock(f: SyncFlags): Promise<Clock> {
  if (f.now && f.today) throw new UsageError('--now and --today both set the demo clock: give one of them');
  const { demoReferenceInstant } = await import('../../sync/providers/demo/index.js');
  const instant = f.now ?? (f.today ? demoReferenceInstant(f.today) : systemClock());
  return () => instant;
}

/** The distinct reasons units failed, most frequent first, for the one-line summary. */
function failureReasons(report: SyncReport): string {
  const counts = new Map<string, number>();
  for (const f of report.failures)
    counts.set(f.error ?? 'unknown error', (counts.get(f.error ?? 'unknown error') ?? 0) + 1);
  const top = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([reason, n]) => `${n}× ${reason}`);
  return top.join(' | ') + (counts.size > 3 ? ` | ${counts.size - 3} other reasons` : '');
}

function parseOrigin(name: string) {
  return (value: string): string => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
      throw new UsageError(
        `${name} must be an http(s) origin such as https://site.api.espn.com, got ${JSON.stringify(value)}`,
      );
    }
    return value;
  };
}

function parseRetries(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 20)
    throw new UsageError(`--retries must be an integer from 0 to 20, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function syncCommand(): Command {
  return new Command('sync')
    .description('fill or refresh the store from a provider (demo generator, recorded ESPN files, or ESPN over HTTP)')
    .addHelpText(
      'after',
      `
Demo (--provider demo):
  Generates all 16 leagues from --seed. Each league plays the season that contains the clock, on
  a calendar and with results fixed by the seed and the season; the clock (--now, or --today at
  12:00 UTC; default: the current time) only decides how far it has got: earlier matches are
  finished, those under way are live at the right minute, later ones scheduled. The same seed and
  clock give the same store, timestamps included. --scale multiplies the number of matchdays.

ESPN over HTTP (--provider espn):
  Pulls, per league: the team list and each team's roster, one scoreboard per day from --from to
  --to (default: today − ${DEFAULT_WINDOW_BACK} days to today + ${DEFAULT_WINDOW_AHEAD} days, UTC), the summary and every core plays
  page of each match on those boards, and standings (current table, plus each --season).
  A routine sync skips finished matches whose summary and complete play stream are stored, and
  rosters stored in the last 24 hours; --full fetches them anyway.
  Each request times out after --timeout ms and is retried (--retries times, exponential backoff
  with jitter, Retry-After honoured up to ${HTTP_DEFAULTS.retryAfterMaxMs / 1000} s) on network errors, timeouts, 408/425/429/5xx and
  invalid bodies. Once ${HTTP_DEFAULTS.outageThreshold} requests in a row have used up their retries, the rest are tried
  once each until one succeeds, so an outage fails fast. A 404 means "not available" and is not a
  failure. At most --concurrency requests are in flight. Exit code 1 when any unit failed; what
  succeeded is kept, and nothing stored is erased by a failure.`,
    )
    .addOption(
      new Option('--provider <name>', 'where the data comes from')
        .choices(['demo', 'files', 'espn'])
        .makeOptionMandatory(),
    )
    .option('--source <dir>', 'files: directory of recorded ESPN responses (<league>/scoreboard/<YYYYMMDD>.json, …)')
    .option('--seed <n>', 'demo: generator seed', parsePositiveInt('--seed'), 1)
    .option('--today <YYYYMMDD>', 'demo: the clock is 12:00 UTC on this day (instead of --now)', parseDate('--today'))
    .option(
      '--now <ISO-8601>',
      'demo: the clock, an instant such as 2026-03-21T15:30:00Z (default: the current time)',
      parseNow,
    )
    .option(
      '--scale <s>',
      'demo: multiply the amount of data (matches) by this factor',
      (v) => {
        const n = Number(v);
        if (!Number.isFinite(n) || n <= 0 || n > 100)
          throw new UsageError(`--scale must be a number in (0, 100], got ${JSON.stringify(v)}`);
        return n;
      },
      1,
    )
    .option('--base-url <origin>', 'espn: site API origin', parseOrigin('--base-url'), 'https://site.api.espn.com')
    .option(
      '--core-url <origin>',
      'espn: core API origin (play-by-play)',
      parseOrigin('--core-url'),
      'https://sports.core.api.espn.com',
    )
    .option('--leagues <slugs>', 'comma-separated league slugs (default: all 16)')
    .option(
      '--from <YYYYMMDD>',
      `espn: first scoreboard day (default: today − ${DEFAULT_WINDOW_BACK} days)`,
      parseDate('--from'),
    )
    .option(
      '--to <YYYYMMDD>',
      `espn: last scoreboard day (default: today + ${DEFAULT_WINDOW_AHEAD} days)`,
      parseDate('--to'),
    )
    .option('--season <YYYY>', 'espn: also pull standings for this season (repeatable)', (v, prev: number[] = []) => {
      if (!/^\d{4}$/.test(v)) throw new UsageError(`--season must be a four-digit year, got ${JSON.stringify(v)}`);
      return [...prev, Number(v)];
    })
    .option('--concurrency <n>', 'provider requests in flight at once', parsePositiveInt('--concurrency'), 6)
    .option(
      '--timeout <ms>',
      'espn: per-request timeout in milliseconds, body included',
      parsePositiveInt('--timeout'),
      HTTP_DEFAULTS.timeoutMs,
    )
    .option(
      '--retries <n>',
      'espn: retries of a request after a network error, timeout, 408/425/429/5xx or invalid body',
      parseRetries,
      HTTP_DEFAULTS.retries,
    )
    .option(
      '--full',
      `espn: refetch everything, including finished matches already complete in the store and rosters synced in the last 24 hours`,
    )
    .action(async function (this: Command) {
      const f = this.opts<SyncFlags>();
      const leagues = parseLeagues(f.leagues);
      let store: DB | undefined;
      const clock = f.provider === 'demo' ? await demoClock(f) : systemClock;
      const provider = await makeProvider(f, clock, () => store!);
      store = openStore(f.db);
      const db = store;
      const started = performance.now();
      const progress = new Progress(`sync ${f.provider}`);
      try {
        const report = await runSync(db, provider, {
          leagues,
          concurrency: f.concurrency,
          clock,
          onPlanned: (n) => progress.plan(n),
          onUnit: (r) => progress.tick(r.status === 'failed'),
        });
        progress.finish();
        const secs = ((performance.now() - started) / 1000).toFixed(1);
        for (const fail of report.failures.slice(0, 20)) {
          process.stderr.write(
            `failed: ${fail.league} ${fail.resource}${fail.key ? ` ${fail.key}` : ''}: ${fail.error}\n`,
          );
        }
        if (report.failures.length > 20) process.stderr.write(`failed: … and ${report.failures.length - 20} more\n`);
        const ignored = report.ignored.length ? `, ${report.ignored.length} ignored` : '';
        const line =
          `sync ${report.provider}: ${leagues.length} leagues, ${report.units.ok} units ok, ${report.units.failed} failed` +
          `, ${report.units.unavailable} not available${ignored}, ${report.written} records written in ${secs}s`;
        if (report.failures.length) {
          process.stderr.write(`${line}; failures: ${failureReasons(report)}\n`);
          process.exitCode = 1;
        } else {
          process.stdout.write(`${line}\n`);
        }
      } finally {
        db.close();
      }
    });
}
