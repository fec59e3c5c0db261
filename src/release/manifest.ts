/**
 * The release manifest, `manifest.ndjson`: one JSON line per pre-rendered file, in build order
 * (route table, then store order — deterministic, so the manifest is reproducible). It records what
 * the file answers (its canonical request, aliases and request keys) and the headers it is served
 * with, so the server and `fds check` never need to re-derive them.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { linesSync } from '../util/lines.js';

export interface ManifestEntry {
  file: string;
  /** The canonical request the file was rendered from (path + query). */
  request: string;
  aliases: string[];
  keys: string[];
  status: number;
  etag: string;
  cacheControl: string;
  contentType: string;
  bytes: number;
}

export function manifestLine(e: ManifestEntry): string {
  // Explicit key order: the manifest is compared byte for byte between builds.
  return `${JSON.stringify({
    file: e.file,
    request: e.request,
    aliases: e.aliases,
    keys: e.keys,
    status: e.status,
    etag: e.etag,
    cacheControl: e.cacheControl,
    contentType: e.contentType,
    bytes: e.bytes,
  })}\n`;
}

export async function* readManifest(file: string): AsyncGenerator<ManifestEntry> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as ManifestEntry;
}

/** Synchronous variant for the server, which swaps its whole index at once. */
export function readManifestSync(file: string): ManifestEntry[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ManifestEntry);
}

/** A manifest line's byte count without parsing it: `manifestLine` writes it last. */
export function bytesOf(line: string): number {
  const at = line.lastIndexOf('"bytes":');
  const n = at === -1 ? Number.NaN : Number.parseInt(line.slice(at + 8), 10);
  return Number.isSafeInteger(n) ? n : (JSON.parse(line) as ManifestEntry).bytes;
}

const ETAG_KEY = '"etag":"\\"';
const PLAIN_TAG = /^[A-Za-z0-9_+/=-]*$/;

/** A manifest line's ETag without parsing it (ours are quoted base64url digests). */
export function etagOf(line: string): string {
  const at = line.indexOf(ETAG_KEY);
  if (at !== -1) {
    const start = at + ETAG_KEY.length;
    const tag = line.slice(start, line.indexOf('\\"', start));
    if (PLAIN_TAG.test(tag)) return `"${tag}"`;
  }
  return (JSON.parse(line) as ManifestEntry).etag;
}

/** How many files a manifest lists and their bytes (none when there is no manifest). */
export function countManifest(file: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  if (!fs.existsSync(file)) return { files, bytes };
  for (const line of linesSync(file)) {
    if (!line) continue;
    files++;
    bytes += bytesOf(line);
  }
  return { files, bytes };
}
