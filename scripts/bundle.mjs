#!/usr/bin/env node
/**
 * Bundles the compiled CLI (build/, from tsc) into build/bundle/: the CLI's entry, each command it
 * loads lazily, and the worker threads' entries, with the modules they share split into chunks.
 * Node loads one module per file, and a build after each sync would pay for ~200 of them
 * (docs/performance.md). bin/fds.js runs the bundle.
 *
 * Every module sits in one directory two levels below the package, as build/cli/ does, so the paths
 * they find beside themselves (`import.meta.url`) hold: a worker's entry, assets/; the edge router's
 * source is found from the package root (netlify/edge/bundle.ts). Packages with files of their own found at run time stay outside the bundle. The Netlify
 * Function imports the compiled tree, not this: netlify.toml and function-size.ts (CLI_BUNDLE) leave it out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build/bundle');
fs.rmSync(out, { recursive: true, force: true });
const { metafile } = await esbuild.build({
  absWorkingDir: root,
  metafile: true,
  entryPoints: {
    main: 'build/cli/main.js',
    'render-worker': 'build/publish/render/render-worker.js',
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

// zod's namespace object holds every locale, which every command would parse at its start
// (docs/performance.md, "Builds"); imported as `import * as z from 'zod'`, only what the code uses is
// bundled. `import { z } from 'zod'` brings the locales back.
const bundled = Object.values(metafile.outputs).flatMap((o) =>
  Object.entries(o.inputs)
    .filter(([, i]) => i.bytesInOutput > 0)
    .map(([f]) => f),
);
const locales = bundled.filter((f) => /zod\/v4\/locales\/(?!en\.js)/.test(f));
if (locales.length) {
  throw new Error(
    `the bundle holds ${locales.length} of zod's locales: import zod as \`import * as z from 'zod'\`, not \`import { z }\``,
  );
}

// The Netlify Function (netlify/functions/fds.mjs imports it): the compiled function with everything
// it loads but better-sqlite3 (a native addon, shipped as installed) in one minified module. A cold
// function pays for each module Node loads — zod alone is ~80 files — so the import of the compiled
// tree took ~150 ms, this one ~50 (docs/deploying.md, "Cold start"). It sits beside the compiled
// function, two levels below the package, so paths found from `import.meta.url` hold.
const fn = await esbuild.build({
  absWorkingDir: root,
  metafile: true,
  entryPoints: { 'function.bundle': 'build/netlify/function.js' },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: path.join(root, 'build/netlify'),
  external: ['better-sqlite3'],
  banner: {
    js: "import { createRequire as __fdsRequire } from 'node:module'; const require = __fdsRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
const fnLocales = Object.keys(Object.values(fn.metafile.outputs)[0].inputs).filter((f) =>
  /zod\/v4\/locales\/(?!en\.js)/.test(f),
);
if (fnLocales.length) throw new Error(`the function's bundle holds ${fnLocales.length} of zod's locales`);
