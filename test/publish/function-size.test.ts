/**
 * The fallback function must fit Netlify's 250 MB (CONTRACT §7): the build measures its bundle —
 * store, compiled code, runtime packages — reports it, and refuses, before any work, a build whose
 * fallback is the function when it would not fit, pointing at an origin instead.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { summaryLine } from '../../src/cli/commands/build.js';
import { currentRelease } from '../../src/release/layout.js';
import * as esbuild from 'esbuild';
import {
  CLI_BUNDLE,
  FUNCTION_LIMIT_BYTES,
  FunctionTooLarge,
  RUNTIME_PACKAGES,
  functionBundleSize,
} from '../../src/netlify/function-size.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { buildInto, demoStore } from './helpers.js';

let small: string;
let large: string;

beforeAll(async () => {
  small = await demoStore({ leagues: ['eng.1'] });
  // The same store with 300 MB of free space after it: SQLite reads the size its header records.
  large = path.join(tempDir('fds-large-'), 'large.sqlite');
  fs.copyFileSync(small, large);
  fs.truncateSync(large, 300_000_000);
});

describe('the fallback function bundle', () => {
  it('counts the store, the compiled code and the packages the code needs', () => {
    const size = functionBundleSize(small);
    expect(size.store).toBe(fs.statSync(small).size);
    // better-sqlite3 with its native module, zod and hash-wasm.
    expect(size.packages).toBeGreaterThan(2_000_000);
    expect(size.code).toBeGreaterThan(100_000);
    expect(size.total).toBe(size.store + size.code + size.packages);
    expect(functionBundleSize(large).total - size.total).toBe(300_000_000 - size.store);
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
    expect(functionBundleSize(small, root).code).toBe(1100);
    const toml = fs.readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8');
    const included = /included_files = (\[.*\])/.exec(toml)![1]!;
    expect(JSON.parse(included)).toEqual(expect.arrayContaining(['build/**', `!${CLI_BUNDLE}/**`]));
  });

  it('is reported by a build whose fallback is the function', async () => {
    const { summary, out } = await buildInto(small);
    expect(summary.functionSize?.total).toBeLessThan(FUNCTION_LIMIT_BYTES);
    expect(summaryLine(summary, out)).toMatch(/fallback function \d+\.\d MB \(store .*\) of 250\.0 MB/);
  });

  it('fails the build, publishing nothing, when the function would not fit', async () => {
    const out = path.join(tempDir('fds-out-'), 'dist');
    const failed = buildInto(large, out);
    await expect(failed).rejects.toBeInstanceOf(FunctionTooLarge);
    await expect(failed).rejects.toThrow(/over Netlify's 250\.0 MB limit; .*--fallback https:\/\//);
    expect(currentRelease(out)).toBeNull();
  });

  it('lets the same store build with an origin as the fallback', async () => {
    const { summary } = await buildInto(large, undefined, { fallback: 'https://origin.example' });
    expect(summary.functionSize).toBeNull();
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
      /^fds: the fallback function \/\.netlify\/functions\/fds would be \d+\.\d MB \(store 300\.0 MB, /,
    );
  });
});
