/**
 * `fds build --target nginx` (src/nginx/target.ts): the build writes the files it writes for Netlify,
 * and instead of Netlify's rules the `nginx.conf` that nginx.test.ts runs in front of `fds serve`,
 * naming the published release by its own path; it refuses what nginx cannot do before any work, and
 * `fds check`, which reads Netlify's rules, refuses its release.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckError, check } from '../../src/check/check.js';
import { build } from '../../src/publish/build.js';
import type { BuildOptions } from '../../src/publish/build.js';
import { RuleError } from '../../src/publish/rules/rule-settings.js';
import { NGINX_FILE, writeNginxConfig } from '../../src/nginx/config.js';
import { nginxTarget } from '../../src/nginx/target.js';
import type { NginxReport } from '../../src/nginx/target.js';
import { currentRelease } from '../../src/release/layout.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { buildInto, contentOf, demoStore } from '../publish/helpers.js';

const ORIGIN = 'http://127.0.0.1:8080';
let db: string;
let store: StoreReader;

beforeAll(async () => {
  db = await demoStore({ leagues: ['eng.1'] });
  store = StoreReader.open(db);
});
afterAll(() => store?.close());

const outDir = () => path.join(tempDir('fds-nginx-out-'), 'dist');
const nginxBuild = (out: string, opts: Partial<BuildOptions<NginxReport>> = {}) =>
  build({ store, out, workers: 0, target: nginxTarget(), fallback: ORIGIN, ...opts });

/** The published release's files but those a target writes of its own. */
function renderedFiles(out: string): Map<string, string> {
  const own = new Set([NGINX_FILE, '_redirects', '_headers', 'build.json']);
  return new Map([...contentOf(out)].filter(([file]) => !own.has(file) && !file.startsWith('_b/')));
}

/** `fds build ARGS` as a user runs it (from the sources). */
const fdsBuild = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'build', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

describe('fds build --target nginx', () => {
  it('is what the command builds with --target nginx, and the command refuses an unknown target as a usage error', () => {
    const out = outDir();
    const built = fdsBuild('--target', 'nginx', '--db', db, '--out', out);
    expect(built.status, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/no rules; nginx\.conf [\d.]+ MB \([\d,]+ spellings of [\d,]+ answers to files\)/);
    expect(fs.existsSync(path.join(currentRelease(out)!, NGINX_FILE))).toBe(true);
    const unknown = fdsBuild('--target', 'apache', '--db', db, '--out', outDir());
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Allowed choices are netlify, nginx');
    const edge = fdsBuild('--target', 'nginx', '--router', 'edge', '--db', db, '--out', outDir());
    expect(edge.status).toBe(1);
    expect(edge.stderr).toContain("--router edge is Netlify's edge function");
  });

  it('publishes the rendered files with the nginx.conf that names its release, and no Netlify rules', async () => {
    const out = outDir();
    const summary = await nginxBuild(out);
    const release = currentRelease(out)!;
    expect(summary.rules).toBeNull();
    expect(summary.nginx!.spellings).toBeGreaterThan(summary.nginx!.answers);
    // nginx reaches every pre-rendered request from its file.
    expect(summary.reach!.reached).toBe(summary.reach!.requests);
    for (const netlify of ['_redirects', '_headers', '_b', '_edge'])
      expect(fs.existsSync(path.join(release, netlify)), netlify).toBe(false);
    const written = fs.readFileSync(path.join(release, NGINX_FILE));
    expect(written.toString()).toContain(fs.realpathSync(release));
    // What the build wrote is what nginx.test.ts runs nginx with, for the published release.
    writeNginxConfig(release, { origin: ORIGIN });
    expect(fs.readFileSync(path.join(release, NGINX_FILE)).equals(written)).toBe(true);
  });

  it('carries a Netlify build’s files over, byte for byte, into a tree of its own without Netlify’s', async () => {
    const out = outDir();
    const { summary: forNetlify } = await buildInto(db, out, { fallback: ORIGIN });
    const netlifyFiles = renderedFiles(out);
    const summary = await nginxBuild(out);
    expect(forNetlify.mode).toBe('full');
    // The files do not depend on the target: none is rendered again, only the target's own are new.
    expect(summary.mode).toBe('incremental');
    expect(summary.rendered).toBe(0);
    expect(summary.published).toBe(true);
    expect(renderedFiles(out)).toEqual(netlifyFiles);
    expect(fs.existsSync(path.join(currentRelease(out)!, '_redirects'))).toBe(false);
  });

  it('leaves the published release and its configuration as they are when nothing changed, and names each new one its own', async () => {
    const out = outDir();
    await nginxBuild(out);
    const first = currentRelease(out)!;
    const config = fs.readFileSync(path.join(first, NGINX_FILE), 'utf8');
    const again = await nginxBuild(out);
    expect(again.mode).toBe('unchanged');
    expect(again.nginx).toBeNull();
    expect(currentRelease(out)).toBe(first);
    await nginxBuild(out, { full: true });
    const second = currentRelease(out)!;
    expect(second).not.toBe(first);
    const secondConfig = fs.readFileSync(path.join(second, NGINX_FILE), 'utf8');
    expect(secondConfig).toContain(fs.realpathSync(second));
    expect(secondConfig).not.toContain(`${path.basename(first)}/`);
    expect(fs.readFileSync(path.join(first, NGINX_FILE), 'utf8')).toBe(config);
  });

  it('refuses what nginx cannot do before writing anything', async () => {
    const refused: Array<[Partial<BuildOptions<NginxReport>>, RegExp]> = [
      [{ router: 'edge' }, /--router edge/],
      [{ origin: ORIGIN }, /--origin is for Netlify/],
      [{ fallback: '/.netlify/functions/fds' }, /--fallback must be an http\(s\) origin URL/],
      [{ fallback: 'http://user@127.0.0.1:8080' }, /--fallback must be an http\(s\) origin URL/],
    ];
    for (const [opts, message] of refused) {
      const out = outDir();
      const attempt = nginxBuild(out, opts);
      await expect(attempt, JSON.stringify(opts)).rejects.toThrow(RuleError);
      await expect(nginxBuild(out, opts)).rejects.toThrow(message);
      expect(fs.existsSync(out)).toBe(false);
    }
  });

  it('is refused by fds check, which resolves requests through Netlify’s rules', async () => {
    const out = outDir();
    await nginxBuild(out);
    const checking = check({ db, dir: out, sample: 10 });
    await expect(checking).rejects.toThrow(CheckError);
    await expect(check({ db, dir: out, sample: 10 })).rejects.toThrow(/built for nginx/);
  });
});
