#!/usr/bin/env node
// The CLI runs from the compiled tree (`npm install` runs `prepare`, which compiles src/ into build/).
import('../build/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('build/cli/main.js')) {
    process.stderr.write('fds: the compiled CLI is missing; run `npm install` (or `npm run build:ts`) first\n');
    process.exit(1);
  }
  throw err;
});
