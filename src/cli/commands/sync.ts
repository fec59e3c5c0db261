import { Command } from 'commander';
import { openStore } from '../../store/db.js';
import type { DB } from '../../store/db.js';
import { failureReasons, runSync } from '../../sync/run-sync.js';
import type { SyncReport } from '../../sync/run-sync.js';
import { HTTP_DEFAULTS } from '../../sync/http/fetch-json.js';
import { PLAN } from '../../sync/plan/periods.js';
import { upstreamLine } from '../../sync/upstream-line.js';
import { systemClock } from '../../util/time.js';
import type { Clock } from '../../util/time.js';
import { Progress } from '../progress.js';
import { UsageError, parseInstantOption } from '../errors.js';
import {
  DEFAULT_WINDOW_AHEAD,
  DEFAULT_WINDOW_BACK,
  DEMO_WINDOW_AHEAD,
  DEMO_WINDOW_BACK,
  concurrencyOf,
  makeProvider,
  parseDate,
  parseLeagues,
  providerOption,
  providerOptions,
} from '../provider-options.js';
import type { ProviderFlags } from '../provider-options.js';

interface SyncFlags extends ProviderFlags {
  db: string;
  today?: string;
  now?: Date;
  from?: string;
  to?: string;
  full?: boolean;
}

const parseNow = parseInstantOption('--now');

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

export function syncCommand(): Command {
  const cmd = new Command('sync')
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
  Without --from/--to the whole season is pulled and refreshed. With --from and/or --to (default:
  the clock's day − ${DEMO_WINDOW_BACK} to + ${DEMO_WINDOW_AHEAD}) the sync is a routine one, as each cycle of \`fds live\`: it pulls
  the scoreboard days in that window plus every other day whose board moved on since the store
  took it (a match under way or over since then, or a fixture whose clubs' form became known) —
  a day never stored is such a day, so the first routine sync into an empty store fills the whole
  season —, skips finished matches whose final summary and complete play stream are stored and
  rosters stored in the last 24 hours (by the demo clock), and always refreshes team lists and
  standings. It assumes the store holds this --seed and --scale. The store ends up as after a
  whole-season sync at the same clock.

ESPN over HTTP (--provider espn):
  Asks by a plan kept in the store (docs/cli.md, "ESPN over HTTP"), each part on its own
  period, so a sync asks only what can have changed:
    window     the month boards (dates=YYYYMM&limit=${PLAN.monthLimit}) covering --from to --to (default: today
               − ${DEFAULT_WINDOW_BACK} to today + ${DEFAULT_WINDOW_AHEAD} days, UTC), hourly, every 15 minutes on a day with
               matches; a month that answers 400 or exactly ${PLAN.monthLimit} events is asked day by day from then on
    live       the day board of each league with a match from 10 minutes before kickoff until it ends;
               a match's summary when its board entry changed (score, status, period, goals and
               cards) and once a minute while in play, its plays after such a change
    settle     a match that ended: summary, plays and the league's table, again 30 minutes later
    catalogue  team lists and tables daily; rosters, and fixtures that left the window unfinished
               (asked by id for a reschedule), daily, a few per run
  --full ignores the plan and asks every month, every match's summary and plays, every roster.
  After a 403 (blocked) nothing is asked for 30 minutes, doubling to 6 hours; what is stored is kept.
  Requests carry --user-agent (FDS_USER_AGENT; default football-data-service/VERSION (+URL)) and
  send back the ETag or Last-Modified an answer gave (a 304 is "unchanged").
  Each request times out after --timeout ms and is retried (--retries times, exponential backoff
  with jitter, Retry-After honoured up to ${HTTP_DEFAULTS.retryAfterMaxMs / 1000} s) on network errors, timeouts, 408/425/429/5xx and
  invalid bodies. Once ${HTTP_DEFAULTS.outageThreshold} requests in a row have used up their retries, the rest are tried
  once each until one succeeds, so an outage fails fast. A 404 means "not available" and is not a
  failure. At most --concurrency requests are in flight (default ${HTTP_DEFAULTS.concurrency}). Exit code 1 when any unit failed; what
  succeeded is kept, and nothing stored is erased by a failure.`,
    )
    .addOption(providerOption().makeOptionMandatory());
  for (const option of providerOptions()) cmd.addOption(option);
  return cmd
    .option('--today <YYYYMMDD>', 'demo: the clock is 12:00 UTC on this day (instead of --now)', parseDate('--today'))
    .option(
      '--now <ISO-8601>',
      'demo: the clock, an instant such as 2026-03-21T15:30:00Z (default: the current time)',
      parseNow,
    )
    .option(
      '--from <YYYYMMDD>',
      `first day of the fixture window (espn default: today − ${DEFAULT_WINDOW_BACK} days; demo: makes the sync a routine one)`,
      parseDate('--from'),
    )
    .option(
      '--to <YYYYMMDD>',
      `last day of the fixture window (espn default: today + ${DEFAULT_WINDOW_AHEAD} days; demo: makes the sync a routine one)`,
      parseDate('--to'),
    )
    .option(
      '--full',
      'espn: ignore the request plan and ask everything: every board of the window, every match, every roster',
    )
    .action(async function (this: Command) {
      const f = this.opts<SyncFlags>();
      const leagues = parseLeagues(f.leagues);
      let store: DB | undefined;
      const clock = f.provider === 'demo' ? await demoClock(f) : systemClock;
      const provider = await makeProvider(f, { from: f.from, to: f.to, full: f.full, leagues }, clock, () => store!);
      store = openStore(f.db);
      const db = store;
      const started = performance.now();
      const progress = new Progress(`sync ${f.provider}`);
      try {
        const report = await runSync(db, provider, {
          leagues,
          concurrency: concurrencyOf(f),
          clock,
          onPlanned: (n) => progress.plan(n),
          onUnit: (r) => progress.tick(r.status === 'failed'),
        });
        progress.finish();
        const secs = ((performance.now() - started) / 1000).toFixed(1);
        writeFailures(report);
        const ignored = report.ignored.length ? `, ${report.ignored.length} ignored` : '';
        const line =
          `sync ${report.provider}: ${leagues.length} leagues, ${report.units.ok} units ok, ${report.units.failed} failed` +
          `, ${report.units.unavailable} not available${ignored}, ${report.written} records written in ${secs}s`;
        if (report.upstream) process.stdout.write(`${upstreamLine(report.upstream)}\n`);
        if (report.failures.length) {
          process.stderr.write(`${line}; failures: ${failureReasons(report.failures)}\n`);
          process.exitCode = 1;
        } else {
          process.stdout.write(`${line}\n`);
        }
      } finally {
        db.close();
      }
    });
}

/** The first failed units, one line each, on stderr. */
export function writeFailures(report: SyncReport, max = 20): void {
  for (const fail of report.failures.slice(0, max)) {
    process.stderr.write(`failed: ${fail.league} ${fail.resource}${fail.key ? ` ${fail.key}` : ''}: ${fail.error}\n`);
  }
  if (report.failures.length > max) process.stderr.write(`failed: … and ${report.failures.length - max} more\n`);
}
