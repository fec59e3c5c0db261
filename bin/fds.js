#!/usr/bin/env node
// The CLI runs from the compiled tree (`npm install` runs `prepare`, which compiles src/ into build/).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

/**
 * `fds build` runs with a heap sized for what a build holds (src/cli/build-heap.ts); V8 takes heap
 * limits only at start, so the build is started again with them, signals passed on.
 */
async function buildWithBoundedHeap() {
  const { BUILD_HEAP_FLAGS } = await import('../build/cli/build-heap.js');
  const args = [...BUILD_HEAP_FLAGS, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, FDS_BUILD_HEAP: '1' } });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
}

if (process.argv[2] === 'build' && !process.env.FDS_BUILD_HEAP) buildWithBoundedHeap().catch(fail);
else import('../build/cli/main.js').catch(fail);
