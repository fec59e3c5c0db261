/** The thread that links the published release into a new one while the build renders (link-tree.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import type { TreeCopy } from './link-tree.js';
import { linkTree } from './link-tree.js';

try {
  parentPort!.postMessage({ copied: linkTree(workerData as TreeCopy) });
} catch (err) {
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
