/**
 * `fds live`: the publishing loop in one process (docs/cli.md). Sync → build → serve, then a
 * routine sync and an incremental build every --every seconds while serving; the server notices
 * each new release by itself. With the demo the clock runs in real time from the start of a
 * matchday, so a person watching a scoreboard sees matches kick off, score and finish.
 */
import { DEFAULT_OUT } from '../../release/layout.js';
import { Command, Option } from 'commander';
import { openStore } from '../../store/db.js';
import { StoreReader } from '../../store/read/reader.js';
import { createApiServer } from '../../server/http.js';
import type { ApiServer } from '../../server/http.js';
import { StaticBuild } from '../../server/static-lookup.js';
import { SERVE_MAP_BYTES } from '../../store/store-source.js';
import { AssetServer } from '../../frontdoor/serve-assets.js';
import { BuildError } from '../../publish/build.js';
import { runCycle, cycleLine } from '../../live/cycle.js';
import type { CycleDeps, CycleReport } from '../../live/cycle.js';
import { runLoop } from '../../live/loop.js';
import { nextCycleIn } from '../../live/cadence.js';
import { liveClock, watchLeague } from '../../live/demo-clock.js';
import { systemClock } from '../../util/time.js';
import type { Clock } from '../../util/time.js';
import { Progress } from '../progress.js';
import { UsageError, parseInstantOption } from '../errors.js';
import {
  concurrencyOf,
  espnHttp,
  makeProvider,
  parseLeagues,
  providerOption,
  providerOptions,
} from '../provider-options.js';
import type { ProviderFlags } from '../provider-options.js';
import { summaryLine } from './build.js';
import { originOf, parsePort, shownOrigin, welcome } from './serve.js';
import { writeFailures } from './sync.js';
import { addServerOptions, serverOptionsOf } from '../server-options.js';
import type { ServerFlags } from '../server-options.js';
import { purgeOption } from '../purge-options.js';
import { fallbackOption, workersOption } from '../build-options.js';
import { Purger } from '../../purge/purger.js';
import type { PurgeTarget } from '../../purge/target.js';

interface LiveFlags extends ProviderFlags, ServerFlags {
  db: string;
  fallback: string;
  purge: PurgeTarget[];
  every?: number;
  idleEvery?: number;
  port: number;
  host: string;
  out: string;
  workers: number;
  start?: Date;
  fromMatchday: boolean;
  requestLog: boolean;
}

/**
 * Seconds between cycles when --every is not given: the demo moves every second; with ESPN this is
 * the cadence while a league is hot (its scoreboards are cached 2 s upstream, and careful clients
 * poll a live match every 5–30 s), and DEFAULT_IDLE_EVERY otherwise.
 */
export const DEFAULT_EVERY = { demo: 15, files: 60, espn: 10 } as const;
export const DEFAULT_IDLE_EVERY = 300;
/** How long a stop waits for a running cycle before leaving it (builds are atomic; so is each sync unit). */
const STOP_GRACE_MS = 5_000;

const parseSeconds =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > 86_400)
      throw new UsageError(`${name} must be a number of seconds in (0, 86400], got ${JSON.stringify(value)}`);
    return n;
  };

const parseStart = parseInstantOption('--start');

const say = (line: string) => process.stdout.write(`${line}\n`);

export function liveCommand(): Command {
  const cmd = new Command('live')
    .description(
      'the publishing loop in one process: sync, build and serve, then sync and build again every --every seconds',
    )
    .addHelpText(
      'after',
      `
The first cycle is a full sync (with the demo: the whole season) and a build; then the server
starts (it prints its address and requests to try) and every --every seconds a routine sync and
an incremental build publish what changed — one line per cycle: the clock, records changed, files
rendered and written, seconds. Cycles never overlap: one that runs long is followed at once by the
next. A failed unit is reported on its cycle's line and the loop goes on. SIGINT or SIGTERM stops
scheduling, lets a running cycle finish (for at most ${STOP_GRACE_MS / 1000} s; builds are atomic), closes the
server and exits 0.

Demo clock (--provider demo): it runs in real time from the first kickoff of the matchday under
way at --start (default: now), or of the next one — so within minutes matches kick off, score
and finish on /get/soccer/<league>/scoreboard, whose default day is the demo clock's. With
--no-from-matchday it runs from --start itself. A routine sync takes the boards of yesterday,
today and tomorrow (by the demo clock) plus any other day that moved on, and only the matches on
them that moved on (see \`fds sync --help\`).

ESPN (--provider espn): every cycle is an ordinary \`fds sync\` on the real clock, by the request
plan kept in the store (see \`fds sync --help\`): while a league has a match from 10 minutes before
kickoff until it ends, a cycle every --every seconds (default ${DEFAULT_EVERY.espn}) asks that league's day board
and the summary and plays of the matches that moved; otherwise a cycle every --idle-every seconds
(default ${DEFAULT_IDLE_EVERY}), waking early at the next hot start. Each cycle line names the hot leagues and
what the cycle asked (requests and bytes by kind); after a 403 it says BLOCKED until when, and the
server goes on serving what is stored. Recorded files: an ordinary sync every --every seconds.

Behind a CDN (docs/deploying.md): --trust-proxy so the rate limits count each client, not the CDN;
--fallback with the origin's URL; --purge so each publish purges the cache tags of the answers it
changed. A cycle never waits for its purge: its line ends with what the purge did once it answered
(or failed: the tags then go with the next cycle's purge).`,
    )
    .addOption(providerOption().default('demo'));
  for (const option of providerOptions()) cmd.addOption(option);
  cmd
    .addOption(
      new Option(
        '--every <seconds>',
        'seconds from the start of one cycle to the next (espn: while a league is hot; default: demo 15, espn 10, files 60)',
      ).argParser(parseSeconds('--every')),
    )
    .addOption(
      new Option(
        '--idle-every <seconds>',
        `espn: seconds between cycles while no league is hot (default ${DEFAULT_IDLE_EVERY}; the loop wakes at the next hot start)`,
      ).argParser(parseSeconds('--idle-every')),
    )
    .option('--out <dir>', 'output: a symlink to the published release', DEFAULT_OUT)
    .addOption(workersOption(true))
    .addOption(
      fallbackOption(
        "where the release's rules send requests without a file: a Netlify Function path, or an origin URL",
      ),
    )
    .addOption(purgeOption('after each publish (the tags of the answers it changed; a failure is retried next cycle)'))
    .option('--port <port>', 'TCP port (0 = any free port; the address is printed)', parsePort, 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1');
  return addServerOptions(cmd)
    .option(
      '--start <ISO-8601>',
      'demo: where the demo clock starts (default: now; see --no-from-matchday)',
      parseStart,
    )
    .option('--no-from-matchday', 'demo: start the demo clock at --start itself, not at a matchday start')
    .option('--no-request-log', 'do not print a JSON line per request')
    .action(async function (this: Command) {
      await live(this.opts<LiveFlags>());
    });
}

async function live(f: LiveFlags): Promise<void> {
  const leagues = parseLeagues(f.leagues);
  const everyMs = (f.every ?? DEFAULT_EVERY[f.provider]) * 1000;
  const idleMs = (f.idleEvery ?? DEFAULT_IDLE_EVERY) * 1000;
  const demo = f.provider === 'demo';
  // One transport for the whole loop: ESPN's validators and a block outlive a cycle.
  const http = f.provider === 'espn' ? espnHttp(f) : undefined;
  const clock: Clock = demo
    ? liveClock({ seed: f.seed, scale: f.scale, leagues, start: f.start ?? new Date(), fromMatchday: f.fromMatchday })
    : systemClock;
  // Usage errors (a bad source, window or origin) before any store file is made.
  await makeProvider(f, {}, clock, () => {
    throw new Error('unreachable: the first provider only checks the options');
  });

  const stop = stopOnSignals();
  const db = openStore(f.db);
  // The loop's builds read through a memory map, as the server does: a long-lived reader whose
  // pages SQLite's own small cache cannot hold (docs/performance.md, "Builds").
  const reader = StoreReader.open(f.db, { mapBytes: SERVE_MAP_BYTES });
  // Stopping aborts the purge requests in flight: the tags of a publish nobody will see are moot.
  const purger = f.purge.length ? new Purger(f.purge, { signal: stop.signal }) : null;
  const deps: CycleDeps = {
    db,
    reader,
    out: f.out,
    workers: f.workers,
    fallback: f.fallback,
    purger,
    leagues,
    concurrency: concurrencyOf(f),
    signal: stop.signal,
  };
  const cycle = async (routine: boolean, progress?: Progress): Promise<CycleReport> => {
    const at = clock();
    const provider = await makeProvider(
      f,
      { routine: routine && demo, http, leagues },
      () => at,
      () => db,
    );
    if (!progress) return runCycle(deps, provider, at);
    try {
      return await runCycle(
        { ...deps, onPlanned: (k) => progress.plan(k), onUnit: (r) => progress.tick(r.status === 'failed') },
        provider,
        at,
      );
    } finally {
      progress.finish();
    }
  };

  let served: Served | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const lines = new CycleLines();
  try {
    // The first cycle fills the store (the demo's whole season), with progress on a terminal.
    const first = cycle(false, new Progress(`cycle 1: sync ${f.provider}`));
    running = first;
    const report = await first;
    writeFailures(report.sync, 5);
    lines.cycle(1, report);
    const built = report.build;
    if (built) lines.line(() => summaryLine(built, f.out));
    if (stop.signal.aborted) return;

    served = await serveRelease(f, clock);
    const cadence =
      f.provider === 'espn'
        ? `a cycle every ${everyMs / 1000}s while a league is hot, else every ${idleMs / 1000}s`
        : `a cycle every ${everyMs / 1000}s`;
    say(`fds live: serving ${served.origin} from ${f.out}, ${cadence} (Ctrl-C stops)`);
    process.stdout.write(welcome(served.origin, reader));
    const league = demo ? watchLeague(f.seed, f.scale, clock().getTime(), leagues) : leagues[0]!;
    say(`Watch it move: curl '${shownOrigin(served.origin)}/get/soccer/${league}/scoreboard'\n`);

    let last = report;
    const every = () => (f.provider === 'espn' ? nextCycleIn(last.sync.upstream, everyMs, idleMs) : everyMs);
    await runLoop({
      everyMs: every,
      signal: stop.signal,
      first: 2,
      startAt: performance.now() + every(),
      cycle: async (n) => {
        const next = cycle(true);
        running = next;
        last = await next;
        lines.cycle(n, last);
      },
      onError: (n, err) => {
        const failures = err instanceof BuildError ? `: ${err.failures.slice(0, 3).join('; ')}` : '';
        process.stderr.write(`cycle ${n} failed: ${err instanceof Error ? err.message : String(err)}${failures}\n`);
      },
    });
  } finally {
    stop.release();
    const settled = await settles(running, STOP_GRACE_MS);
    await served?.api.close();
    served?.lookup.close();
    // The last lines (their purges were aborted by the stop, so they settle at once).
    await lines.printed;
    if (settled) {
      reader.close();
      db.close();
    } else {
      // A build still running past the grace: leave it. The published release is untouched, and the
      // next build takes over its lock and removes its temporary files.
      say('fds live: left a running cycle; the published build and the store are as its last complete steps left them');
      process.exit(0);
    }
  }
}

/** SIGINT or SIGTERM stops scheduling: the signal aborts; `release` stops listening. */
function stopOnSignals(): { signal: AbortSignal; release(): void } {
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) return;
    say(`fds live: ${signal}: stopping`);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    release() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/**
 * Cycle lines in order, each once its purge has reported (within the purger's wait): the loop goes
 * on meanwhile, never waiting for a purge.
 */
class CycleLines {
  printed: Promise<void> = Promise.resolve();

  cycle(n: number, r: CycleReport): void {
    const purge = r.purge;
    this.printed = this.printed.then(async () => {
      say(cycleLine(n, r, purge ? await purge : null));
    });
  }

  line(text: () => string): void {
    this.printed = this.printed.then(() => {
      say(text());
    });
  }
}

interface Served {
  api: ApiServer;
  lookup: StaticBuild;
  origin: string;
}

/** The server over the published release; it notices each new release by itself. */
async function serveRelease(f: LiveFlags, clock: Clock): Promise<Served> {
  const lookup = new StaticBuild(f.out);
  const api = createApiServer({
    storeFile: f.db,
    staticLookup: lookup,
    assets: new AssetServer(f.out),
    // The date-less scoreboard is "today" by the demo clock, so it shows the matchday being played.
    clock,
    ...serverOptionsOf(f),
    log: f.requestLog ? undefined : null,
    shutdownGraceMs: STOP_GRACE_MS,
  });
  try {
    return { api, lookup, origin: originOf(await api.listen(f.port, f.host)) };
  } catch (err) {
    // A port in use, say: nothing of the server stays open to keep the process alive.
    await api.close();
    lookup.close();
    throw err;
  }
}

/** Whether `running` settles (either way) within `ms`. */
function settles(running: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    running.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => setTimeout(resolve, ms, false).unref()),
  ]);
}
