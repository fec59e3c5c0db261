/**
 * The Netlify Function as shipped (docs/deploying.md): a build of the contract suite's store, the function
 * zipped by Netlify's own bundler (@netlify/zip-it-and-ship-it) with netlify.toml's `[functions]`
 * settings over a copy of the project, the archive unpacked into a directory of its own, and the
 * function invoked there by a fresh Node process through the archive's entry point (Netlify's
 * bootstrap) as Netlify's runtime invokes it — its working directory the unpacked archive, no path
 * back to the project — answering from the slim store it ships and the deploy's body files (served
 * over HTTP at the site's URL, which Netlify gives the function in its environment). Every answer,
 * hostile requests included, is byte for byte the render core's over the full store; and the build's
 * figures for the archive are at least what the bundler's archive weighs, and not far above.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CASES } from '../api/contract-suite.js';
import { NOW, buildApiStore, clock } from '../api/helpers/api-store.js';
import type { TargetResponse } from '../api/helpers/targets.js';
import { functionLayout } from '../../src/netlify/function-package.js';
import { functionArchiveSize, traceFunction } from '../../src/netlify/function-size.js';
import { FUNCTION_STORE } from '../../src/netlify/function-store.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { buildInto } from '../publish/helpers.js';
import type { Archive, InvokedRequest } from './function-archive.js';
import { centralDirectory, hasUnzip, invokeUnpacked, mirrorSite, unpack, zipFunction } from './function-archive.js';
import type { Blobs } from './function-helpers.js';
import { BASE, HOSTILE_URLS, deployStoreOf, renderAnswer } from './function-helpers.js';

/**
 * Compiled files the function loads that are older than their source, and its bundle
 * (scripts/bundle.mjs) when older than a compiled file it holds: the archive would ship other code.
 */
async function staleCompiledFiles(): Promise<string[]> {
  const { inlined } = await traceFunction(ROOT);
  const bundle = path.join(ROOT, 'build/netlify/function.bundle.js');
  const compiled = [...inlined];
  if (inlined.includes(bundle)) {
    const esbuild = await import('esbuild');
    const out = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: ['build/netlify/function.js'],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      external: ['better-sqlite3'],
      logLevel: 'silent',
    });
    const inputs = Object.keys(out.metafile.inputs)
      .filter((f) => f.startsWith('build/'))
      .map((f) => path.join(ROOT, f));
    const bundled = fs.statSync(bundle).mtimeMs;
    compiled.push(...inputs);
    const older = inputs.filter((f) => fs.statSync(f).mtimeMs > bundled);
    if (older.length) return [path.relative(ROOT, bundle)];
  }
  return compiled
    .filter((f) => f.startsWith(path.join(ROOT, 'build') + path.sep))
    .filter((f) => {
      const src = path.join(ROOT, 'src', path.relative(path.join(ROOT, 'build'), f)).replace(/\.js$/, '.ts');
      const st = fs.statSync(src, { throwIfNoEntry: false });
      return st !== undefined && st.mtimeMs > fs.statSync(f).mtimeMs;
    })
    .map((f) => path.relative(ROOT, f));
}

async function bundlerMissing(): Promise<string | null> {
  if (!hasUnzip()) return 'no `unzip` to unpack the archive';
  try {
    await import('@netlify/zip-it-and-ship-it');
    return null;
  } catch (err) {
    return `@netlify/zip-it-and-ship-it cannot load: ${err instanceof Error ? err.message : String(err)}`;
  }
}
const skipReason = await bundlerMissing();
if (skipReason) console.warn(`function-shipped: skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('the Netlify Function as the bundler ships it', () => {
  let full: StoreReader;
  let blobs: Blobs;
  let archive: Archive;
  let task: string;
  let estimate: Awaited<ReturnType<typeof functionArchiveSize>>;

  beforeAll(async () => {
    const stale = await staleCompiledFiles();
    if (stale.length)
      throw new Error(`build/ is older than src/ (run \`npm run build:ts\`): ${stale.slice(0, 5).join(', ')}`);
    const store = await buildApiStore();
    const dir = tempDir('fds-ship-');
    await buildInto(store, path.join(dir, 'dist'));
    const layout = functionLayout(path.join(dir, 'dist'));
    const site = mirrorSite(layout.store);
    archive = await zipFunction(site);
    estimate = await functionArchiveSize(path.join(site, FUNCTION_STORE), FUNCTION_STORE, { zipped: {} }, site);
    task = unpack(archive.zip);
    blobs = await deployStoreOf(path.join(dir, 'dist'));
    full = StoreReader.open(store);
  }, 300_000);
  afterAll(async () => {
    full?.close();
    await blobs?.close();
  });

  it('ships the slim store, the compiled tree and the packages it loads, and nothing of the project besides', () => {
    const { names } = centralDirectory(fs.readFileSync(archive.zip));
    expect(names).toContain(FUNCTION_STORE);
    expect(names).toContain('___netlify-entry-point.mjs');
    expect(names).toContain('netlify/functions/fds.mjs');
    expect(names.some((n) => n.startsWith('node_modules/better-sqlite3/') && n.endsWith('.node'))).toBe(true);
    expect(names.filter((n) => n.startsWith('node_modules/@netlify/blobs/'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('build/bundle/'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('data/') && n !== FUNCTION_STORE)).toEqual([]);
  });

  it("is within Netlify's limits, and the build's figures are at least the archive's and close to it", () => {
    expect(archive.zipped).toBeLessThan(50_000_000);
    expect(archive.unzipped).toBeLessThan(250_000_000);
    expect(estimate.total.zipped).toBeGreaterThanOrEqual(archive.zipped);
    expect(estimate.total.bytes).toBeGreaterThanOrEqual(archive.unzipped);
    // What the estimate adds is about fixed (the bundler's own files counted with room, a module's
    // twin formats): a megabyte or so, whatever the store.
    expect(estimate.total.zipped - archive.zipped).toBeLessThan(1_500_000);
    expect(estimate.total.bytes - archive.unzipped).toBeLessThan(3_000_000);
  });

  it('answers, in a fresh process from the unpacked archive alone, byte for byte as the render core', async () => {
    const matches = full.db
      .prepare('SELECT league_slug AS league, id FROM matches ORDER BY league_slug, id')
      .all() as Array<{ league: string; id: string }>;
    const perMatch = matches.flatMap(({ league, id }) => [
      `/get/soccer/${league}/summary?event=${id}&fields=header,keyEvents`,
      `/get/soccer/${league}/events/${id}/plays?limit=5&page=2&important=false`,
    ]);
    const requests: InvokedRequest[] = [
      ...ALL_CASES.map((c) => ({ method: c.method ?? 'GET', url: c.url, headers: c.headers ?? {} })),
      ...[...HOSTILE_URLS, ...perMatch].map((url) => ({ method: 'GET', url, headers: {} })),
    ];
    const out = await invokeUnpacked(task, requests, blobs.event, { base: BASE, now: NOW });
    expect(out.entryPoint).toBe('function');
    expect(out.answers).toHaveLength(requests.length);
    requests.forEach((r, i) => {
      const got = out.answers[i]!;
      const want: TargetResponse = renderAnswer(full, clock, r.method, r.url, r.headers);
      expect(got.status, `${r.method} ${r.url}`).toBe(want.status);
      expect(got.status, r.url).toBeLessThan(500);
      if (/^\/(api\/)?health(\?|$)/.test(r.url)) return; // uptime and the store's name are the process's own
      // The bootstrap adds its own x-nf-* headers; every other header is the render core's.
      const own = Object.fromEntries(Object.entries(got.headers).filter(([k]) => !k.startsWith('x-nf-')));
      expect(own, r.url).toEqual(want.headers);
      expect(Buffer.from(got.body, 'base64').equals(want.body), r.url).toBe(true);
    });
  });
});
