/**
 * What a publish purges: the own cache tag of every answer whose bytes the build changed — added,
 * changed or removed files, and the requests they also answer — and nothing else; and `fds build
 * --purge varnish:URL` sends exactly those to a Varnish (a loopback stand-in) once it has published.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ownTag } from '../../src/api/cache-tags.js';
import { resolve } from '../../src/app/resolve.js';
import { requestOfFile } from '../../src/publish/place/changed-tags.js';
import { MANIFEST_FILE, currentRelease } from '../../src/release/layout.js';
import type { ManifestEntry } from '../../src/release/manifest.js';
import { readManifestSync } from '../../src/release/manifest.js';
import { ROOT, deleteMatch, tempDir } from '../helpers/store.js';
import { startStandIn, stopStandIns } from '../purge/stand-in.js';
import { buildInto, copyOfState, demoStore } from './helpers.js';

afterEach(stopStandIns);

const LEAGUES = ['eng.1', 'esp.1'];

const manifest = (out: string): Map<string, ManifestEntry> =>
  new Map(readManifestSync(path.join(currentRelease(out)!, MANIFEST_FILE)).map((e) => [e.file, e]));

/** The own tag of a request the manifest names (path and query), resolved as a server resolves it. */
function tagOfUrl(url: string): string {
  const q = url.indexOf('?');
  const r = resolve(q === -1 ? url : url.slice(0, q), q === -1 ? '' : url.slice(q + 1));
  if (r.kind !== 'resolved') throw new Error(`${url} does not resolve`);
  const tag = ownTag(r.route, r.request.params, r.request.query);
  if (tag === null) throw new Error(`${url} has no tag`);
  return tag;
}

/** From the two manifests alone: the own tags of every answer added, changed (other ETag) or removed. */
function expectedTags(before: Map<string, ManifestEntry>, after: Map<string, ManifestEntry>): Set<string> {
  const tags = new Set<string>();
  const add = (e: ManifestEntry) => {
    for (const url of [e.request, ...e.aliases]) tags.add(tagOfUrl(url));
  };
  for (const [file, e] of after) if (before.get(file)?.etag !== e.etag) add(e);
  for (const [file, e] of before) if (!after.has(file)) add(e);
  return tags;
}

/** The first finished match of esp.1, and its day. */
function firstFinished(db: string): { id: string; day: string } {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare(
        "SELECT id, scoreboard_date AS day FROM matches WHERE league_slug = 'esp.1' AND state = 'post' " +
          'ORDER BY kickoff, id LIMIT 1',
      )
      .get() as { id: string; day: string };
  } finally {
    conn.close();
  }
}

/** The store moves on four days (matches finish, others kick off) and loses a finished match; its id. */
async function moveOn(db: string): Promise<string> {
  await demoStore({ file: db, today: '20260325', leagues: LEAGUES });
  const gone = firstFinished(db);
  deleteMatch(db, 'esp.1', gone.id, gone.day);
  return gone.id;
}

let base: string;
beforeAll(async () => {
  base = tempDir('fds-purge-tags-');
  const db = await demoStore({ file: path.join(base, 'store.sqlite'), leagues: LEAGUES });
  await buildInto(db, path.join(base, 'dist'));
}, 120_000);

describe('the tags a publish purges', () => {
  it('are the own tags of the answers it added, changed or removed, and no more', async () => {
    const { db, out } = copyOfState(base, path.join(tempDir('fds-purge-a-'), 'state'));
    const before = manifest(out);
    const deleted = await moveOn(db);
    const { summary } = await buildInto(db, out);
    expect(summary.published).toBe(true);
    const expected = expectedTags(before, manifest(out));
    expect(new Set(summary.changedTags)).toEqual(expected);
    expect(summary.changedTags.length).toBe(expected.size);
    // The removed match's files took its tag with them; no answer's purge reaches a whole league.
    expect(summary.changedTags).toContain(`match-esp.1-${deleted}`);
    expect(summary.changedTags.filter((t) => t.startsWith('league-'))).toEqual([]);
    expect(summary.changedTags.length).toBeLessThan(manifest(out).size / 2);
  });

  it('are none when a full rebuild leaves every byte as it was', async () => {
    const { db, out } = copyOfState(base, path.join(tempDir('fds-purge-b-'), 'state'));
    const { summary } = await buildInto(db, out, { full: true });
    expect(summary.changedTags).toEqual([]);
    const again = await buildInto(db, out);
    expect(again.summary.changedTags).toEqual([]);
  });

  it('name a removed file by the route and values its name was made from', () => {
    expect(requestOfFile('_s/get/soccer/eng.1/events/9001~plays~important-true,page-2.json')).toMatchObject({
      route: { name: 'plays' },
      params: { league: 'eng.1', eventId: '9001' },
      query: { important: 'true', page: '2' },
    });
    expect(requestOfFile('_s/get/soccer/eng.1/scoreboard/dates-20260321.json')).toMatchObject({
      route: { name: 'scoreboard' },
      query: { dates: '20260321' },
    });
    expect(requestOfFile('index.html')).toMatchObject({ route: { name: 'front-door' } });
    expect(requestOfFile('_fd/swagger-ui.css')).toBeNull();
  });
});

describe('fds build --purge', { timeout: 180_000 }, () => {
  const run = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'build', ...args], {
        cwd: ROOT,
        env: { ...env, CI: 'true' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => done({ code, stdout, stderr }));
    });

  it('sends a Varnish exactly the changed answers’ tags after an incremental build', async () => {
    const { db, out } = copyOfState(base, path.join(tempDir('fds-purge-c-'), 'state'));
    const before = manifest(out);
    await moveOn(db);
    const varnish = await startStandIn();
    const r = await run(['--db', db, '--out', out, '--workers', '0', '--purge', `varnish:${varnish.url}/`]);
    expect(r.code, r.stderr).toBe(0);
    const expected = expectedTags(before, manifest(out));
    const sent = varnish.seen.flatMap((s) => String(s.headers['xkey-purge']).split(' '));
    expect(varnish.seen.every((s) => s.method === 'PURGE')).toBe(true);
    expect(new Set(sent)).toEqual(expected);
    expect(sent.length).toBe(expected.size);
    expect(r.stdout).toMatch(new RegExp(`^purged ${expected.size} tags in \\d+ ms$`, 'm'));
  });

  it('publishes and exits 0 when the purge fails, saying so on stderr', async () => {
    const { db, out } = copyOfState(base, path.join(tempDir('fds-purge-d-'), 'state'));
    const release = currentRelease(out);
    await moveOn(db);
    const down = await startStandIn(() => ({ status: 503 }));
    // Refuses every request: the build waits out its purge's retries (BUILD_PURGE_MS) before it reports.
    const r = await run(['--db', db, '--out', out, '--workers', '0', '--purge', `varnish:${down.url}/`]);
    expect(r.code).toBe(0);
    expect(currentRelease(out)).not.toBe(release);
    expect(r.stderr).toMatch(
      /published, but the purge did not finish: purge: varnish failed \(HTTP 503\), \d+ tags pending/,
    );
    expect(down.seen.length).toBeGreaterThan(1);
  });

  it.each([
    ['an unknown kind', 'squid', /unknown --purge target "squid"/],
    ['a target without its credentials', 'netlify', /--purge netlify needs NETLIFY_AUTH_TOKEN and NETLIFY_SITE_ID/],
    ['a Varnish without a URL', 'varnish', /--purge varnish needs the Varnish's URL/],
  ])('refuses %s as a usage error before building', async (_name, spec, message) => {
    const dir = tempDir('fds-purge-e-');
    const out = path.join(dir, 'dist');
    const env = { ...process.env };
    delete env.NETLIFY_AUTH_TOKEN;
    delete env.NETLIFY_SITE_ID;
    const r = await run(['--db', path.join(base, 'store.sqlite'), '--out', out, '--purge', spec], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(out)).toBe(false);
  });
});
