#!/usr/bin/env node
// The CLI runs from the compiled tree (`npm install` runs `prepare`, which compiles src/ into build/).
// This file is CommonJS (bin/package.json): it runs before the ES module loader, whose first read of
// a file starts libuv's thread pool, so the pool's size can still be chosen here.

// Names src/cli/build-heap.ts gives (it cannot be imported here, before the module loader runs):
/** Set for a `fds build` whose pool size this file chose: the bounded build gets libuv's default back. */
const SMALL_POOL = 'FDS_BUILD_SMALL_POOL';
/** Set in the bounded build, which has its own pool setting. */
const BOUNDED = 'FDS_BUILD_HEAP';

// `fds build` after a sync is a small incremental build in this process (build-heap.ts). Its
// background writes (manifest, rule spool) run on libuv's pool; with the default
// four threads they took CPU from the build's own thread on two cores. With one thread the day step
// at demo scale 4 took 0.02–0.07 s less (medians of five sets of 9–15 interleaved runs, of about
// 1.1 s, when the response files were written on the pool too; since the build writes them in its
// own thread, four threads were no faster: 0.91 against 0.89 s, 15 pairs). A user's own setting wins.
if (process.argv[2] === 'build' && process.env.UV_THREADPOOL_SIZE === undefined && !process.env[BOUNDED]) {
  process.env.UV_THREADPOOL_SIZE = '1';
  process.env[SMALL_POOL] = '1';
}

function missing(err) {
  return err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('/build/bundle/');
}

function fail(err) {
  if (missing(err)) {
    process.stderr.write('fds: the compiled CLI is missing; run `npm install` (or `npm run build:ts`) first\n');
    process.exit(1);
  }
  throw err;
}

// The bundle of the compiled tree (scripts/bundle.mjs): one file per command loads faster than its modules.
import('../build/bundle/main.js').catch(fail);
