import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface OwnPackage {
  name: string;
  version: string;
  homepage?: string;
  repository?: string | { url?: string };
}

const NAME = 'football-data-service';

/**
 * This package's package.json, found upward from the module at `from` (its `import.meta.url`): the
 * sources, the compiled tree and its bundle (scripts/bundle.mjs) sit at different depths below it.
 */
export function ownPackage(from: string): OwnPackage {
  return JSON.parse(fs.readFileSync(path.join(packageRoot(from), 'package.json'), 'utf8')) as OwnPackage;
}

/** The directory holding this package's package.json, found upward from the module at `from`. */
export function packageRoot(from: string): string {
  for (let dir = path.dirname(fileURLToPath(from)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as OwnPackage).name === NAME) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json of ${NAME} above ${fileURLToPath(from)}`);
  }
}
