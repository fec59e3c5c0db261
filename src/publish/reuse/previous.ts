/**
 * What the published release holds, looked up by file while the new build streams — without
 * loading its manifest (in-step.ts): a file not found is simply compared on disk instead (place.ts).
 */
import type { ManifestEntry } from '../../release/manifest.js';
import { InStep } from './in-step.js';

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

export const parsePrevious = (line: string): ManifestEntry => JSON.parse(line) as ManifestEntry;

export class PreviousManifest {
  private readonly entries: InStep;

  constructor(
    file: string | null,
    window = 4096,
    /** Told of every entry passed by without being found (and, on `drain`, of all the rest). */
    onUnclaimed?: (file: string) => void,
  ) {
    this.entries = new InStep(file, fileOf, window, onUnclaimed);
  }

  /** The previous release's line for `file` (without its line break), if the manifest lists it within the window. */
  findLine(file: string): string | null {
    return this.entries.take(file)?.[0] ?? null;
  }

  /**
   * The lines of `files` files, the manifest's bytes [at, to), taken together unread when they are
   * the next ones: null, taking nothing, when they are not.
   */
  skip(at: number, to: number, files: number): Buffer | null {
    return this.entries.skip(at, to, files);
  }

  /** Read to the end: every entry not found so far is unclaimed. */
  drain(): void {
    this.entries.drain();
  }

  /** Files the manifest lists (all of them once drained). */
  get files(): number {
    return this.entries.entries;
  }

  close(): void {
    this.entries.close();
  }
}
