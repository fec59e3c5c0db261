/**
 * The heap a build that renders much runs with. A build's live memory is small and does not grow
 * with the store (plans stream, bodies are held only in flight, rule candidates are spooled to
 * disk), but on a machine with much memory V8 lets a busy heap fill with garbage toward gigabytes
 * before it collects; a heap sized for what the build holds keeps its peak RSS flat.
 *
 * V8 takes heap limits only when a process starts, so `fds build` starts itself again with them
 * when the build it is about to make renders much (a full build, or many changes). A small
 * incremental build — the one after each sync — runs in the command's own process: starting a
 * second one would cost it a tenth of its time, and it never holds much anyway.
 */
import v8 from 'node:v8';
import { endWithStarter as endWithStarterProcess, runAgainWith } from './restart.js';
import type { BuildScope } from '../publish/plan/scope.js';
import { POOL_AFTER } from '../publish/render/render-pool.js';
import { BOUNDED, inBoundedBuild } from './bounded.js';
import { uses } from '../util/switches.js';

/**
 * `--initial-old-space-size`: a render worker holds ~8–10 MB live, and from a heap that small V8
 * starts a full (concurrently marked) collection every ~12 MB allocated — ~115 per worker in a full
 * build at demo scale 4, their marking threads ~8 % of the build's CPU (perf). Starting each heap's
 * limit at 32 MB left 16–18 per worker, and the build 14 % faster (13.96 → 11.96 s, medians of 3
 * interleaved) for ~10 MB more peak RSS (240 → 250 MB); 36–40 MB were at most 2 % faster for 15–30 MB more.
 * V8 flags hold for every isolate of the process, so the render workers get it too.
 *
 * `--single-threaded-gc`: the build's thread and a render worker per core keep every core busy, and
 * V8's parallel and concurrent collector threads only competed with them: without those the full
 * build took 10.62 → 10.04 s at scale 4 and 3.39 → 3.25 s at scale 1 (medians of 3 interleaved),
 * for 10–20 MB more peak RSS at scale 4 (~260 → 267–281 MB).
 *
 * `--max-inlined-bytecode-size-cumulative=300` (V8's default is 920): in a full build at demo scale 1,
 * TurboFan's compiler threads took ~18 % of the CPU (perf): each of the three isolates compiles the
 * same code, and the plan's functions, deoptimized as each route brings objects of new shapes, were
 * compiled 4–6 times each, ~50 ms apiece with what they inline. Less inlining makes each compile
 * cheaper: 3.32 → 3.16 s at scale 1 (means of 5 interleaved), 9.22 → 9.17 s at scale 4 (of 3), where
 * compiling is a smaller part. 150, no inlining, or a later tier-up (`--interrupt-budget`) were no faster.
 */
export const BUILD_HEAP_FLAGS = [
  '--max-old-space-size=128',
  '--max-semi-space-size=4',
  '--initial-old-space-size=32',
  '--single-threaded-gc',
  '--max-inlined-bytecode-size-cumulative=300',
];

/**
 * glibc's malloc gives a large block pages of its own, returned when it is freed, but each such free
 * raises the size from which it does so (up to 32 MB): soon response bodies of a few hundred KB come
 * from per-thread arenas, which keep their pages. Fixing the threshold at its initial 128 KB keeps
 * the build's peak RSS flat (scale 4: 280–300 MB → 240–270 MB, no slower). Other C libraries ignore it.
 */
export const BUILD_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: String(128 * 1024) };

/** The bounded process's environment: this one's, with the heap's settings. */
function boundedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...BUILD_MALLOC_ENV, ...env, [BOUNDED]: '1' };
}

/**
 * Whether a build runs with the bounded heap: a full one, or one of so many changes that it renders
 * as a full build does, a render worker per core (write-release.ts), and holds what a full build
 * holds (a change makes about one response render; a day of the demo at scale 1 is about 730 changes).
 */
export function needsBoundedHeap(scope: BuildScope): boolean {
  if (inBoundedBuild() || !uses('bounded-heap')) return false;
  return scope.kind === 'full' || (scope.kind === 'changes' && scope.changes > POOL_AFTER);
}

/**
 * A build that runs in the command's own process is a small one (the day step at demo scale 4: about
 * a second, process start included). There, TurboFan's inlining costs more than it saves: V8's
 * background threads, mostly TurboFan's compile jobs, took about 0.5 s of CPU beside a build thread
 * of about 1.1 s on a 2-core machine (perf), and without inlining that build takes 6 % less time. A build
 * in the bounded process renders for seconds to minutes, and keeps it.
 */
export const SHORT_BUILD_V8_FLAGS = '--no-turbo-inlining';

/** Tune V8 for a build run in this process (see SHORT_BUILD_V8_FLAGS); not in the bounded one. */
export function tuneForShortBuild(): void {
  if (!inBoundedBuild() && uses('short-build-v8')) v8.setFlagsFromString(SHORT_BUILD_V8_FLAGS);
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
