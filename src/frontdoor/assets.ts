/**
 * Where the front door's static assets come from, and how a build puts them into a release. The API
 * reference renderer is Swagger UI, from the swagger-ui-dist package as npm installed it (its
 * prebuilt bundle: no build step, no fonts or scripts fetched from elsewhere); the page's own
 * stylesheet and script are in assets/frontdoor/ at the package root.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ASSET_DIR, ASSET_FILES } from './paths.js';

const require = createRequire(import.meta.url);

/** Two levels up from src/frontdoor/ and from build/frontdoor/ alike: the package root. */
const OWN_DIR = fileURLToPath(new URL('../../assets/frontdoor/', import.meta.url));

let sources: ReadonlyMap<string, string> | null = null;

/** Each asset's name under `/_fd/` → the absolute path of the file it is a copy of. */
export function assetSources(): ReadonlyMap<string, string> {
  if (!sources) {
    const rendererDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
    sources = new Map(
      ASSET_FILES.map((a) => [a.name, path.join(a.from === 'renderer' ? rendererDir : OWN_DIR, a.source)]),
    );
  }
  return sources;
}

/** The assets' paths relative to a release. */
export function assetReleasePaths(): string[] {
  return ASSET_FILES.map((a) => `${ASSET_DIR}/${a.name}`);
}

/**
 * Copy the assets into a release. Copies get a fresh mtime, which is what lets a server that keys
 * ETags on mtime notice a changed file; unchanged ones are swapped for links to the previous
 * release's afterwards (the build's `keepIfSame`), keeping their mtime and inode.
 */
export function copyAssets(release: string): void {
  const dir = path.join(release, ASSET_DIR);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, source] of assetSources()) fs.copyFileSync(source, path.join(dir, name));
}

let version: string | null = null;

/**
 * A hash of the assets' bytes: a build whose assets changed is not a build with nothing to do.
 * Worked out once per process, like the code version (build-info.ts): `fds build` asks before it
 * builds and again as it builds, and Swagger UI's bundle alone is large.
 */
export function assetsVersion(): string {
  if (version) return version;
  const hash = crypto.createHash('sha256');
  for (const [name, source] of assetSources()) hash.update(name).update('\0').update(fs.readFileSync(source));
  version = hash.digest('hex').slice(0, 16);
  return version;
}
