/**
 * The fallback function must fit Netlify's 50 MB zipped and 250 MB unzipped (docs/deploying.md): the build
 * measures its archive — slim store, compiled code, runtime packages — reports it, and refuses, before
 * any work, a build whose fallback is the function when it would not fit, pointing at an origin instead.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { summaryLine } from '../../src/cli/commands/build.js';
import { currentRelease } from '../../src/release/layout.js';
import * as esbuild from 'esbuild';
import {
  BUNDLER_ALLOWANCE,
  CLI_BUNDLE,
  FUNCTION_LIMIT_BYTES,
  FUNCTION_ZIP_LIMIT_BYTES,
  FunctionTooLarge,
  RUNTIME_PACKAGES,
  checkFunctionFits,
  functionArchiveSize,
  functionBundleSize,
} from '../../src/netlify/function-size.js';
import type { SizeCache } from '../../src/netlify/function-size.js';
import { openStore } from '../../src/store/db.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { buildInto, demoStore } from './helpers.js';

let small: string;
let large: string;

beforeAll(async () => {
  small = await demoStore({ leagues: ['eng.1'] });
  // The same store with 72 MB of random text in a row the function ships (store_meta): its slim copy
  // deflates to more than 50 MB.
  large = path.join(tempDir('fds-large-'), 'large.sqlite');
  fs.copyFileSync(small, large);
  const db = openStore(large);
  db.prepare('INSERT INTO store_meta (key, value) VALUES (?, ?)').run(
    'padding',
    crypto.randomBytes(54_000_000).toString('base64'),
  );
  db.close();
});

describe('the fallback function archive', () => {
  it('counts the store, the compiled code and the packages the code needs', () => {
    const size = functionBundleSize(small);
    expect(size.store.bytes).toBe(fs.statSync(small).size);
    // better-sqlite3 with its native module, zod and hash-wasm.
    expect(size.packages.bytes).toBeGreaterThan(2_000_000);
    expect(size.code.bytes).toBeGreaterThan(100_000);
    expect(size.total.bytes).toBe(size.store.bytes + size.code.bytes + size.packages.bytes + BUNDLER_ALLOWANCE.bytes);
  });

  it('counts each file deflated, as the bundler zips it, and deflates a file only once', async () => {
    const cache: SizeCache = { zipped: {} };
    const size = await functionArchiveSize(small, 'data/function.sqlite', cache);
    expect(size.store.zipped).toBeGreaterThan(0);
    expect(size.store.zipped).toBeLessThan(size.store.bytes);
    expect(size.total.zipped).toBeLessThan(size.total.bytes);
    // Only the package files the function loads: less than the packages' whole directories.
    expect(size.store.bytes).toBe(fs.statSync(small).size);
    expect(size.total.bytes).toBeLessThan(functionBundleSize(small).total.bytes);
    expect(Object.keys(cache.zipped)).toContain(small);
    expect(cache.trace?.packages.length).toBeGreaterThan(10);
    const again = await functionArchiveSize(small, 'data/function.sqlite', cache);
    expect(again).toEqual(size);
  });

  it('fails on either limit, with the figures', () => {
    const part = (bytes: number, zipped: number) => ({ bytes, zipped });
    const size = (store: number, zipped: number) => ({
      store: part(store, zipped),
      code: part(0, 0),
      packages: part(0, 0),
      total: part(store, zipped),
      files: 1,
    });
    expect(() => checkFunctionFits(size(FUNCTION_LIMIT_BYTES, FUNCTION_ZIP_LIMIT_BYTES), 'f')).not.toThrow();
    expect(() => checkFunctionFits(size(FUNCTION_LIMIT_BYTES + 1, 1), 'f')).toThrow(
      /250\.0 MB unzipped, over Netlify's 250 MB unzipped limit/,
    );
    expect(() => checkFunctionFits(size(1, FUNCTION_ZIP_LIMIT_BYTES + 1), 'f')).toThrow(
      /50\.0 MB zipped, over Netlify's 50 MB zipped limit \(store 50\.0 MB zipped \/ 0\.0 MB/,
    );
  });

  it('counts every package the function and the compiled code it imports load at run time', async () => {
    const out = await esbuild.build({
      entryPoints: [path.join(ROOT, 'netlify/functions/fds.mjs')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      metafile: true,
      logLevel: 'silent',
    });
    const imported = Object.values(out.metafile.outputs).flatMap((o) =>
      o.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path),
    );
    const packageOf = (spec: string) => /^(@[^/]+\/)?[^/]+/.exec(spec)![0];
    const packages = new Set(imported.map(packageOf));
    expect(packages.size).toBeGreaterThan(0);
    expect([...packages].filter((name) => !RUNTIME_PACKAGES.includes(name))).toEqual([]);
  });

  it("counts the compiled tree the function ships, not the CLI's bundle of it, which netlify.toml leaves out", () => {
    const root = tempDir('fds-root-');
    const put = (file: string, bytes: number) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), Buffer.alloc(bytes));
    };
    put('build/publish/build.js', 1000);
    put(`${CLI_BUNDLE}/main.js`, 50_000);
    put('netlify/functions/fds.mjs', 100);
    expect(functionBundleSize(small, root).code.bytes).toBe(1100);
    const toml = fs.readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8');
    const included = /included_files = (\[.*\])/.exec(toml)![1]!;
    expect(JSON.parse(included)).toEqual(expect.arrayContaining(['build/**', `!${CLI_BUNDLE}/**`]));
  });

  it('is reported by a build whose fallback is the function', async () => {
    const { summary, out } = await buildInto(small);
    expect(summary.functionSize?.total.bytes).toBeLessThan(FUNCTION_LIMIT_BYTES);
    expect(summary.functionSize?.total.zipped).toBeLessThan(FUNCTION_ZIP_LIMIT_BYTES);
    expect(summaryLine(summary, out)).toMatch(/; function: \d+\.\d MB zipped of 50, \d+\.\d MB of 250 unzipped, /);
  });

  it('fails the build, publishing nothing, when the function would not fit', async () => {
    const out = path.join(tempDir('fds-out-'), 'dist');
    const failed = buildInto(large, out);
    await expect(failed).rejects.toBeInstanceOf(FunctionTooLarge);
    await expect(failed).rejects.toThrow(/over Netlify's 50 MB zipped limit \(store .*\); .*--fallback https:\/\//);
    expect(currentRelease(out)).toBeNull();
  });

  it('lets the same store build with an origin as the fallback', async () => {
    const { summary } = await buildInto(large, undefined, { fallback: 'https://origin.example' });
    expect(summary.functionSize).toBeNull();
    expect(summary.functionBlobs).toBeNull();
    expect(summary.files).toBeGreaterThan(50);
  });

  it('makes `fds build` exit 1 with the reason on one line', () => {
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'build', '--db', large, '--out', path.join(tempDir('fds-out-'), 'dist')],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^fds: the fallback function \/\.netlify\/functions\/fds would be \d+\.\d MB zipped, over Netlify's 50 MB zipped limit \(store \d+\.\d MB zipped \/ \d+\.\d MB, /,
    );
  });
});
