/**
 * The command line, as main.ts hands it over: every command takes --db; failures print one line on
 * stderr and exit non-zero.
 */
import { Command, CommanderError } from 'commander';
import { CommandFailed, UsageError } from './errors.js';
import { StoreError } from '../store/db.js';
import { ownPackage } from '../util/package.js';

export const DEFAULT_DB = 'data/football.sqlite';

const { version } = ownPackage(import.meta.url);

/**
 * The commands, in the order help lists them. Each is loaded only when it runs (or when help lists
 * them all): a command's modules take noticeable time to load, and `fds build` after each sync
 * should not pay for the sync's and the server's (docs/performance.md).
 */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<Command>]> = [
  ['sync', async () => (await import('./commands/sync.js')).syncCommand()],
  ['serve', async () => (await import('./commands/serve.js')).serveCommand()],
  ['build', async () => (await import('./commands/build.js')).buildCommand()],
  ['check', async () => (await import('./commands/check.js')).checkCommand()],
  ['live', async () => (await import('./commands/live.js')).liveCommand()],
  ['start', async () => (await import('./commands/start.js')).startCommand()],
];

/** The CLI with the command `argv` names, or with every command when it names none of them. */
export async function program(argv: readonly string[] = process.argv): Promise<Command> {
  const named = COMMANDS.filter(([name]) => name === argv[2]);
  const commands = await Promise.all((named.length ? named : COMMANDS).map(([, load]) => load()));
  const cli = new Command('fds')
    .description(
      'Football Data Service: sync football data into SQLite, pre-render the JSON API for a CDN, serve the rest',
    )
    .version(version, '-V, --version', 'print the version')
    .exitOverride();
  for (const command of commands) cli.addCommand(command);
  for (const cmd of cli.commands) cmd.exitOverride().option('--db <path>', 'SQLite store', DEFAULT_DB);
  return cli;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await (await program(argv)).parseAsync(argv);
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
