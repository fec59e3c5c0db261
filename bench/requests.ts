/**
 * The requests the server benchmark sends: a seeded sample of a build's pre-rendered requests, each
 * as its API URL (for fds) and as the URL of its file under the release (for a plain static server,
 * which cannot resolve an API query string to a file).
 */
import path from 'node:path';
import { MANIFEST_FILE } from '../src/release/layout.js';
import { linesSync } from '../src/util/lines.js';
import type { ManifestEntry } from '../src/release/manifest.js';
import { seededRng } from '../src/check/sample.js';

export interface SampledRequest {
  /** The API request, path and query: `/get/soccer/eng.1/fixtures?status=finished&page=2`. */
  api: string;
  /** The release-relative file that answers it: `_s/get/soccer/…json`. */
  file: string;
  /** The file's URL on a static server rooted at the release. */
  fileUrl: string;
  bytes: number;
}

export function fileUrl(file: string): string {
  return `/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * `n` manifest entries (of those answered 200) drawn uniformly without replacement (reservoir sampling: one
 * pass, memory of `n` entries however long the manifest), in a shuffled order fixed by `seed`.
 */
export function sampleRequests(release: string, n: number, seed: number): SampledRequest[] {
  const rng = seededRng(seed);
  const picked: SampledRequest[] = [];
  let seen = 0;
  for (const line of linesSync(path.join(release, MANIFEST_FILE))) {
    if (!line) continue;
    const { request, file, status, bytes } = JSON.parse(line) as ManifestEntry;
    // Only answers a load generator counts as successes, so any error it reports is a real one.
    if (status !== 200) continue;
    const entry = { api: request, file, fileUrl: fileUrl(file), bytes };
    seen++;
    if (picked.length < n) picked.push(entry);
    else {
      const j = Math.floor(rng() * seen);
      if (j < n) picked[j] = entry;
    }
  }
  // Manifest order groups requests by route; rotating through them in that order would not mix routes.
  for (let i = picked.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [picked[i], picked[j]] = [picked[j]!, picked[i]!];
  }
  return picked;
}
