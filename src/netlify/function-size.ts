/**
 * The Netlify Function's bundle (CONTRACT §7): the store it answers from (netlify.toml
 * `included_files`), the compiled code it imports, and the packages that code needs at run time —
 * better-sqlite3 with its native module, shipped as installed (`external_node_modules`), zod and
 * hash-wasm (the ETag's hash).
 * Netlify refuses a function over 250 MB unzipped. The estimate counts whole package directories,
 * so it errs on the large side: a build that passes it deploys.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FUNCTION_LIMIT_BYTES = 250_000_000;
/** The CLI's bundle of the compiled tree (scripts/bundle.mjs): netlify.toml leaves it out of the function. */
export const CLI_BUNDLE = 'build/bundle';
/** What the function's code imports from node_modules at run time. */
export const RUNTIME_PACKAGES: readonly string[] = ['better-sqlite3', 'zod', 'hash-wasm'];

export interface FunctionSize {
  store: number;
  code: number;
  packages: number;
  total: number;
}

export class FunctionTooLarge extends Error {}

function dirSize(dir: string, skip: string | null = null): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const d of entries) {
    const p = path.join(dir, d.name);
    if (p === skip) continue;
    if (d.isDirectory()) total += dirSize(p, skip);
    else if (d.isFile()) total += fs.statSync(p).size;
  }
  return total;
}

/** A package's directory and those of its dependencies, each once. */
function packageDirs(name: string, from: string, seen: Set<string>): void {
  let manifest: string;
  try {
    manifest = createRequire(path.join(from, 'noop.js')).resolve(`${name}/package.json`);
  } catch {
    return; // not installed: nothing of it can be shipped
  }
  const dir = path.dirname(manifest);
  if (seen.has(dir)) return;
  seen.add(dir);
  const deps = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> })
    .dependencies;
  for (const dep of Object.keys(deps ?? {})) packageDirs(dep, dir, seen);
}

/** The project root: this module lives in src/publish (tests) or build/publish (the CLI). */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function functionBundleSize(storeFile: string, root = ROOT): FunctionSize {
  const store = fs.statSync(storeFile).size;
  // The compiled tree the function imports, as netlify.toml ships it: without the CLI's bundle of it.
  const code =
    dirSize(path.join(root, 'build'), path.join(root, CLI_BUNDLE)) + dirSize(path.join(root, 'netlify', 'functions'));
  const dirs = new Set<string>();
  for (const name of RUNTIME_PACKAGES) packageDirs(name, root, dirs);
  let packages = 0;
  for (const dir of dirs) packages += dirSize(dir);
  return { store, code, packages, total: store + code + packages };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function describeFunctionSize(s: FunctionSize): string {
  return `${mb(s.total)} (store ${mb(s.store)}, code ${mb(s.code)}, packages ${mb(s.packages)})`;
}

/** Throws when the function would not deploy; the message says what to do instead. */
export function checkFunctionFits(s: FunctionSize, fallback: string): void {
  if (s.total <= FUNCTION_LIMIT_BYTES) return;
  throw new FunctionTooLarge(
    `the fallback function ${fallback} would be ${describeFunctionSize(s)}, over Netlify's ` +
      `${mb(FUNCTION_LIMIT_BYTES)} limit; serve the fallback from an origin instead ` +
      '(--fallback https://origin.example, running `fds serve`)',
  );
}
