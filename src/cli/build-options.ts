/**
 * The build options `fds build` and `fds live` share (docs/cli.md), defined once: how many render
 * threads a build uses, and where its rules send what has no file.
 */
import os from 'node:os';
import { Option } from 'commander';
import { WORKER_AFTER } from '../publish/write-release.js';
import { POOL_AFTER } from '../publish/render/render-pool.js';
import { DEFAULT_FALLBACK } from '../netlify/target.js';
import { thousands } from '../util/thousands.js';
import { parseCount } from './errors.js';

/** `--workers N`; `perBuild`: said of each of a loop's builds. */
export function workersOption(perBuild = false): Option {
  return new Option(
    '--workers <n>',
    `render threads${perBuild ? ' per build' : ''} at most (default: one per core; an incremental build of ` +
      `fewer than ${thousands(POOL_AFTER)} changes uses one beside the main thread, or none below ` +
      `${thousands(WORKER_AFTER)}; 0 renders in the main thread)`,
  )
    .argParser(parseCount('--workers'))
    .default(os.availableParallelism());
}

/** `--fallback TARGET`, by default `FDS_FALLBACK` or the Netlify Function. */
export function fallbackOption(description: string): Option {
  return new Option('--fallback <target>', `${description} (env FDS_FALLBACK)`).default(
    process.env.FDS_FALLBACK ?? DEFAULT_FALLBACK,
  );
}
