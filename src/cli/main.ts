#!/usr/bin/env node
/** `fds`: the command line. Every command takes --db; failures print one line on stderr and exit non-zero. */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { syncCommand } from './commands/sync.js';
import { serveCommand } from './commands/serve.js';
import { buildCommand } from './commands/build.js';
import { checkCommand } from './commands/check.js';
import { liveCommand } from './commands/live.js';
import { CommandFailed, UsageError } from './errors.js';
import { StoreError } from '../store/db.js';

export const DEFAULT_DB = 'data/football.sqlite';

/** The package's version, from its package.json: two levels up from src/cli/ and from build/cli/ alike. */
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

export function program(): Command {
  const cli = new Command('fds')
    .description(
      'Football Data Service: sync football data into SQLite, pre-render the JSON API for a CDN, serve the rest',
    )
    .version(version, '-V, --version', 'print the version')
    .exitOverride();
  cli.addCommand(syncCommand());
  cli.addCommand(serveCommand());
  cli.addCommand(buildCommand());
  cli.addCommand(checkCommand());
  cli.addCommand(liveCommand());
  for (const cmd of cli.commands) cmd.exitOverride().option('--db <path>', 'SQLite store', DEFAULT_DB);
  return cli;
}

async function main(argv: string[]): Promise<void> {
  try {
    await program().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its message; its usage errors exit 2 like ours, help and --version 0.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`fds: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof UsageError || err instanceof CommandFailed) process.exitCode = err.exitCode;
    else {
      // A store that cannot be opened, a publish refused: failed work, not a usage error.
      if (!(err instanceof StoreError) && process.env.FDS_DEBUG) console.error(err);
      process.exitCode = 1;
    }
  }
}

await main(process.argv);
