/**
 * The spare: a hard-linked copy of a release a full build just published, kept beside the releases
 * (`.dist.releases/spare`, its lineage `spare.written`). An incremental build brings a tree up to
 * date rather than making one (recycle.ts), but after a full build there is none to take over yet:
 * without the spare the first incremental build would link every file anew, work that grows with
 * the store. The full build, whose cost is the store's anyway, pays for it instead; the next build
 * takes it over (`Recycler.takeSpare`) as long as the release it copies is the published one.
 *
 * The links are made in a thread of their own (link-tree.ts) as soon as every response file is in
 * place, while the build writes its rules, manifest and build info, the files a spare leaves out.
 * Made after publishing, they were the full build's last ~0.15 s at demo scale 1 (2.90 → 2.75 s
 * without, five interleaved pairs), on a core the finished render workers leave idle.
 */
import type { ReleaseLayout } from './release.js';
import { lineageFile, spareDir, tempReleasePath } from './release.js';
import { copyTree } from './link-tree.js';
import { writeLineage } from './recycle.js';

export class SpareCopy {
  private readonly temp: string;
  private copying: Promise<boolean> | null = null;

  /** `skip`: what the build writes after its response files, and every build writes anew. */
  constructor(
    private readonly layout: ReleaseLayout,
    private readonly skip: readonly string[],
  ) {
    // Under a temporary name until complete: a build killed meanwhile leaves what the next one removes.
    this.temp = `${tempReleasePath(layout)}-spare`;
  }

  /** Start linking the files of `tree`, the release being built, once every response file is in it. */
  start(tree: string): void {
    // Best effort: where files cannot be hard-linked a copy would double the disk the releases take,
    // so there is no spare, and the next build does without.
    this.copying = copyTree({ from: tree, to: this.temp, skip: this.skip, copyUnlinkable: false }, this.layout.fs).then(
      () => true,
      () => false,
    );
  }

  /** Settles when no thread links from the tree any more: it may be renamed (published) or removed then. */
  async settled(): Promise<void> {
    await this.copying;
  }

  /** Make the copy the spare of `release`, the tree as published, replacing any spare there was. */
  async keep(release: string): Promise<void> {
    const { fs } = this.layout;
    const complete = await this.copying;
    const spare = spareDir(this.layout);
    fs.rmSync(lineageFile(spare), { force: true });
    fs.rmSync(spare, { recursive: true, force: true });
    try {
      if (complete) {
        fs.renameSync(this.temp, spare);
        writeLineage(spare, { base: release, written: [], removed: [] }, fs);
        return;
      }
    } catch {
      fs.rmSync(spare, { recursive: true, force: true });
    }
    fs.rmSync(this.temp, { recursive: true, force: true });
  }

  /** The build published nothing, or failed: no spare of it. */
  async discard(): Promise<void> {
    await this.copying;
    this.layout.fs.rmSync(this.temp, { recursive: true, force: true });
  }
}
