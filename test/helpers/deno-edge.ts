/**
 * A release's edge router run where Netlify runs it: on Deno (the `deno` package's binary), as the
 * bundled module the build wrote, its default export called with Web Requests. One Deno process
 * answers a batch of requests: cases as JSON on stdin, answers as JSON on stdout. Deno gets no
 * network, no npm, no remote modules, no config and no environment but its cache directory, and may
 * read only the release and the harness.
 *
 * A case's `now` (ms) is what `Date.now()` returns while the router answers it: the router reads the
 * day of a date-less scoreboard from it, per request. As on Netlify, the function is invoked only on
 * the paths its `config.path` declares (exact paths and `/prefix/*`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EDGE_FILE } from '../../src/netlify/edge/bundle.js';
import { tempDir } from './store.js';

export interface EdgeCase {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  now?: number;
}

export type EdgeAnswer =
  /** Netlify does not invoke the function: the path is not one its config declares. */
  | { kind: 'not-invoked' }
  | { kind: 'rewrite'; url: string }
  | { kind: 'pass' }
  | { kind: 'response'; status: number }
  | { kind: 'invalid'; error: string }
  | { kind: 'error'; error: string };

export interface EdgeRun {
  config: { path: string[]; onError?: string };
  answers: EdgeAnswer[];
}

/** The binary the `deno` package installed (it ships inside the registry package; nothing is downloaded). */
export function denoBinary(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('deno/package.json'));
    const candidates = [path.join(dir, 'deno')];
    const platform = `@deno/${process.platform}-${process.arch}${process.platform === 'linux' ? '-glibc' : ''}`;
    try {
      candidates.push(path.join(path.dirname(require.resolve(`${platform}/package.json`)), 'deno'));
    } catch {
      // Only the package's own copy, then.
    }
    return candidates.find((c) => fs.statSync(c, { throwIfNoEntry: false })?.isFile()) ?? null;
  } catch {
    return null;
  }
}

const HARNESS = `
const [routerUrl] = Deno.args;
const mod = await import(routerUrl);
const input = JSON.parse(await new Response(Deno.stdin.readable).text());
const realNow = Date.now;
const declared = (pathname) =>
  mod.config.path.some((p) => (p.endsWith('/*') ? pathname.startsWith(p.slice(0, -1)) : pathname === p));
const context = {
  next: () => { throw new Error('the router never calls context.next()'); },
  rewrite: () => { throw new Error('the router never calls context.rewrite()'); },
};
const answers = [];
for (const c of input) {
  let request;
  try {
    request = new Request(c.url, { method: c.method ?? 'GET', headers: c.headers ?? {} });
  } catch (err) {
    answers.push({ kind: 'invalid', error: String(err) });
    continue;
  }
  if (!declared(new URL(request.url).pathname)) {
    answers.push({ kind: 'not-invoked' });
    continue;
  }
  Date.now = c.now === undefined ? realNow : () => c.now;
  try {
    const out = await mod.default(request, context);
    if (out === undefined) answers.push({ kind: 'pass' });
    else if (out instanceof URL) answers.push({ kind: 'rewrite', url: out.href });
    else if (out instanceof Response) answers.push({ kind: 'response', status: out.status });
    else answers.push({ kind: 'error', error: 'answered ' + String(out) });
  } catch (err) {
    answers.push({ kind: 'error', error: String(err && err.stack || err) });
  } finally {
    Date.now = realNow;
  }
}
console.log(JSON.stringify({ config: mod.config, answers }));
`;

/** Run the release's edge router on Deno over `cases`. */
export function runOnDeno(deno: string, releaseDir: string, cases: readonly EdgeCase[]): EdgeRun {
  const release = fs.realpathSync(releaseDir);
  const dir = fs.realpathSync(tempDir('fds-deno-'));
  const harness = path.join(dir, 'harness.mjs');
  fs.writeFileSync(harness, HARNESS);
  const denoDir = path.join(dir, 'deno-dir');
  fs.mkdirSync(denoDir);
  const router = path.join(release, EDGE_FILE);
  const out = execFileSync(
    deno,
    [
      'run',
      '--quiet',
      '--no-prompt',
      '--no-config',
      '--no-lock',
      '--no-remote',
      '--no-npm',
      '--cached-only',
      '--node-modules-dir=none',
      `--allow-read=${release},${dir}`,
      harness,
      pathToFileURL(router).href,
    ],
    {
      input: JSON.stringify(cases),
      env: { DENO_DIR: denoDir, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', PATH: process.env.PATH ?? '' },
      maxBuffer: 256 * 1024 * 1024,
      encoding: 'utf8',
    },
  );
  return JSON.parse(out) as EdgeRun;
}
