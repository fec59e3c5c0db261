/**
 * `fds start` (what `npm start` runs): the demo, served as soon as what a first visit asks for is in
 * the store. A whole season at real weight takes minutes to sync and build, so it goes in steps:
 *
 *   1. sync the demo's boards, clubs and tables of every league, and the summaries and plays of the
 *      matches of the clock's day ± 1 — a complete sync of that much, so `/meta` and every
 *      freshness field are right from here on;
 *   2. serve (`fds serve --welcome` in a process of its own): the address is printed, and every
 *      request is rendered from the store until a build is published;
 *   3. sync the rest of the season (the summaries and plays of every other match), then
 *   4. build (`fds build` in a process of its own); once published, the server answers from its files.
 *
 * The demo clock stands still for the whole run, so the store ends as `fds sync` at that clock
 * leaves it. A build published before is unpublished first (its release stays for `fds build` to
 * prune): it was built from an older store and would answer with what the store no longer holds.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { Command } from 'commander';
import { DEFAULT_OUT, currentRelease } from '../../release/layout.js';
import { openStore } from '../../store/db.js';
import { failureReasons, runSync } from '../../sync/run-sync.js';
import type { SyncReport } from '../../sync/run-sync.js';
import { createDemoProvider, demoReferenceInstant } from '../../sync/providers/demo/index.js';
import type { DemoOptions } from '../../sync/providers/demo/index.js';
import { addDays, systemClock, ymd } from '../../util/time.js';
import { UsageError, parseInstantOption } from '../errors.js';
import { Progress } from '../progress.js';
import {
  DEMO_WINDOW_AHEAD,
  DEMO_WINDOW_BACK,
  concurrencyOf,
  parseDate,
  parseLeagues,
  providerOptions,
} from '../provider-options.js';
import { parsePort } from './serve.js';

interface StartFlags {
  db: string;
  out: string;
  port: number;
  host: string;
  seed: number;
  scale: number;
  weight: 'real' | 'light';
  leagues?: string;
  today?: string;
  now?: Date;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Seconds since `t0`, for the lines a person reads. */
const since = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

export function startCommand(): Command {
  const cmd = new Command('start')
    .description(
      'try the service on demo data: sync the boards and the matches around today, serve, then sync the rest of the season and build',
    )
    .addHelpText(
      'after',
      `
Steps (each prints a line):
  1. a demo sync of every league's boards, clubs and tables, and of the summaries and plays of the
     matches of the clock's day − ${DEMO_WINDOW_BACK} to + ${DEMO_WINDOW_AHEAD};
  2. \`fds serve --welcome\` on --host:--port: the address is printed, and the server renders every
     request from the store until a build is published;
  3. a demo sync of the rest of the season (every other match's summary and plays);
  4. \`fds build --out\`; once it is published the server answers from its files.
The demo clock (--now, --today at 12:00 UTC, or the time the command started) stands still for the
whole run. A build published in --out before is unpublished first (its release stays beside it until a
build prunes it): it would answer from an older store. Ctrl-C stops the server and whatever still runs.`,
    )
    .option('--out <dir>', 'where the build is published and served from (a symlink to the release)', DEFAULT_OUT)
    .option('--port <port>', 'TCP port (0 = any free port)', parsePort, 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1');
  for (const option of providerOptions()) {
    if (['--seed', '--scale', '--weight', '--leagues'].includes(option.long ?? '')) cmd.addOption(option);
  }
  return cmd
    .option('--today <YYYYMMDD>', 'the demo clock is 12:00 UTC on this day (instead of --now)', parseDate('--today'))
    .option('--now <ISO-8601>', 'the demo clock (default: the current time)', parseInstantOption('--now'))
    .action(async function (this: Command) {
      const f = this.opts<StartFlags>();
      if (f.now && f.today) throw new UsageError('--now and --today both set the demo clock: give one of them');
      const instant = f.now ?? (f.today ? demoReferenceInstant(f.today) : systemClock());
      const clock = () => instant;
      const t0 = performance.now();
      const demo: DemoOptions = { seed: f.seed, now: instant, scale: f.scale, weight: f.weight };
      const matchDays = {
        from: ymd(addDays(instant, -DEMO_WINDOW_BACK)),
        to: ymd(addDays(instant, DEMO_WINDOW_AHEAD)),
      };
      const leagues = parseLeagues(f.leagues);
      const children = new Set<ChildProcess>();
      const stop = new AbortController();
      const onSignal = (signal: NodeJS.Signals) => {
        stop.abort();
        for (const child of children) child.kill(signal);
      };
      for (const signal of SIGNALS) process.on(signal, onSignal);

      const db = openStore(f.db);
      let server: Promise<number> | undefined;
      let failed = false;
      try {
        // 1. What a first visit asks for.
        const progress = new Progress('start: sync boards and today');
        const first = await runSync(db, createDemoProvider({ ...demo, matchDays }), {
          leagues,
          concurrency: concurrencyOf({ provider: 'demo' }),
          clock,
          onPlanned: (n) => progress.plan(n),
          onUnit: (r) => progress.tick(r.status === 'failed'),
          signal: stop.signal,
        });
        progress.finish();
        say(syncLine(`boards, clubs and tables, and the matches of ${matchDays.from}–${matchDays.to}`, first, t0));
        if (stop.signal.aborted) return;

        // 2. Serve: from the store until a build of it is published.
        if (currentRelease(f.out) && fs.lstatSync(f.out).isSymbolicLink()) {
          fs.unlinkSync(f.out);
          say(`start: unpublished the build in ${f.out} (from an older store) until this one's is published`);
        }
        const serveArgs = ['serve', '--db', f.db, '--dir', f.out, '--port', String(f.port), '--host', f.host];
        server = run(children, [...serveArgs, '--welcome'], true);
        // A server that ends (its port taken, a signal) ends the run: nothing is left to serve what follows.
        void server.then(() => stop.abort());

        // 3. The rest of the season.
        const t3 = performance.now();
        const rest = await runSync(db, createDemoProvider(demo), {
          leagues,
          concurrency: concurrencyOf({ provider: 'demo' }),
          clock,
          signal: stop.signal,
        });
        say(syncLine('the rest of the season', rest, t3));
        db.close();
        if (stop.signal.aborted) return;

        // 4. The first build.
        const t4 = performance.now();
        const built = await run(children, ['build', '--db', f.db, '--out', f.out]);
        if (stop.signal.aborted) return;
        if (built === 0) say(`start: the first build is published after ${since(t0)} s (built in ${since(t4)} s)`);
        else {
          process.stderr.write(`fds start: the build failed (exit code ${built}); serving from the store\n`);
          failed = true;
        }
      } finally {
        if (db.open) db.close();
        // Serving until stopped.
        if (server) {
          const code = await server;
          process.exitCode = failed && code === 0 ? 1 : code;
        }
        for (const signal of SIGNALS) process.off(signal, onSignal);
      }
    });
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function syncLine(what: string, r: SyncReport, t0: number): string {
  const failed = r.units.failed ? `; ${r.units.failed} units failed: ${failureReasons(r.failures)}` : '';
  return `start: synced ${what} (${r.units.ok} units, ${r.written} records) in ${since(t0)} s${failed}`;
}

/**
 * This CLI again as a child process with `args`, its output on ours; settles with its exit code. A
 * server goes in a process group of its own, so a terminal's Ctrl-C reaches it once, passed on here.
 */
function run(children: Set<ChildProcess>, args: string[], ownGroup = false): Promise<number> {
  // The IPC channel closes when this process ends however it ends, which the child takes as its end (restart.ts).
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: ownGroup,
  });
  children.add(child);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal === 'SIGINT' ? 130 : 1));
    });
    child.on('error', () => {
      children.delete(child);
      resolve(1);
    });
  });
}
