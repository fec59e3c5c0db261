/**
 * What the published release holds, looked up by file while the new build streams — without
 * loading its manifest. Both manifests are in plan order (route table, then store order), so the
 * previous one is read in step with the build, a bounded window ahead: entries that appear, vanish
 * or move only cost a window's worth of lookahead, and a file not found in the window is simply
 * compared on disk instead (place.ts). Memory stays bounded by the window, whatever the store size.
 */
import fs from 'node:fs';
import type { ManifestEntry } from './manifest.js';
import { linesSync } from '../util/lines.js';

export type PreviousFile = ManifestEntry;

export class PreviousManifest {
  private readonly lines: Generator<string> | null;
  private readonly pending = new Map<string, PreviousFile>();
  private done = false;

  constructor(
    file: string | null,
    private readonly window = 4096,
    /** Told of every entry passed by without being found (and, on `drain`, of all the rest). */
    private readonly onUnclaimed?: (file: string) => void,
  ) {
    this.lines = file && fs.existsSync(file) ? linesSync(file) : null;
    if (!this.lines) this.done = true;
  }

  /** The previous release's entry for `file`, if the manifest lists it within the window. */
  find(file: string): PreviousFile | null {
    const hit = this.pending.get(file);
    if (hit) {
      this.pending.delete(file);
      return hit;
    }
    for (let read = 0; !this.done && read < this.window; read++) {
      const next = this.lines!.next();
      if (next.done) {
        this.done = true;
        break;
      }
      if (!next.value) continue;
      const entry = JSON.parse(next.value) as ManifestEntry;
      if (entry.file === file) return entry;
      this.pending.set(entry.file, entry);
      // Oldest first out: what the build passed by long ago has vanished or moved far.
      if (this.pending.size > this.window) {
        const oldest = this.pending.keys().next().value!;
        this.pending.delete(oldest);
        this.onUnclaimed?.(oldest);
      }
    }
    return null;
  }

  /** Read to the end: every entry not found so far is unclaimed. */
  drain(): void {
    while (!this.done) {
      const next = this.lines!.next();
      if (next.done) this.done = true;
      else if (next.value) this.onUnclaimed?.((JSON.parse(next.value) as ManifestEntry).file);
    }
    for (const file of this.pending.keys()) this.onUnclaimed?.(file);
    this.pending.clear();
  }

  close(): void {
    if (!this.done) this.lines?.return(undefined);
    this.done = true;
  }
}
