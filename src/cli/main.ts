#!/usr/bin/env node
/**
 * `fds`: the command line's entry. It loads only what decides whether a build starts again at once
 * with its heap flags (build-heap.ts), which is all such a build's first process does: loading
 * commander, the store's module and the rest of the command line (cli.ts) would only delay it
 * (docs/performance.md).
 */
import { runBounded, startsAgainAtOnce } from './build-heap.js';

// A reader that stops early (`fds sync --help | head -1`) closes the pipe: there is nothing left to say.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(process.exitCode ?? 0);
});

// A build sure to be full starts again with its heap flags before this process loads the command,
// opens the store and plans, which the build in that process does anyway.
if (startsAgainAtOnce(process.argv)) process.exitCode = await runBounded();
else await (await import('./cli.js')).main(process.argv);
