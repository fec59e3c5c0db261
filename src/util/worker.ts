import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `name` that sits beside the module at `beside` (its
 * `import.meta.url`). Under tsx (tests, `npm run bench`) the sources run as TypeScript, and so must
 * the worker; workers take no --import, so it registers tsx from inside before loading its entry.
 */
export function moduleWorker(beside: string, name: string, options: WorkerOptions): Worker {
  const here = fileURLToPath(beside);
  const typescript = here.endsWith('.ts');
  const script = path.join(path.dirname(here), `${name}.${typescript ? 'ts' : 'js'}`);
  if (!typescript) return new Worker(script, options);
  return new Worker(
    `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(pathToFileURL(script).href)}); })`,
    { ...options, eval: true },
  );
}
