/**
 * Whether the command line is a build that may render in a worker beside its own thread
 * (write-release.ts), and then start that worker at once (render-pool.ts `prestartRenderWorker`):
 * it loads while the command does.
 */
import { currentRelease, DEFAULT_OUT } from '../publish/release.js';
import { prestartRenderWorker } from '../publish/render-pool.js';
import { inBoundedBuild } from './bounded.js';

/** What decides, beyond the command line, where a build renders. */
export interface BuildStart {
  /** This is the process a build started again with its heap flags (build-heap.ts). */
  bounded: boolean;
  /** Whether there is a published build at `out`. */
  published: (out: string) => boolean;
}

const here: BuildStart = { bounded: inBoundedBuild(), published: (out) => currentRelease(out) !== null };

export function wantsRenderWorker(argv: readonly string[], start: BuildStart = here): boolean {
  if (argv[2] !== 'build') return false;
  const args = argv.slice(3);
  if (args.some((a) => a === '--help' || a === '-h')) return false;
  // The value of an option, given as `--name value` or `--name=value`; a later one wins, as commander takes it.
  const last = (name: string) => {
    let value: string | undefined;
    for (const [i, a] of args.entries()) {
      if (a === name) value = args[i + 1];
      else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1);
    }
    return value;
  };
  // `--workers 0` renders in the main thread.
  const workers = last('--workers');
  if (workers !== undefined && Number(workers) === 0) return false;
  // A build that is sure to be full (asked to be, or with nothing published) starts again in a process
  // of its own with its heap flags, which starts its own worker: one started here only took CPU from
  // that process as it started (a full build at demo scale 1: 0.16 s of CPU, 2.99 → 2.93 s, 6 pairs).
  return start.bounded || !(args.includes('--full') || !start.published(last('--out') ?? DEFAULT_OUT));
}

export function prestartForBuild(argv: readonly string[]): void {
  if (wantsRenderWorker(argv)) prestartRenderWorker();
}
