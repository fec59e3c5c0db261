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

/** An entry, and its line as the published manifest has it: a file carried over keeps its line as it is. */
export type PreviousFile = ManifestEntry & { line: string };

const FILE_KEY = '{"file":"';

/** An entry's file without parsing the rest: lines start with it, and file names need no escapes. */
function fileOf(line: string): string {
  if (line.startsWith(FILE_KEY)) {
    const end = line.indexOf('"', FILE_KEY.length);
    const name = line.slice(FILE_KEY.length, end);
    if (end > 0 && !name.includes('\\')) return name;
  }
  return (JSON.parse(line) as ManifestEntry).file;
}

const parse = (line: string): PreviousFile => Object.assign(JSON.parse(line) as ManifestEntry, { line: `${line}\n` });

export class PreviousManifest {
  private readonly lines: Generator<string> | null;
  /** Lines read ahead, by file; parsed only when asked for. */
  private readonly pending = new Map<string, string>();
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
    if (hit !== undefined) {
      this.pending.delete(file);
      return parse(hit);
    }
    for (let read = 0; !this.done && read < this.window; read++) {
      const next = this.lines!.next();
      if (next.done) {
        this.done = true;
        break;
      }
      if (!next.value) continue;
      const name = fileOf(next.value);
      if (name === file) return parse(next.value);
      this.pending.set(name, next.value);
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
      else if (next.value) this.onUnclaimed?.(fileOf(next.value));
    }
    for (const file of this.pending.keys()) this.onUnclaimed?.(file);
    this.pending.clear();
  }

  close(): void {
    if (!this.done) this.lines?.return(undefined);
    this.done = true;
  }
}
