/**
 * The Netlify Function's archive as Netlify makes it: @netlify/zip-it-and-ship-it (the bundler
 * Netlify's build runs) over a site laid out as this project is — netlify.toml, netlify/functions,
 * the compiled tree, the run-time packages as installed, and a build's slim store at the path
 * netlify.toml ships — with the `[functions]` settings netlify.toml gives. The site is a copy in a
 * temporary directory, so a test's store never touches the project's own `data/`.
 * Used by test/netlify/function-shipped.test.ts and bench/function-cold.ts, which also invoke the
 * unpacked function here as Netlify's runtime does (`invokeUnpacked`).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_BUNDLE, runtimePackageDirs } from '../../src/netlify/function-size.js';
import { FUNCTION_STORE } from '../../src/netlify/function-store.js';
import { ROOT, tempDir } from '../helpers/store.js';

/** What netlify.toml says about functions, read as Netlify's config reads those keys. */
export interface FunctionsConfig {
  directory: string;
  includedFiles: string[];
  externalNodeModules: string[];
  nodeVersion: string;
}

export function functionsConfig(root = ROOT): FunctionsConfig {
  const toml = fs.readFileSync(path.join(root, 'netlify.toml'), 'utf8');
  const list = (key: string) =>
    JSON.parse(new RegExp(`^\\s*${key}\\s*=\\s*(\\[.*\\])`, 'm').exec(toml)![1]!) as string[];
  const string = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, 'm').exec(toml)![1]!;
  return {
    directory: string('functions'),
    includedFiles: list('included_files'),
    externalNodeModules: list('external_node_modules'),
    nodeVersion: string('NODE_VERSION'),
  };
}

function copyTree(from: string, to: string, skip: (p: string) => boolean = () => false): void {
  fs.cpSync(from, to, { recursive: true, filter: (src) => !skip(src), dereference: false });
}

/**
 * A copy of the project as Netlify's build sees it, with `slimStore` at the path netlify.toml ships.
 * Packages are copied at their paths under node_modules; only the run-time packages and what they
 * depend on, which is all the function may load (a missing one fails the bundler or the function).
 */
export function mirrorSite(slimStore: string, dir = tempDir('fds-site-')): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const file of ['netlify.toml', 'package.json']) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  copyTree(path.join(ROOT, 'netlify'), path.join(dir, 'netlify'));
  copyTree(path.join(ROOT, 'build'), path.join(dir, 'build'), (p) => p.startsWith(path.join(ROOT, CLI_BUNDLE)));
  for (const pkg of runtimePackageDirs(ROOT)) copyTree(pkg, path.join(dir, path.relative(ROOT, pkg)));
  fs.mkdirSync(path.dirname(path.join(dir, FUNCTION_STORE)), { recursive: true });
  fs.copyFileSync(slimStore, path.join(dir, FUNCTION_STORE));
  return dir;
}

export interface Archive {
  zip: string;
  /** The archive's bytes, as uploaded. */
  zipped: number;
  /** The files' bytes once unpacked: the sum of the central directory's sizes. */
  unzipped: number;
  entries: number;
  /** Seconds the bundler took. */
  seconds: number;
}

/** Zip the site's function with the bundler, configured as netlify.toml configures it. */
export async function zipFunction(site: string): Promise<Archive> {
  const { zipFunctions } = await import('@netlify/zip-it-and-ship-it');
  const cfg = functionsConfig(site);
  const out = tempDir('fds-zip-');
  const started = performance.now();
  const results = await zipFunctions([path.join(site, cfg.directory)], out, {
    basePath: site,
    repositoryRoot: site,
    config: {
      '*': {
        includedFiles: cfg.includedFiles,
        includedFilesBasePath: site,
        externalNodeModules: cfg.externalNodeModules,
        nodeVersion: cfg.nodeVersion,
      },
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const fds = results.find((r) => r.name === 'fds');
  if (!fds) throw new Error(`the bundler made no archive for fds (got ${results.map((r) => r.name).join(', ')})`);
  const zip = fds.path;
  const { unzipped, entries } = centralDirectory(fs.readFileSync(zip));
  return { zip, zipped: fs.statSync(zip).size, unzipped, entries, seconds };
}

/** Sizes from a zip's central directory (no zip64: Netlify's limits are far below it). */
export function centralDirectory(zip: Buffer): { unzipped: number; entries: number; names: string[] } {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  let unzipped = 0;
  const names: string[] = [];
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    unzipped += zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return { unzipped, entries, names };
}

/** Whether `unzip` is here to unpack an archive. */
export function hasUnzip(): boolean {
  return spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
}

/** Unpack the archive into a new directory, as Netlify unpacks it into the function's /var/task. */
export function unpack(zip: string, dir = tempDir('fds-task-')): string {
  const res = spawnSync('unzip', ['-q', '-o', zip, '-d', dir], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`unzip failed: ${res.stderr}`);
  return dir;
}

/**
 * What a child process runs to invoke the unpacked function, from a directory outside the archive:
 * the archive's entry point — Netlify's bootstrap wrapping the function module — invoked as Netlify's
 * runtime invokes it, with an invocation event per request (the request, the site and deploy, the
 * site's URL in its environment, as Netlify sets it) and a response stream, so the function loads only
 * what the archive holds. Times the import and each answer.
 */
const INVOKER = `
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
// What AWS Lambda's Node runtime provides a streaming handler.
globalThis.awslambda = {
  streamifyResponse: (fn) => fn,
  HttpResponseStream: { from(stream, meta) { stream.meta = meta; return stream; } },
};
const [requestsFile, outFile] = process.argv.slice(2);
const { base, siteId, deployId } = JSON.parse(process.env.FDS_TEST_EVENT);
const started = performance.now();
const { handler } = await import(pathToFileURL(path.join(process.cwd(), '___netlify-entry-point.mjs')).href);
// The bootstrap imports the function's module on the first invocation; imported here first, so the
// import is timed on its own (the bootstrap then finds it loaded).
await import(pathToFileURL(path.join(process.cwd(), 'netlify/functions/fds.mjs')).href);
const out = { entryPoint: typeof handler, imported: performance.now() - started, answers: [] };
let n = 0;
for (const { method, url, headers } of JSON.parse(fs.readFileSync(requestsFile, 'utf8'))) {
  const asked = performance.now();
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
  const event = {
    rawUrl: base + '/.netlify/functions/fds' + search,
    httpMethod: method,
    headers: {
      ...headers,
      'x-netlify-original-pathname': pathname,
      'x-netlify-original-search': search,
      'x-nf-site-id': siteId,
      'x-nf-deploy-id': deployId,
    },
    body: '',
    isBase64Encoded: false,
    flags: {},
    invocationMetadata: {},
    logToken: '',
  };
  const chunks = [];
  const stream = new Writable({ write(c, _e, cb) { chunks.push(Buffer.from(c)); cb(); } });
  const ended = new Promise((resolve, reject) => { stream.on('finish', resolve); stream.on('error', reject); });
  const context = { awsRequestId: 'req-' + n++, getRemainingTimeInMillis: () => 30_000, clientContext: {} };
  await handler(event, stream, context);
  await ended;
  const h = {};
  for (const [k, v] of Object.entries(stream.meta?.multiValueHeaders ?? {})) h[k] = v.join(', ');
  out.answers.push({
    status: stream.meta?.statusCode,
    headers: h,
    body: Buffer.concat(chunks).toString('base64'),
    ms: performance.now() - asked,
  });
}
fs.writeFileSync(outFile, JSON.stringify(out));
`;

/**
 * A wall clock for the function's `new Date()`, loaded before anything else. Only the date a
 * `new Date()` makes: `Date.now()` keeps time, as the HTTP client's timers need it to.
 */
const clockPreload = (now: Date) => `
const NOW = ${now.getTime()};
const Real = Date;
class FixedDate extends Real {
  constructor(...args) { if (args.length === 0) super(NOW); else super(...args); }
}
globalThis.Date = FixedDate;
`;

export interface InvokedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export interface Invocation {
  entryPoint: string;
  /** Milliseconds to import the entry point (Netlify's bootstrap) and the function's module. */
  imported: number;
  answers: Array<{ status: number; headers: Record<string, string>; body: string; ms: number }>;
  /** Milliseconds from spawning the process to its exit. */
  wall: number;
}

/**
 * Invoke the unpacked function in `task` in a fresh Node process, whose working directory is the
 * archive and whose environment holds nothing of this one (no loader, no NODE_PATH). Asynchronous:
 * the deploy's files may be served from this process. `event`: the site and deploy, and the site's URL
 * the function fetches its body files from (function-helpers.ts `deployStoreOf`).
 */
export async function invokeUnpacked(
  task: string,
  requests: readonly InvokedRequest[],
  event: { siteId: string; deployId: string; url: string },
  opts: { base: string; now?: Date },
): Promise<Invocation> {
  const io = tempDir('fds-invoke-');
  const files = {
    invoker: path.join(io, 'invoke.mjs'),
    clock: path.join(io, 'clock.mjs'),
    requests: path.join(io, 'requests.json'),
    out: path.join(io, 'out.json'),
  };
  fs.writeFileSync(files.invoker, INVOKER);
  fs.writeFileSync(files.requests, JSON.stringify(requests));
  const args = [files.invoker, files.requests, files.out];
  if (opts.now) {
    fs.writeFileSync(files.clock, clockPreload(opts.now));
    args.unshift('--import', pathToFileURL(files.clock).href);
  }
  const started = performance.now();
  const { status, stderr } = await new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: task,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: task,
        URL: event.url,
        FDS_TEST_EVENT: JSON.stringify({ ...event, base: opts.base }),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const timer = setTimeout(() => child.kill(), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code, stderr: err });
    });
  });
  const wall = performance.now() - started;
  if (status !== 0) throw new Error(`the unpacked function's process failed (${status}): ${stderr}`);
  return { ...(JSON.parse(fs.readFileSync(files.out, 'utf8')) as Omit<Invocation, 'wall'>), wall };
}
