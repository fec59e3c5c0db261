#!/usr/bin/env node
// The CLI runs from the compiled tree (`npm install` runs `prepare`, which compiles src/ into build/).
// This file is CommonJS (bin/package.json), so it can say what is missing before any ES module loads.

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
