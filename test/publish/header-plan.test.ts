/**
 * `_headers` by path pattern (publish/rules/header-plan.ts): small at any scale, and still giving
 * every file — as Netlify's own headers engine (@netlify/headers) reads it — the Content-Type, CORS
 * and Cache-Control its manifest records, live files included, with no ETag of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { summaryLine } from '../../src/cli/commands/build.js';
import { CORS, JSON_TYPE } from '../../src/api/headers.js';
import type { NetlifyBuildSummary as BuildSummary } from '../../src/netlify/build.js';
import { headerPatterns } from '../../src/publish/rules/header-plan.js';
import { currentRelease } from '../../src/release/layout.js';
import type { ManifestEntry } from '../../src/release/manifest.js';
import { readManifestSync } from '../../src/release/manifest.js';
import { NetlifyCdn } from '../helpers/netlify-cdn.js';
import { buildInto, copyOfState, demoStore } from './helpers.js';
import { tempDir } from '../helpers/store.js';

describe.each(['rules', 'edge'] as const)('_headers with --router %s', (router) => {
  let release: string;
  let summary: BuildSummary;
  let manifest: ManifestEntry[];
  let text: string;
  let cdn: NetlifyCdn;

  beforeAll(async () => {
    const db = await demoStore();
    const built = await buildInto(db, undefined, { router });
    summary = built.summary;
    release = currentRelease(built.out)!;
    manifest = readManifestSync(path.join(release, 'manifest.ndjson'));
    text = fs.readFileSync(path.join(release, '_headers'), 'utf8');
    cdn = await NetlifyCdn.open(release);
  });

  it('is a few kilobytes, names no ETag, and its size is in the build summary', () => {
    expect(manifest.length).toBeGreaterThan(500);
    expect(text.length).toBeLessThan(8_000);
    expect(text).not.toMatch(/ETag:/i);
    expect(summary.rules!.headersBytes).toBe(Buffer.byteLength(text));
    expect(summaryLine(summary, 'dist')).toContain(`_headers ${(Buffer.byteLength(text) / 1e3).toFixed(1)} kB`);
  });

  it("gives every file, as Netlify's headers engine reads it, the type, CORS and Cache-Control of its manifest entry", async () => {
    for (const e of manifest) {
      const given = await cdn.headersFor(`/${e.file}`);
      expect(given['Cache-Control'], e.file).toBe(e.cacheControl);
      expect(given['Content-Type'], e.file).toBe(e.contentType);
      if (e.file.startsWith('_s/')) {
        expect(given['Content-Type']).toBe(JSON_TYPE);
        for (const [k, v] of Object.entries(CORS)) expect(given[k], `${e.file}: ${k}`).toBe(v);
      }
    }
  });

  it('has a block of its own only for a file whose Cache-Control is not its pattern’s', () => {
    const patterns = headerPatterns();
    const unusual = manifest.filter((e) => {
      const p = patterns.find((q) => q.regex.test(`/${e.file}`));
      return e.file.startsWith('_s/') && p?.cacheControl !== e.cacheControl;
    });
    expect(summary.rules!.headerExceptions).toBe(unusual.length);
    for (const e of unusual) expect(text).toContain(`\n/${e.file}\n  Cache-Control: ${e.cacheControl}\n`);
    // Every pattern covers the files of one directory depth exactly.
    for (const p of patterns) expect(p.path).toMatch(/^\/_s\/[^*]*\/:file$/);
  });
});

describe('_headers of an incremental build', () => {
  it('is the full build’s, byte for byte, whichever files were carried over', async () => {
    const dir = tempDir('fds-headers-');
    const db = await demoStore({ file: path.join(dir, 'store.sqlite') });
    await buildInto(db, path.join(dir, 'dist'));
    const copy = copyOfState(dir, path.join(tempDir('fds-headers-copy-'), 'state'));
    const again = await buildInto(copy.db, copy.out, { ruleBudget: 9_000 });
    expect(again.summary.mode).not.toBe('full');
    const full = await buildInto(copy.db, undefined, { full: true, ruleBudget: 9_000 });
    const read = (out: string) => fs.readFileSync(path.join(currentRelease(out)!, '_headers'), 'utf8');
    expect(read(copy.out)).toBe(read(full.out));
    // Three builds of a store.
  }, 180_000);
});
