/**
 * The spare: a hard-linked copy of a release a full build just published, kept beside the releases
 * (`.dist.releases/spare`, its lineage `spare.written`). An incremental build brings a tree up to
 * date rather than making one (recycle.ts), but after a full build there is none to take over yet:
 * without the spare the first incremental build would link every file anew, work that grows with
 * the store. The full build, whose cost is the store's anyway, pays for it instead; the next build
 * takes it over (`Recycler.takeSpare`) as long as the release it copies is the published one.
 *
 * Each response file is linked into the spare as it is placed (place.ts), by whichever thread placed
 * it, so the spare holds exactly the files the build rendered: not its rules, manifest, build info
 * or front-door assets, which every build writes anew. Linked by a thread of its own once every file
 * was in place, the links were the full build's last ~0.25 s at demo scale 1, with one core idle.
 */
import type { ReleaseLayout } from '../release/layout.js';
import { lineageFile, spareDir } from '../release/layout.js';
import { tempReleasePath } from './atomic/releases.js';
import { writeLineage } from './recycle.js';

export class SpareCopy {
  /** Where the build's placers link its files, under a temporary name until kept: what a killed build leaves, the next one removes. */
  readonly dir: string;
  private lost = false;

  constructor(private readonly layout: ReleaseLayout) {
    this.dir = `${tempReleasePath(layout)}-spare`;
  }

  /**
   * A file could not be linked (a file system without hard links): there is no spare, and the next
   * build does without. A copy instead would double the disk the releases take.
   */
  lose(): void {
    this.lost = true;
  }

  /** Make the copy the spare of `release`, the tree as published, replacing any spare there was. */
  keep(release: string): void {
    const { fs } = this.layout;
    const spare = spareDir(this.layout);
    fs.rmSync(lineageFile(spare), { force: true });
    fs.rmSync(spare, { recursive: true, force: true });
    try {
      if (!this.lost && fs.existsSync(this.dir)) {
        fs.renameSync(this.dir, spare);
        writeLineage(spare, { base: release, written: [], removed: [] }, fs);
        return;
      }
    } catch {
      fs.rmSync(spare, { recursive: true, force: true });
    }
    this.discard();
  }

  /** The build published nothing, or failed: no spare of it. */
  discard(): void {
    this.layout.fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
