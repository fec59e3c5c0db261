/**
 * The Netlify Function's archive (docs/deploying.md), measured as Netlify counts it: what netlify.toml ships
 * (`included_files`: the function's slim store and the compiled tree), the files of the packages that
 * code loads at run time — better-sqlite3 with its native module, shipped as installed
 * (`external_node_modules`), zod and hash-wasm (the ETag's hash) — and what Netlify's bundler adds
 * (its bootstrap and telemetry loader).
 * Netlify refuses a function over 50 MB zipped or 250 MB unzipped.
 *
 * The bundler (@netlify/zip-it-and-ship-it) traces the function's imports and ships only the package
 * files they reach, each with its package.json; the files are found here the same way, by bundling
 * the function's entry with esbuild and reading what it read (an external module: what its own entry
 * reads, and its native modules); the function's module itself ships with the compiled files it
 * imports inlined. Zipped is counted as the bundler writes the archive (archiver's zip): each file
 * deflated on its own at zlib's fastest level, plus each entry's headers. The figures err on the large
 * side — test/netlify/function-shipped.test.ts holds them against the bundler's own archive.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { mb } from '../util/thousands.js';

/** Netlify's limits on a function: its archive as uploaded, and the files unpacked from it. */
export const FUNCTION_LIMIT_BYTES = 250_000_000;
export const FUNCTION_ZIP_LIMIT_BYTES = 50_000_000;
/** The CLI's bundle of the compiled tree (scripts/bundle.mjs): netlify.toml leaves it out of the function. */
export const CLI_BUNDLE = 'build/bundle';
/** What the function's code imports from node_modules at run time. */
export const RUNTIME_PACKAGES: readonly string[] = ['better-sqlite3', 'zod', 'hash-wasm'];
/** Shipped as installed, not bundled (netlify.toml `external_node_modules`). */
export const EXTERNAL_NODE_MODULES: readonly string[] = ['better-sqlite3'];
/** The function's module, as netlify.toml's `functions` directory holds it. */
export const FUNCTION_ENTRY = 'netlify/functions/fds.mjs';
/**
 * What the bundler adds to every function: the v2 API bootstrap, a telemetry loader, the entry
 * point and a metadata file (docs/deploying.md). Counted with room to spare.
 */
export const BUNDLER_ALLOWANCE = { bytes: 1_500_000, zipped: 500_000 };
/** A zip entry's fixed headers: local (30) + data descriptor (16) + central directory (46); the name twice. */
const ENTRY_OVERHEAD = 30 + 16 + 46;
const END_OF_ARCHIVE = 22;

/** Bytes of one part of the archive: unpacked, and as its zip entries. */
export interface Part {
  bytes: number;
  zipped: number;
}

export interface FunctionSize {
  /** The slim store (function-package.ts). */
  store: Part;
  /** The compiled tree and the function's own module. */
  code: Part;
  /** The run-time packages, whole directories. */
  packages: Part;
  /** Everything, with the bundler's own files. */
  total: Part;
  files: number;
}

export class FunctionTooLarge extends Error {}

/**
 * Zipped sizes already worked out, by a file's path, size and mtime: a build measures the same
 * packages and compiled tree every time and deflates only what changed. function-package.ts keeps it.
 */
export type ZipCache = Record<string, [size: number, mtimeMs: number, zipped: number]>;

/** What tracing the function found, and what it was traced from (the compiled tree and the installed packages). */
export interface Trace {
  key: string;
  packages: string[];
  /** The compiled files the bundler inlines into the function's module. */
  inlined: string[];
}

/** What a build keeps between measurements (function-package.ts stores it). */
export interface SizeCache {
  zipped: ZipCache;
  trace?: Trace;
}

function filesUnder(dir: string, skip: string | null, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const d of entries) {
    const p = path.join(dir, d.name);
    if (p === skip) continue;
    if (d.isDirectory()) filesUnder(p, skip, out);
    else if (d.isFile()) out.push(p);
  }
}

/**
 * Where Node finds package `name` from directory `from`: the first node_modules up the tree that
 * holds it (its package.json is looked for on disk: a package's exports need not expose it).
 */
function findPackage(name: string, from: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'node_modules', name, 'package.json');
    if (fs.existsSync(manifest)) return manifest;
    if (path.dirname(dir) === dir) return null;
  }
}

/** A package's directory and those of its dependencies, each once. */
function packageDirs(name: string, from: string, seen: Set<string>): void {
  const manifest = findPackage(name, from);
  if (!manifest) return; // not installed: nothing of it can be shipped
  const dir = path.dirname(manifest);
  if (seen.has(dir)) return;
  seen.add(dir);
  const deps = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> })
    .dependencies;
  for (const dep of Object.keys(deps ?? {})) packageDirs(dep, dir, seen);
}

/** The directories of the run-time packages and of everything they depend on, as installed under `root`. */
export function runtimePackageDirs(root = ROOT): string[] {
  const dirs = new Set<string>();
  for (const name of RUNTIME_PACKAGES) packageDirs(name, root, dirs);
  return [...dirs];
}

/** The project root: this module lives in src/netlify (tests) or build/netlify (the CLI). */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The compiled tree and the function's module, as netlify.toml ships them (without the CLI's bundle). */
function codeFiles(root: string): string[] {
  const code: string[] = [];
  filesUnder(path.join(root, 'build'), path.join(root, CLI_BUNDLE), code);
  filesUnder(path.join(root, 'netlify', 'functions'), null, code);
  return code;
}

const MODULE_EXTENSIONS = ['.js', '.cjs', '.mjs'];

/** The package directory a file under node_modules belongs to. */
function packageDirOf(file: string): string | null {
  const at = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (at < 0) return null;
  const rest = file.slice(at + 14).split(path.sep);
  const depth = rest[0]!.startsWith('@') ? 2 : 1;
  return file.slice(0, at + 14) + rest.slice(0, depth).join(path.sep);
}

/** The files an esbuild bundle of `options` read, as absolute paths. */
async function inputsOf(root: string, options: import('esbuild').BuildOptions): Promise<string[]> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    absWorkingDir: root,
    bundle: true,
    write: false,
    platform: 'node',
    metafile: true,
    logLevel: 'silent',
    ...options,
  });
  return Object.keys(out.metafile!.inputs).map((f) => path.resolve(root, f));
}

/**
 * The package files the function loads at run time, as the bundler traces them: what bundling its
 * entry reads from node_modules; of an external module, what its own entry reads and its native
 * modules; and every such package's package.json.
 */
export async function traceFunction(root = ROOT): Promise<Omit<Trace, 'key'>> {
  const files = new Set<string>();
  // The bundler's tracer follows every condition of a package's exports, so a module's CommonJS
  // twin ships beside it, and so does each package.json between it and its package's root.
  const add = (f: string) => {
    if (!f.includes(`${path.sep}node_modules${path.sep}`)) return;
    files.add(f);
    const ext = path.extname(f);
    if (MODULE_EXTENSIONS.includes(ext)) {
      for (const twin of MODULE_EXTENSIONS) files.add(f.slice(0, -ext.length) + twin);
    }
    const root = packageDirOf(f);
    if (!root) return;
    for (let dir = path.dirname(f); dir.length >= root.length; dir = path.dirname(dir)) {
      files.add(path.join(dir, 'package.json'));
    }
  };
  const fromEntry = await inputsOf(root, {
    entryPoints: [path.join(root, FUNCTION_ENTRY)],
    format: 'esm',
    external: [...EXTERNAL_NODE_MODULES],
  });
  fromEntry.forEach(add);
  const inlined = fromEntry.filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`) && fs.existsSync(f));
  for (const name of EXTERNAL_NODE_MODULES) {
    const dirs = new Set<string>();
    packageDirs(name, root, dirs);
    if (!dirs.size) continue;
    const own = await inputsOf(root, {
      stdin: { contents: `require(${JSON.stringify(name)})`, resolveDir: root, loader: 'js' },
      format: 'cjs',
    });
    own.forEach(add);
    for (const dir of dirs) {
      const all: string[] = [];
      filesUnder(dir, null, all);
      // The native modules it may load, not node-gyp's intermediate copies of them.
      for (const f of all) if (f.endsWith('.node') && !/[\\/]obj(\.target)?[\\/]/.test(f)) add(f);
    }
  }
  return { packages: [...files].filter((f) => fs.existsSync(f)).sort(), inlined: inlined.sort() };
}

/** What the trace depends on: the compiled tree and the installed packages, by size and mtime. */
function traceKey(root: string, code: string[]): string {
  const hash = crypto.createHash('sha1');
  for (const f of [...code, path.join(root, 'node_modules', '.package-lock.json'), path.join(root, 'package.json')]) {
    const st = fs.statSync(f, { throwIfNoEntry: false });
    hash.update(`${f}\0${st?.size}\0${st?.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/**
 * Unpacked bytes of the archive counted without tracing or deflating: whole package directories, so
 * more than the bundler ships. For a quick look; a build measures `functionArchiveSize`.
 */
export function functionBundleSize(storeFile: string, root = ROOT): FunctionSize {
  const code = codeFiles(root);
  const packages: string[] = [];
  for (const dir of runtimePackageDirs(root)) filesUnder(dir, null, packages);
  const sum = (files: string[]): Part => ({ bytes: files.reduce((n, f) => n + fs.statSync(f).size, 0), zipped: 0 });
  const parts = { store: { bytes: fs.statSync(storeFile).size, zipped: 0 }, code: sum(code), packages: sum(packages) };
  return withTotal(parts, code.length + packages.length + 1);
}

function withTotal(parts: Omit<FunctionSize, 'total' | 'files'>, files: number): FunctionSize {
  const { store, code, packages } = parts;
  return {
    ...parts,
    total: {
      bytes: store.bytes + code.bytes + packages.bytes + BUNDLER_ALLOWANCE.bytes,
      zipped: store.zipped + code.zipped + packages.zipped + BUNDLER_ALLOWANCE.zipped + END_OF_ARCHIVE,
    },
    files,
  };
}

/** How many bytes `file` deflates to, as archiver deflates an entry (raw deflate, zlib's fastest level). */
export async function deflatedSize(file: string): Promise<number> {
  let n = 0;
  const deflate = zlib.createDeflateRaw({ level: zlib.constants.Z_BEST_SPEED, chunkSize: 1 << 20 });
  deflate.on('data', (chunk: Buffer) => {
    n += chunk.length;
  });
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  fs.createReadStream(file, { highWaterMark: 4 << 20 })
    .on('error', (err) => deflate.destroy(err))
    .pipe(deflate);
  await done;
  return n;
}

/** A file as a zip entry: its deflated bytes (from `cache` when its size and mtime are the same) and headers. */
async function zipEntry(file: string, name: string, cache: ZipCache): Promise<Part> {
  const st = fs.statSync(file);
  const held = cache[file];
  let zipped: number;
  if (held && held[0] === st.size && held[1] === st.mtimeMs) zipped = held[2];
  else {
    zipped = await deflatedSize(file);
    cache[file] = [st.size, st.mtimeMs, zipped];
  }
  return { bytes: st.size, zipped: zipped + ENTRY_OVERHEAD + 2 * Buffer.byteLength(name) };
}

async function zipParts(files: string[], root: string, cache: ZipCache): Promise<Part> {
  const part = { bytes: 0, zipped: 0 };
  for (const f of files) {
    const e = await zipEntry(f, path.relative(root, f), cache);
    part.bytes += e.bytes;
    part.zipped += e.zipped;
  }
  return part;
}

/**
 * The archive, zipped and unzipped. `storeName` is where the store sits in the archive (netlify.toml
 * ships it at its path in the project); `cache` spares tracing and deflating what did not change.
 */
export async function functionArchiveSize(
  storeFile: string,
  storeName: string,
  cache: SizeCache = { zipped: {} },
  root = ROOT,
): Promise<FunctionSize> {
  const code = codeFiles(root);
  const key = traceKey(root, code);
  if (cache.trace?.key !== key) cache.trace = { key, ...(await traceFunction(root)) };
  const { packages, inlined } = cache.trace;
  const zipped = cache.zipped;
  const entry = path.join(root, FUNCTION_ENTRY);
  const codePart = await zipParts(
    code.filter((f) => f !== entry),
    root,
    zipped,
  );
  // The function's module as shipped: the compiled files it imports, inlined into one.
  const module = await zipParts(inlined, root, zipped);
  const parts = {
    store: await zipEntry(storeFile, storeName, zipped),
    code: { bytes: codePart.bytes + module.bytes, zipped: codePart.zipped + module.zipped },
    packages: await zipParts(packages, root, zipped),
  };
  // Entries of files that are gone would only grow the cache.
  const live = new Set([storeFile, ...code, ...inlined, ...packages]);
  for (const f of Object.keys(zipped)) if (!live.has(f)) delete zipped[f];
  return withTotal(parts, code.length + packages.length + 1);
}

const limit = (bytes: number) => `${Math.round(bytes / 1e6)}`;

/** `function: 3.1 MB zipped of 50, 12.0 MB of 250 unzipped` (zipped left out when not measured). */
export function describeFunctionSize(s: FunctionSize): string {
  const unzipped = `${mb(s.total.bytes)} of ${limit(FUNCTION_LIMIT_BYTES)} unzipped`;
  const zipped = s.store.zipped > 0 ? `${mb(s.total.zipped)} zipped of ${limit(FUNCTION_ZIP_LIMIT_BYTES)}, ` : '';
  return `function: ${zipped}${unzipped}`;
}

/** What each part weighs, for a message about a function too large. */
export function describeParts(s: FunctionSize): string {
  const part = (name: string, p: Part) => `${name} ${mb(p.zipped)} zipped / ${mb(p.bytes)}`;
  return `${part('store', s.store)}, ${part('code', s.code)}, ${part('packages', s.packages)}`;
}

/** Throws when the function would not deploy; the message gives the figures and what to do instead. */
export function checkFunctionFits(s: FunctionSize, fallback: string): void {
  const overZip = s.store.zipped > 0 && s.total.zipped > FUNCTION_ZIP_LIMIT_BYTES;
  const over = s.total.bytes > FUNCTION_LIMIT_BYTES;
  if (!overZip && !over) return;
  const which = [
    overZip ? `${mb(s.total.zipped)} zipped, over Netlify's ${limit(FUNCTION_ZIP_LIMIT_BYTES)} MB zipped limit` : '',
    over ? `${mb(s.total.bytes)} unzipped, over Netlify's ${limit(FUNCTION_LIMIT_BYTES)} MB unzipped limit` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  throw new FunctionTooLarge(
    `the fallback function ${fallback} would be ${which} (${describeParts(s)}); serve the fallback from an ` +
      'origin instead (--fallback https://origin.example, running `fds serve`), or sync fewer seasons or leagues',
  );
}
