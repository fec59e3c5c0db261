/**
 * Whether the command line is a build that may render in a worker beside its own thread
 * (write-release.ts), and then start that worker at once (render-pool.ts `prestartRenderWorker`):
 * it loads while the command does.
 */
import { currentRelease, DEFAULT_OUT } from '../release/layout.js';
import { prestartRenderWorker } from '../publish/render/render-pool.js';
import { inBoundedBuild } from './bounded.js';
import { uses } from '../util/switches.js';

/** What decides, beyond the command line, whether a build starts again at once. */
export interface BuildStart {
  /** This is the process a build started again with its heap flags (build-heap.ts). */
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

/** A build that does not ask for help (help is commander's, printed by this process). */
const buildArgs = (argv: readonly string[]): string[] | null =>
  argv[2] === 'build' && !argv.slice(3).some((a) => a === '--help' || a === '-h') ? argv.slice(3) : null;

/**
 * Whether the command line is a build that is sure to be full (asked to be, or with nothing published
 * at its output) and runs in this process: it starts again with its heap flags (build-heap.ts).
 */
export function startsAgainAtOnce(argv: readonly string[], start: BuildStart = here): boolean {
  const args = buildArgs(argv);
  if (!args || start.bounded || !uses('bounded-heap')) return false;
  return args.includes('--full') || !start.published(optionValue(args, '--out') ?? DEFAULT_OUT);
}

/**
 * Asked once main.ts has not started the build again (`startsAgainAtOnce`), so of a build that may
 * run in this process.
 */
export function wantsRenderWorker(argv: readonly string[]): boolean {
  const args = buildArgs(argv);
  if (!args) return false;
  // `--workers 0` renders in the main thread.
  const workers = optionValue(args, '--workers');
  return workers === undefined || Number(workers) !== 0;
}

export function prestartForBuild(argv: readonly string[]): void {
  if (wantsRenderWorker(argv) && uses('prestart-worker')) prestartRenderWorker();
}
