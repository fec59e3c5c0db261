/**
 * The spare: a hard-linked copy of a release a full build just published, kept beside the releases
 * (`.dist.releases/spare`, its lineage `spare.written`). An incremental build brings a tree up to
 * date rather than making one (recycle.ts), but after a full build there is none to take over yet:
 * without the spare the first incremental build would link every file anew, work that grows with
 * the store. The full build, whose cost is the store's anyway, pays for it instead; the next build
 * takes it over (`Recycler.takeSpare`) as long as the release it copies is the published one.
 */
import type { ReleaseLayout } from './release.js';
import { lineageFile, spareDir, tempReleasePath } from './release.js';
import { copyTree } from './link-tree.js';
import { writeLineage } from './recycle.js';

/**
 * Replace the spare with a copy of `release`. Best effort: where files cannot be hard-linked a copy
 * would double the disk the releases take, so there is no spare, and the next build does without.
 */
export async function makeSpare(layout: ReleaseLayout, release: string, auxFiles: readonly string[]): Promise<void> {
  const { fs } = layout;
  const spare = spareDir(layout);
  fs.rmSync(lineageFile(spare), { force: true });
  fs.rmSync(spare, { recursive: true, force: true });
  // Under a temporary name until complete: a build killed meanwhile leaves what the next one removes.
  const temp = `${tempReleasePath(layout)}-spare`;
  try {
    await copyTree({ from: release, to: temp, skip: auxFiles, copyUnlinkable: false }, fs);
    fs.renameSync(temp, spare);
    writeLineage(spare, { base: release, written: [], removed: [] }, fs);
  } catch {
    fs.rmSync(temp, { recursive: true, force: true });
    fs.rmSync(spare, { recursive: true, force: true });
  }
}
