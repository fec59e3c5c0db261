/**
 * Whether the command line is a build that may render in a worker beside its own thread
 * (write-release.ts), and then start that worker at once (render-pool.ts `prestartRenderWorker`):
 * it loads while the command does.
 */
import { prestartRenderWorker } from '../publish/render-pool.js';

export function wantsRenderWorker(argv: readonly string[]): boolean {
  if (argv[2] !== 'build') return false;
  const args = argv.slice(3);
  if (args.some((a) => a === '--help' || a === '-h')) return false;
  // `--workers 0` renders in the main thread. A later flag wins, as commander takes it.
  let workers: string | undefined;
  for (const [i, a] of args.entries()) {
    if (a === '--workers') workers = args[i + 1];
    else if (a.startsWith('--workers=')) workers = a.slice('--workers='.length);
  }
  return workers === undefined || Number(workers) !== 0;
}

export function prestartForBuild(argv: readonly string[]): void {
  if (wantsRenderWorker(argv)) prestartRenderWorker();
}
