#!/usr/bin/env node
/**
 * Bundles the compiled CLI (build/, from tsc) into build/bundle/: the CLI's entry, each command it
 * loads lazily, and the worker threads' entries, with the modules they share split into chunks.
 * Node loads one module per file, and a build after each sync paid for ~200 of them: `fds build`
 * loaded its modules in ~0.10 s from build/ and in ~0.05 s from the bundle (the day step at demo
 * scale 4: 1.06 → 0.99 s, medians of 9 interleaved runs). bin/fds.js runs the bundle.
 *
 * Every module sits in one directory two levels below the package, as build/cli/ and build/publish/
 * do, so the paths they find beside themselves (`import.meta.url`) hold: a worker's entry, build/edge/,
 * assets/. Packages with files of their own found at run time stay outside the bundle. The Netlify
 * Function imports the compiled tree, not this: netlify.toml and function-size.ts (CLI_BUNDLE) leave it out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build/bundle');
fs.rmSync(out, { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: {
    main: 'build/cli/main.js',
    'render-worker': 'build/publish/render-worker.js',
    'link-tree-worker': 'build/publish/link-tree-worker.js',
  },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: out,
  // A native addon, a matcher that loads its WebAssembly from its own directory, the bundler itself,
  // and Swagger UI's files, which the build copies.
  external: ['better-sqlite3', 'netlify-redirector', 'esbuild', 'swagger-ui-dist'],
  // The CommonJS packages bundled in (commander, serve-handler) require Node's modules.
  banner: {
    js: "import { createRequire as __fdsRequire } from 'node:module'; const require = __fdsRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
