/**
 * The heap a build that renders much runs with. A build's live memory is small and does not grow
 * with the store (plans stream, bodies are held only in flight, rule candidates are spooled to
 * disk), but on a machine with much memory V8 lets a busy heap fill with garbage toward gigabytes
 * before it collects; a heap sized for what the build holds keeps its peak RSS flat.
 *
 * V8 takes heap limits only when a process starts, so `fds build` starts itself again with them
 * when the build it is about to make renders much (a full build, or many changes). A small
 * incremental build — the one after each sync — runs in the command's own process: starting a
 * second one would cost it a noticeable share of its time, and it never holds much anyway
 * (docs/performance.md).
 */
import v8 from 'node:v8';
import { endWithStarter as endWithStarterProcess, runAgainWith } from './restart.js';
import type { BuildScope } from '../publish/plan/scope.js';
import { POOL_AFTER } from '../publish/render/render-pool.js';
import { BOUNDED, inBoundedBuild } from './bounded.js';
import { DEFAULT_OUT, currentRelease } from '../release/layout.js';
import { engaged, uses } from '../util/switches.js';

/**
 * `--initial-old-space-size`: a render worker holds little live memory, and from a heap that small
 * V8 starts a full (concurrently marked) collection every few megabytes allocated, its marking
 * threads taking CPU from the build. A first limit of a few times what a worker holds makes those
 * collections rare for a little more peak RSS; a larger one gains next to nothing more. V8 flags
 * hold for every isolate of the process, so the render workers get it too.
 *
 * `--single-threaded-gc`: the build's thread and a render worker per core keep every core busy, and
 * V8's parallel and concurrent collector threads only compete with them: without those the build is
 * faster, for a little more peak RSS.
 *
 * `--max-inlined-bytecode-size-cumulative=300` (V8's default is 920): TurboFan's compiler threads
 * take a large share of a full build's CPU, since every isolate (the build's thread and each render
 * worker) compiles the same code, and the plan's functions, deoptimized as each route brings
 * objects of new shapes, are compiled several times each with what they inline. Less inlining makes
 * each compile cheaper; less still, no inlining, or a later tier-up (`--interrupt-budget`) are no
 * faster.
 *
 * The figures behind each flag: docs/performance.md.
 */
export const BUILD_HEAP_FLAGS = [
  '--max-old-space-size=128',
  '--max-semi-space-size=4',
  '--initial-old-space-size=32',
  '--single-threaded-gc',
  '--max-inlined-bytecode-size-cumulative=300',
];

/**
 * glibc's malloc gives a large block pages of its own, returned when it is freed, but each such
 * free raises the size from which it does so (up to 32 MB): soon response bodies of a few
 * hundred KB come from per-thread arenas, which keep their pages. Fixing the threshold at its
 * initial 128 KB keeps the build's peak RSS flat, at no cost in time (docs/performance.md). Other
 * C libraries ignore it.
 */
export const BUILD_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: String(128 * 1024) };

/** The bounded process's environment: this one's, with the heap's settings. */
function boundedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...BUILD_MALLOC_ENV, ...env, [BOUNDED]: '1' };
}

/** What decides, beyond the command line, whether a build starts again at once. */
export interface BuildStart {
  /** This is the process a build started again with its heap flags. */
  bounded: boolean;
  /** Whether there is a published build at `out`. */
  published: (out: string) => boolean;
}

const here: BuildStart = { bounded: inBoundedBuild(), published: (out) => currentRelease(out) !== null };

/** The value of an option in a command's arguments, as `--name value` or `--name=value`; a later one wins, as commander takes it. */
function optionValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const [i, a] of args.entries()) {
    if (a === name) value = args[i + 1];
    else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1);
  }
  return value;
}

/**
 * Whether the command line (main.ts asks, before it loads the command) is a build sure to be full —
 * asked to be, or with nothing published at its output — that runs in this process, and so starts
 * again with the bounded heap at once: the one decision taken from the command line. Any other
 * build decides once it knows its scope (`needsBoundedHeap`). Not for help, which commander prints here.
 */
export function startsAgainAtOnce(argv: readonly string[], start: BuildStart = here): boolean {
  const args = argv[2] === 'build' ? argv.slice(3) : null;
  if (!args || args.some((a) => a === '--help' || a === '-h')) return false;
  if (start.bounded || !uses('bounded-heap')) return false;
  return args.includes('--full') || !start.published(optionValue(args, '--out') ?? DEFAULT_OUT);
}

/**
 * Whether a build runs with the bounded heap: a full one, or one of so many changes that it renders
 * as a full build does, a render worker per core (write-release.ts), and holds what a full build
 * holds (a change makes about one response render).
 */
export function needsBoundedHeap(scope: BuildScope): boolean {
  if (inBoundedBuild() || !uses('bounded-heap')) return false;
  return scope.kind === 'full' || (scope.kind === 'changes' && scope.changes > POOL_AFTER);
}

/**
 * A build that runs in the command's own process is a small one (the step after a sync). There, an
 * optimizing compiler costs more than it saves: its compile jobs take CPU beside the build thread
 * for code that does not run long enough to repay them, so such a build runs on V8's baseline tiers
 * alone (docs/performance.md, `short-build-v8`). A build in the bounded process renders for seconds
 * to minutes, and keeps TurboFan.
 */
export const SHORT_BUILD_V8_FLAGS = '--no-opt';

/**
 * Tune V8 for the build about to run in this process: the bounded process keeps it as started (its
 * heap flags are the `bounded-heap` mechanism acting), the command's own process turns the optimizing
 * compiler off (SHORT_BUILD_V8_FLAGS). Each notes itself for the build's account (util/switches.ts).
 */
export function tuneBuildProcess(): void {
  if (inBoundedBuild()) engaged('bounded-heap');
  else if (uses('short-build-v8')) {
    v8.setFlagsFromString(SHORT_BUILD_V8_FLAGS);
    engaged('short-build-v8');
  }
}

/** Run this same command again with the bounded heap; settles with its exit code. Signals are passed on. */
export function runBounded(): Promise<number> {
  return runAgainWith(BUILD_HEAP_FLAGS, boundedEnv(process.env));
}

/**
 * In the process started with the bounded heap: end at once when the command that started it is
 * gone, even killed outright (a signal it could not pass on), as if the kill had reached the build.
 */
export function endWithStarter(): void {
  if (inBoundedBuild()) endWithStarterProcess('SIGKILL');
}
