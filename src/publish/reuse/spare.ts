/**
 * The spare (docs/performance.md): after a full build, a copy of the published release made of hard
 * links, beside it (release/layout.ts `spareDir`). The next build takes it over as it takes over a
 * recycled release (recycle.ts) — every file in it is the published file itself, so nothing is
 * linked, and whole segments are carried over as the published manifest's bytes — instead of
 * linking each unchanged file into an empty directory, which right after a full build nothing else
 * spares it: there is no older release to recycle yet.
 *
 * Made under a temporary name and renamed when whole, so a build killed meanwhile leaves nothing
 * another build would trust (cleanStale removes it).
 */
import type nodeFs from 'node:fs';
import path from 'node:path';
import type { ReleaseLayout } from '../../release/layout.js';
import { spareDir } from '../../release/layout.js';
import { tempReleasePath } from '../atomic/releases.js';

/**
 * Make the spare of `release`, but for `aux`, the files every build writes anew; best effort
 * (without it the next build links each file instead).
 */
export function makeSpare(layout: ReleaseLayout, release: string, aux: readonly string[]): void {
  const { fs } = layout;
  const temp = `${tempReleasePath(layout)}-spare`;
  try {
    linkTree(fs, release, temp, new Set(aux));
    fs.renameSync(temp, spareDir(release));
  } catch {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

function linkTree(fs: ReleaseLayout['fs'], from: string, to: string, skip: ReadonlySet<string>, rel = ''): void {
  fs.mkdirSync(to);
  for (const d of fs.readdirSync(from, { withFileTypes: true }) as nodeFs.Dirent[]) {
    const name = rel ? `${rel}/${d.name}` : d.name;
    if (skip.has(name)) continue;
    const src = path.join(from, d.name);
    const dst = path.join(to, d.name);
    if (d.isDirectory()) linkTree(fs, src, dst, skip, name);
    else fs.linkSync(src, dst);
  }
}
