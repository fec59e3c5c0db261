/**
 * `fds build --router edge`: a Netlify Edge Function that rewrites every pre-rendered request to
 * its file, at any scale (docs/publishing.md). It is one ES module, written into the release beside the
 * files it indexes (`_edge/fds-router.js`; netlify.toml points `edge_functions` there), so it is
 * published atomically with them: the router code (edge/router.ts, bundled for Deno with esbuild
 * from the same route table and resolver the server uses) and a compact index, request key → file,
 * as one sorted string.
 *
 * Netlify applies the redirect rules to an edge function's rewrite (as `netlify dev` does), so the
 * rules gain `/_s/* → /_s/:splat` (rules.ts PAGES); the router declares `/_s/*` too and sends a
 * client's direct request there to the fallback, which answers it as any path outside the API.
 */
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import nodeFs from 'node:fs';
import type { Plugin } from 'esbuild';
import { ROUTES } from '../../app/routes.js';
import { fileOf } from './router.js';
import type { OutputFs } from '../../util/lines.js';
import { STATIC_PREFIX } from '../../release/file-name.js';
import { packageRoot } from '../../util/package.js';
import { mb } from '../../util/thousands.js';

export const EDGE_DIR = '_edge';
export const EDGE_FILE = `${EDGE_DIR}/fds-router.js`;
/** Netlify's limit on an edge function bundle, compressed. */
export const EDGE_LIMIT_BYTES = 20_000_000;

export class EdgeError extends Error {}

export interface EdgeBundleStats {
  bytes: number;
  gzipBytes: number;
  entries: number;
}

/**
 * The paths the function runs on: the prefixes of every pre-rendering route, and the files. Not
 * `/*`: every other request (health, the front door) should not pay for an edge invocation.
 */
export function edgePaths(): string[] {
  // A route whose file is outside `_s/` (the front door's index.html) is reached by its literal rule.
  const paths = ROUTES.filter((r) => r.reach && !r.staticFile).map((r) =>
    r.path.startsWith('/get/') ? '/get/*' : r.path,
  );
  return [...new Set(paths), `/${STATIC_PREFIX}/*`];
}

/**
 * The index, one line per pre-rendered request key. Held in memory until the build ends, because
 * the lines must be sorted; a line is about what the manifest holds of the request.
 */
/** What the index reads of a planned file (publish/plan/plan.ts `PlannedFile`). */
export interface IndexedFile {
  /** Release-relative path of the file. */
  file: string;
  /** Request keys the file answers: its own request's, then its aliases'. */
  keys: readonly string[];
  request: { path: string };
  aliases: readonly { path: string }[];
}

export class EdgeIndex {
  private readonly lines: string[] = [];

  add(planned: IndexedFile): void {
    const forms = [planned.request, ...planned.aliases];
    planned.keys.forEach((key, i) => {
      const own = forms[i]!.path;
      const name = planned.file.slice(planned.file.lastIndexOf('/') + 1, -'.json'.length);
      const value = fileOf(name, own) === `/${planned.file}` ? name : `/${planned.file}`;
      this.lines.push(`${key}\t${value}`);
    });
  }

  get size(): number {
    return this.lines.length;
  }

  /** Sorted as edge/router.ts `lookup` searches it. */
  text(): string {
    return this.lines.sort().join('\n');
  }
}

/**
 * The router's source: beside this module, compiled (build/netlify/edge/) or, under the test runner,
 * TypeScript; from the CLI's bundle (build/bundle/, scripts/bundle.mjs), the compiled tree's.
 */
function routerSource(): string {
  const js = fileURLToPath(new URL('./router.js', import.meta.url));
  if (nodeFs.existsSync(js)) return js;
  const ts = js.replace(/\.js$/, '.ts');
  if (nodeFs.existsSync(ts)) return ts;
  return path.join(packageRoot(import.meta.url), 'build/netlify/edge/router.js');
}

/** The router runs on Deno: a Node module, or the native SQLite one, in its graph is a bug. */
const DENO_SAFE: Plugin = {
  name: 'deno-safe',
  setup(b) {
    b.onResolve({ filter: /^node:|^better-sqlite3$/ }, (a) => ({
      errors: [{ text: `${a.path} (imported by ${a.importer}) cannot run on Netlify's edge` }],
    }));
  },
};

/** The function module: the bundled router over `index`, Netlify's default export and its config. */
export async function bundleRouter(index: string): Promise<string> {
  // esbuild is needed only for this router; loading it lazily keeps it out of every other command.
  const esbuild = await import('esbuild').catch(() => {
    throw new EdgeError(
      '--router edge bundles its function with esbuild, which is not installed (npm install esbuild)',
    );
  });
  const source = routerSource();
  const entry = [
    `import { createRouter } from ${JSON.stringify(`./${path.basename(source)}`)};`,
    `const route = createRouter(${JSON.stringify(index)});`,
    '// A URL rewrites the request to that file; undefined lets it continue to the rules and the fallback.',
    'export default async (request) => route(request);',
    // bypass: should the router ever fail, the rules and the fallback still answer.
    `export const config = ${JSON.stringify({ path: edgePaths(), onError: 'bypass' })};`,
  ].join('\n');
  const out = await esbuild.build({
    stdin: { contents: entry, resolveDir: path.dirname(source), sourcefile: 'fds-router.js', loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    plugins: [DENO_SAFE],
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text;
  return `// Generated by \`fds build --router edge\`: the edge router of this release (src/netlify/edge/bundle.ts).\n${code}`;
}

/** Write the function into the release; fails when Netlify would refuse it. */
export async function writeRouter(release: string, index: EdgeIndex, fs: OutputFs = nodeFs): Promise<EdgeBundleStats> {
  const module = Buffer.from(await bundleRouter(index.text()), 'utf8');
  const stats = { bytes: module.length, gzipBytes: zlib.gzipSync(module).length, entries: index.size };
  if (stats.gzipBytes > EDGE_LIMIT_BYTES) {
    throw new EdgeError(
      `the edge router is ${mb(stats.gzipBytes)} compressed, over Netlify's ${mb(EDGE_LIMIT_BYTES)} limit ` +
        `for an edge function; build with --router rules`,
    );
  }
  fs.mkdirSync(path.join(release, EDGE_DIR), { recursive: true });
  fs.writeFileSync(path.join(release, EDGE_FILE), module);
  return stats;
}
