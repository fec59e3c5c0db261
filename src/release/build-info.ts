/**
 * `build.json` in every release: which code built it and from which snapshot of the store
 * (docs/publishing.md, "Incremental builds"). The next build re-renders only what the store's
 * change log says changed since that snapshot — unless another code version built it, or the store
 * is not the one it was built from, or the log no longer reaches back that far: then it builds in
 * full.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Snapshot } from '../store/snapshots.js';

export const BUILD_INFO_FILE = 'build.json';

export interface BuildInfo {
  code: string;
  snapshot: Snapshot | null;
  /** Build options the output depends on besides code and store (fallback, rule budget). */
  settings: Record<string, string | number>;
}

function* codeFiles(dir: string): Generator<string> {
  for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) yield* codeFiles(p);
    else if (/\.(js|ts)$/.test(d.name) && !d.name.endsWith('.d.ts')) yield p;
  }
}

let version: string | undefined;

/** A hash of the code that renders (the compiled tree, or the sources under tsx): it changes with any edit. */
export function codeVersion(): string {
  if (version) return version;
  // This file sits in <root>/release/; the whole tree beside it is what renders.
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const hash = crypto.createHash('sha256');
  for (const file of codeFiles(root)) {
    hash.update(path.relative(root, file));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  version = hash.digest('hex').slice(0, 16);
  return version;
}

export function buildInfoJson(info: BuildInfo): string {
  return `${JSON.stringify({ code: info.code, snapshot: info.snapshot, settings: info.settings })}\n`;
}

export function readBuildInfo(release: string | null): BuildInfo | null {
  if (!release) return null;
  try {
    const info = JSON.parse(fs.readFileSync(path.join(release, BUILD_INFO_FILE), 'utf8')) as BuildInfo;
    return typeof info.code === 'string' ? info : null;
  } catch {
    return null;
  }
}
