import type { AddressInfo } from 'node:net';
import { DEFAULT_OUT } from '../../release/layout.js';
import { Command } from 'commander';
import { createApiServer } from '../../server/http.js';
import { DEFAULT_CACHE_BYTES } from '../../server/file-bodies.js';
import { StaticBuild } from '../../server/static-lookup.js';
import { UsageError } from '../errors.js';
import { addServerOptions, serverOptionsOf } from '../server-options.js';
import type { ServerFlags } from '../server-options.js';
import { AssetServer } from '../../frontdoor/serve-assets.js';
import { ROUTES_BY_NAME } from '../../app/routes.js';
import { basicExamples, exampleRequests } from '../../frontdoor/examples.js';
import type { StoreReader } from '../../store/read/reader.js';
import { endWithStarter, runAgainWith } from '../restart.js';

/**
 * V8 takes heap sizes only when a process starts, so `fds serve` starts itself again with these.
 * `--initial-old-space-size=64`: from a heap the size of what the server holds, V8 runs full
 * collections often while rendering, their marking threads competing with the server for the cores
 * (docs/performance.md, "Serving"). Node's own flags given to the command come after these and win (NODE_OPTIONS does not
 * take this one).
 */
export const SERVE_V8_FLAGS = ['--initial-old-space-size=64'];
/** Set in the process started with SERVE_V8_FLAGS. */
const SERVING = 'FDS_SERVE_PROCESS';

interface ServeFlags extends ServerFlags {
  db: string;
  dir: string;
  port: number;
  host: string;
  welcome: boolean;
  cacheMb: number;
  requestLog: boolean;
}

function parseCacheMb(value: string): number {
  if (!/^\d+$/.test(value))
    throw new UsageError(`--cache-mb must be a whole number of MiB, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--port must be 0–65535, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The server's origin as it listens (an IPv6 address in brackets). */
export function originOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The origin for a person to type: a wildcard address as the loopback one. */
export function shownOrigin(origin: string): string {
  return origin.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//localhost:');
}

/** For a person at a terminal: where to point a browser, and three requests that answer with data. */
export function welcome(origin: string, store: StoreReader | null): string {
  let examples = basicExamples(ROUTES_BY_NAME);
  try {
    if (store) examples = store.read(() => exampleRequests(store, ROUTES_BY_NAME));
  } catch {
    // An unreadable store still gets a welcome; health will say what is wrong with it.
  }
  const shown = shownOrigin(origin);
  return [
    '',
    `Football Data Service is up: open ${shown}/ in a browser.`,
    'Three requests to try:',
    ...examples.map((e) => `  curl '${shown}${e.url}'    # ${e.description}`),
    '',
  ].join('\n');
}

export function serveCommand(): Command {
  const cmd = new Command('serve')
    .description(
      'serve the API: pre-rendered files from --dir when a build is there, every other request rendered from the store',
    )
    .option('--dir <dir>', 'directory of a published build', DEFAULT_OUT)
    .option('--port <port>', 'TCP port (0 = any free port)', parsePort, 8080)
    .option('--host <host>', 'interface to listen on', '127.0.0.1');
  return addServerOptions(cmd)
    .option('--welcome', 'once listening, print the address and three requests to try (for a person; npm start)', false)
    .option(
      '--cache-mb <n>',
      'memory (MiB) for hot pre-rendered files and their gzip/brotli variants; 0 reads every file per request',
      parseCacheMb,
      DEFAULT_CACHE_BYTES / (1024 * 1024),
    )
    .option('--no-request-log', 'do not write a JSON line per request to stdout (as nginx’s `access_log off`)')
    .action(async function (this: Command) {
      if (!process.env[SERVING]) {
        const env = { ...process.env, [SERVING]: '1' };
        process.exitCode = await runAgainWith(SERVE_V8_FLAGS, env, { ownGroup: true });
        return;
      }
      // Killed outright, the starter cannot pass a signal on: shut down as on SIGTERM.
      endWithStarter('SIGTERM');
      const f = this.opts<ServeFlags>();
      const staticLookup = new StaticBuild(f.dir, { cacheBytes: f.cacheMb * 1024 * 1024 });
      const api = createApiServer({
        storeFile: f.db,
        staticLookup,
        assets: new AssetServer(f.dir),
        ...serverOptionsOf(f),
        log: f.requestLog ? undefined : null,
      });
      const origin = originOf(await api.listen(f.port, f.host));
      api.store.get();
      process.stdout.write(
        `${JSON.stringify({
          time: new Date().toISOString(),
          event: 'listening',
          url: origin,
          store: f.db,
          storeError: api.store.error,
          static: staticLookup.description,
        })}\n`,
      );
      if (f.welcome) process.stdout.write(welcome(origin, api.store.get()));
      await new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), event: 'shutdown', signal })}\n`);
          void api.close().then(resolve);
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
    });
}
