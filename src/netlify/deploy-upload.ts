/**
 * What deploying a release to Netlify uploads, worked out offline against the release the site last
 * received (docs/deploying.md). Netlify asks a deploy for the files whose SHA1 digest the site does not
 * have yet, and takes the function's archive when it changed; the per-match bodies are files of the
 * release (`_b/`, function-package.ts), so they follow the files' rule.
 *
 * A file's digest stands for its content, and so does anything that names the content one to one: a
 * pre-rendered file's ETag in the manifest (a 128-bit hash of its bytes), a body file's name (match-body.ts:
 * the hashes of the rows it holds). Every other file (the rules, the manifest, the front door's assets)
 * is hashed. A digest the deployed release has is on the site; one it lacks is counted new, once however
 * many files share it. So the figure is what a deploy after that one uploads, if the site has not been
 * given anything else since (an older deploy's files the last one lacks are counted new: never fewer).
 *
 * The site's last release is named by `.fds-deployed` in the project root (what
 * `.github/workflows/publish.yml` writes after each deploy): none there, or its release gone, is a first
 * deploy. The function's archive is taken as unchanged when both releases were built by the same code
 * from the same snapshot of the store (its slim store is that snapshot's), as changed otherwise.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readBuildInfo } from '../release/build-info.js';
import { MANIFEST_FILE } from '../release/layout.js';
import { bytesOf, etagOf } from '../release/manifest.js';
import { linesSync } from '../util/lines.js';
import { BODIES_DIR } from './function-store.js';

/** The file naming the release the site last received, in the project root (the workflow writes it). */
export const DEPLOYED_MARK = '.fds-deployed';
const STATIC_DIR = '_s';

export interface Amount {
  files: number;
  bytes: number;
}

export interface DeployUpload {
  /** The release the site last received; null for a first deploy. */
  against: string | null;
  /** The release `.fds-deployed` names when it is gone (then counted as a first deploy). */
  missing: string | null;
  /** Every file of the release, and those whose digest is new to the site (each digest once). */
  files: Amount;
  newFiles: Amount;
  /** Of those, the body files (`_b/`). */
  bodies: Amount;
  newBodies: Amount;
  /** The function's archive (zipped) and whether it is uploaded; null without the function. */
  archive: { bytes: number; changed: boolean } | null;
  /** Bytes this deploy uploads, and what a first deploy of the same release would. */
  upload: number;
  firstUpload: number;
}

/** A release's files by digest: the digest's bytes, once per digest; with the counts of all files. */
interface Digests {
  bytes: Map<string, number>;
  all: Amount;
  bodies: Amount;
  /** Digests of body files. */
  bodyKeys: Set<string>;
}

function digestsOf(release: string): Digests {
  const out: Digests = {
    bytes: new Map(),
    all: { files: 0, bytes: 0 },
    bodies: { files: 0, bytes: 0 },
    bodyKeys: new Set(),
  };
  const add = (key: string, bytes: number) => {
    out.all.files++;
    out.all.bytes += bytes;
    out.bytes.set(key, bytes);
  };
  const listed = new Set<string>();
  const manifest = path.join(release, MANIFEST_FILE);
  if (fs.existsSync(manifest)) {
    for (const line of linesSync(manifest)) {
      if (!line) continue;
      // Files outside _s/ (the front page) are also met by the walk below: remember them.
      if (!line.startsWith(`{"file":"${STATIC_DIR}/`)) listed.add((JSON.parse(line) as { file: string }).file);
      add(`e:${etagOf(line)}`, bytesOf(line));
    }
  }
  const bodies = path.join(release, BODIES_DIR);
  if (fs.existsSync(bodies)) {
    for (const league of fs.readdirSync(bodies)) {
      for (const name of fs.readdirSync(path.join(bodies, league))) {
        const bytes = fs.statSync(path.join(bodies, league, name)).size;
        const key = `b:${league}/${name}`;
        add(key, bytes);
        out.bodyKeys.add(key);
        out.bodies.files++;
        out.bodies.bytes += bytes;
      }
    }
  }
  const walk = (dir: string, rel: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const at = rel ? `${rel}/${d.name}` : d.name;
      if (!rel && (d.name === STATIC_DIR || d.name === BODIES_DIR)) continue;
      if (d.isDirectory()) walk(path.join(dir, d.name), at);
      else if (d.isFile() && !listed.has(at)) {
        const bytes = fs.readFileSync(path.join(dir, d.name));
        add(`s:${createHash('sha1').update(bytes).digest('hex')}`, bytes.length);
      }
    }
  };
  walk(release, '');
  return out;
}

/** The release the site last received, as `.fds-deployed` in `root` names it (null: none). */
export function deployedRelease(root: string): string | null {
  const mark = path.join(root, DEPLOYED_MARK);
  if (!fs.existsSync(mark)) return null;
  const named = fs.readFileSync(mark, 'utf8').trim();
  return named ? path.resolve(root, named) : null;
}

const sum = (m: Map<string, number>, keys?: Iterable<string>) => {
  let n = 0;
  for (const k of keys ?? m.keys()) n += m.get(k) ?? 0;
  return n;
};

/**
 * What deploying `release` uploads against the release `.fds-deployed` in `root` names; `archive`,
 * the function's zipped size (null when the deploy has no function).
 */
export function deployUpload(release: string, root: string, archive: number | null): DeployUpload {
  const named = deployedRelease(root);
  const deployed = named && fs.existsSync(path.join(named, MANIFEST_FILE)) ? named : null;
  const now = digestsOf(release);
  const before = deployed ? digestsOf(deployed) : null;
  const fresh = [...now.bytes.keys()].filter((k) => !before?.bytes.has(k));
  const freshBodies = fresh.filter((k) => now.bodyKeys.has(k));
  let changed = true;
  if (deployed) {
    const [a, b] = [readBuildInfo(release), readBuildInfo(deployed)];
    changed = !(a && b && a.code === b.code && JSON.stringify(a.snapshot) === JSON.stringify(b.snapshot));
  }
  const newBytes = sum(now.bytes, fresh);
  const archiveBytes = archive ?? 0;
  return {
    against: deployed,
    missing: named && !deployed ? named : null,
    files: now.all,
    newFiles: { files: fresh.length, bytes: newBytes },
    bodies: now.bodies,
    newBodies: { files: freshBodies.length, bytes: sum(now.bytes, freshBodies) },
    archive: archive === null ? null : { bytes: archive, changed },
    upload: newBytes + (changed ? archiveBytes : 0),
    firstUpload: sum(now.bytes) + archiveBytes,
  };
}
