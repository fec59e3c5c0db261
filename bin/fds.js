#!/usr/bin/env node
// The CLI runs from the compiled tree (`npm install` runs `prepare`, which compiles src/ into build/).

function missing(err) {
  return err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('/build/cli/');
}

function fail(err) {
  if (missing(err)) {
    process.stderr.write('fds: the compiled CLI is missing; run `npm install` (or `npm run build:ts`) first\n');
    process.exit(1);
  }
  throw err;
}

import('../build/cli/main.js').catch(fail);
