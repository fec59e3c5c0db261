/**
 * The static-first server at a static server's cost: hot files answered from memory within a
 * budget, compressed variants made once, and a new release noticed without looking at the file
 * system on every request — still never sending bytes that are not the ETag's, across publishes.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readManifestSync } from '../../src/release/manifest.js';
import { currentRelease } from '../../src/release/layout.js';
import { createApiServer } from '../../src/server/http.js';
import { ADMIT_ONE_IN } from '../../src/util/crowding.js';
import { StaticBuild } from '../../src/server/static-lookup.js';
import type { StaticBuildOptions } from '../../src/server/static-lookup.js';
import { etagOf } from '../../src/api/etag.js';
import { rawRequest } from '../api/helpers/targets.js';
import { editStore, tempDir } from '../helpers/store.js';
import type { TargetResponse } from '../api/helpers/targets.js';
import { buildInto, demoStore } from './helpers.js';

const compressions = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/server/compress.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/server/compress.js')>();
  return {
    ...original,
    compress: (body: Buffer, coding: 'br' | 'gzip') => {
      compressions.count++;
      return original.compress(body, coding);
    },
  };
});

const NOW = new Date('2026-03-21T12:00:00Z');
let db: string;

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  vi.restoreAllMocks();
});

async function serve(dir: string, opts: StaticBuildOptions = {}) {
  const sources: string[] = [];
  const lookup = new StaticBuild(dir, opts);
  const api = createApiServer({
    storeFile: db,
    clock: () => NOW,
    rateLimit: null,
    log: (line) => sources.push((JSON.parse(line) as { source: string }).source),
    staticLookup: lookup,
  });
  servers.push(api);
  const { port } = (await api.listen(0, '127.0.0.1')) as AddressInfo;
  const get = (url: string, headers: Record<string, string> = {}) => rawRequest(port, 'GET', url, headers);
  return { get, sources, lookup };
}

const manifest = (out: string) => readManifestSync(path.join(currentRelease(out)!, 'manifest.ndjson'));

/** The first scoreboard with matches: the days around the snapshot are pre-rendered, empty ones too. */
const scoreboardWithMatches = (out: string) =>
  manifest(out).find(
    (e) =>
      e.request.includes('/scoreboard?') &&
      fs.readFileSync(path.join(currentRelease(out)!, e.file), 'utf8').includes('"events":[{'),
  )!;
/** A pre-rendered request whose file is large enough to be compressed, and that file. */
const largeEntry = (out: string) => manifest(out).find((e) => e.bytes > 4096 && e.request.includes('/events/'))!;

const decoded = (r: TargetResponse): Buffer => {
  const coding = r.headers['content-encoding'];
  if (coding === 'gzip') return zlib.gunzipSync(r.body);
  if (coding === 'br') return zlib.brotliDecompressSync(r.body);
  return r.body;
};

/** Rename every match of a league: its responses, and the lists holding them, change in the next build. */
function renameMatches(league: string, label: string) {
  const r = new Database(db, { readonly: true });
  const rows = r.prepare('SELECT id, scoreboard_date AS day FROM matches WHERE league_slug = ?').all(league) as Array<{
    id: string;
    day: string;
  }>;
  r.close();
  editStore(
    db,
    (w) =>
      w
        .prepare(
          `UPDATE matches SET record = packed_record(json_set(record_text(record), '$.name', ? || id)), hash = ? || id
           WHERE league_slug = ?`,
        )
        .run(`${label} `, label, league),
    rows.flatMap(
      ({ id, day }): Array<[string, string, string]> => [
        ['match', league, id],
        ['day', league, day],
      ],
    ),
  );
}

beforeAll(async () => {
  db = await demoStore();
});

describe('static-first server: memory', () => {
  it('answers a hot file from memory, so a file gone from disk after its first answer is still served', async () => {
    const { out } = await buildInto(db);
    const entry = largeEntry(out);
    const s = await serve(out);
    const first = await s.get(entry.request);
    fs.rmSync(path.join(currentRelease(out)!, entry.file));
    const again = await s.get(entry.request);
    expect(s.sources).toEqual(['static', 'static']);
    expect(again.headers.etag).toBe(entry.etag);
    expect(again.body.equals(first.body)).toBe(true);
  });

  it(
    'with no memory budget reads the file for every answer, but ' + 'answers a matching conditional GET without it',
    async () => {
      const { out } = await buildInto(db);
      const entry = largeEntry(out);
      const s = await serve(out, { cacheBytes: 0 });
      expect((await s.get(entry.request)).status).toBe(200);
      fs.rmSync(path.join(currentRelease(out)!, entry.file));
      expect((await s.get(entry.request, { 'if-none-match': entry.etag })).status).toBe(304);
      const missing = await s.get(entry.request);
      expect(s.sources).toEqual(['static', 'static', 'dynamic']);
      expect(missing.headers.etag).toBe(entry.etag);
    },
  );

  it('says how much of the build its memory holds: all of it, or about what share', async () => {
    const { out } = await buildInto(db);
    const files = manifest(out).filter((e) => e.status === 200);
    const bytes = files.reduce((n, e) => n + e.bytes, 0);
    const roomy = new StaticBuild(out, { cacheBytes: 2 * bytes });
    const tight = new StaticBuild(out, { cacheBytes: Math.floor(bytes / 4) });
    try {
      expect(roomy.description).toContain(`${files.length} files`);
      expect(roomy.description).toContain('all of it fits');
      expect(tight.description).toMatch(/holds about 2[45] % of it/);
    } finally {
      roomy.close();
      tight.close();
    }
  });

  it('keeps what it holds within its byte budget', async () => {
    const { out } = await buildInto(db);
    const budget = 256 * 1024;
    const s = await serve(out, { cacheBytes: budget });
    const entries = manifest(out).filter((_, i) => i % 4 === 0);
    for (const e of entries) await s.get(e.request, { 'accept-encoding': 'gzip' });
    expect(entries.reduce((n, e) => n + e.bytes, 0)).toBeGreaterThan(4 * budget);
    expect(s.lookup.cached.bytes).toBeGreaterThan(budget / 2);
    expect(s.lookup.cached.bytes).toBeLessThanOrEqual(budget);
  });

  it('answers a file again from disk once the memory dropped it, however often its answer was given whole', async () => {
    const { out } = await buildInto(db);
    const budget = 256 * 1024;
    const s = await serve(out, { cacheBytes: budget });
    // Small enough for the memory to hold (an eighth of its budget at most).
    const entry = manifest(out).find((e) => e.bytes > 4096 && e.bytes < budget / 8)!;
    for (let i = 0; i < 3; i++) await s.get(entry.request);
    expect(s.lookup.cached.items).toBe(1);
    // Enough other files to push it out of the memory, second chance and all, with one new body in
    // eight let in once the memory is full (going round them again if there are too few).
    const others = manifest(out).filter((e) => e.file !== entry.file && e.bytes <= budget / 8);
    let pushed = 0;
    for (let i = 0; pushed <= 3 * ADMIT_ONE_IN * budget; i++) {
      const e = others[i % others.length]!;
      await s.get(e.request);
      pushed += e.bytes;
    }
    fs.rmSync(path.join(currentRelease(out)!, entry.file));
    await s.get(entry.request);
    expect(s.sources.slice(0, 3)).toEqual(['static', 'static', 'static']);
    expect(s.sources.at(-1)).toBe('dynamic');
  });

  it(
    'compresses a file once per coding, however often it is asked ' + 'for; a dynamic answer is compressed each time',
    async () => {
      const { out } = await buildInto(db);
      const entry = largeEntry(out);
      const s = await serve(out);
      const plain = await s.get(entry.request);
      compressions.count = 0;
      for (let i = 0; i < 4; i++) {
        for (const coding of ['gzip', 'br']) {
          const r = await s.get(entry.request, { 'accept-encoding': coding });
          expect(r.headers['content-encoding']).toBe(coding);
          expect(r.headers.vary).toBe('Accept-Encoding');
          expect(Number(r.headers['content-length'])).toBe(r.body.length);
          expect(decoded(r).equals(plain.body), coding).toBe(true);
        }
      }
      expect(compressions.count).toBe(2);
      // Not pre-rendered (limit=7): rendered, and compressed, per request.
      const dynamicUrl = `${entry.request.split('/events/')[0]}/fixtures?limit=7`;
      for (let i = 0; i < 3; i++) await s.get(dynamicUrl, { 'accept-encoding': 'gzip' });
      expect(s.sources.slice(-3)).toEqual(['dynamic', 'dynamic', 'dynamic']);
      expect(compressions.count).toBe(5);
    },
  );
});

describe('static-first server: new releases', () => {
  it('notices a newly published release at once, without resolving the build directory on every request', async () => {
    const { out } = await buildInto(db);
    const entry = scoreboardWithMatches(out);
    const league = entry.request.split('/')[3]!;
    const s = await serve(out, { recheckMs: 3_600_000 });
    expect((await s.get(entry.request)).headers.etag).toBe(entry.etag);
    const realpath = vi.spyOn(fs.realpathSync, 'native');
    for (let i = 0; i < 20; i++) await s.get(entry.request);
    expect(realpath).not.toHaveBeenCalled();

    renameMatches(league, 'Republished');
    await buildInto(db, out);
    const next = manifest(out).find((e) => e.request === entry.request)!;
    expect(next.etag).not.toBe(entry.etag);
    const answer = await s.get(entry.request);
    expect(answer.headers.etag).toBe(next.etag);
    expect(answer.body.toString()).toContain('Republished');
    expect(s.sources.at(-1)).toBe('static');
  });

  it('answers a target asked for again from the release published since, wherever that release lists its file', async () => {
    const { out } = await buildInto(db);
    const release = currentRelease(out)!;
    const entries = manifest(out).filter((e) => e.status === 200 && e.request.startsWith('/get/'));
    const urls = [...entries.slice(0, 5), ...entries.slice(-5)].map((e) => e.request);
    const s = await serve(out, { recheckMs: 3_600_000 });
    for (const url of urls) expect((await s.get(url)).status).toBe(200);

    // The same files under another release whose manifest lists them in reverse: each target's file
    // has another number there, and one target no file at all.
    const next = `${release}-reversed`;
    fs.cpSync(release, next, { recursive: true });
    const lines = fs.readFileSync(path.join(release, 'manifest.ndjson'), 'utf8').split('\n').filter(Boolean);
    const dropped = urls[0]!;
    const kept = lines.filter((l) => (JSON.parse(l) as { request: string }).request !== dropped).reverse();
    fs.writeFileSync(path.join(next, 'manifest.ndjson'), `${kept.join('\n')}\n`);
    fs.symlinkSync(next, `${out}.new`);
    fs.renameSync(`${out}.new`, out);
    await new Promise((r) => setTimeout(r, 100));

    for (const url of urls.slice(1)) {
      const answer = await s.get(url);
      expect(answer.headers.etag).toBe(entries.find((e) => e.request === url)!.etag);
      expect(etagOf(answer.body)).toBe(answer.headers.etag);
      expect(s.sources.at(-1)).toBe('static');
    }
    expect((await s.get(dropped)).status).toBe(200);
    expect(s.sources.at(-1)).toBe('dynamic');
  });

  it('notices a release the directory watch cannot hear of within its recheck interval', async () => {
    // `dir` is reached through a link that is swapped: the watch sits on the old target's directory.
    const a = await buildInto(db);
    const entry = scoreboardWithMatches(a.out);
    renameMatches(entry.request.split('/')[3]!, 'Elsewhere');
    const b = await buildInto(db);
    const link = path.join(tempDir('fds-link-'), 'current');
    fs.symlinkSync(path.dirname(a.out), link);
    const s = await serve(path.join(link, 'dist'), { recheckMs: 100 });
    expect((await s.get(entry.request)).headers.etag).toBe(entry.etag);

    fs.symlinkSync(path.dirname(b.out), `${link}.new`);
    fs.renameSync(`${link}.new`, link);
    await new Promise((r) => setTimeout(r, 150));
    const answer = await s.get(entry.request);
    expect(answer.headers.etag).toBe(manifest(b.out).find((e) => e.request === entry.request)!.etag);
    expect(answer.body.toString()).toContain('Elsewhere');
  });

  it(
    'under load across publishes, sends every body with the ETag ' + 'of exactly its bytes, one of its request',
    async () => {
      const { out } = await buildInto(db);
      const before = new Map(manifest(out).map((e) => [e.request, e.etag]));
      const league = scoreboardWithMatches(out).request.split('/')[3]!;
      renameMatches(league, 'Build');
      await buildInto(db, out);
      // The requests a rename changes (each publish below changes them again), and some it leaves alone.
      const changing = manifest(out).filter((e) => before.get(e.request) !== e.etag);
      const steady = manifest(out).filter((e) => before.get(e.request) === e.etag && e.request.includes(`/${league}/`));
      const urls = [...changing.slice(0, 40), ...steady.slice(0, 10)].map((e) => e.request);
      expect(changing.length).toBeGreaterThan(3);
      // Every ETag any release published for a request, and the bytes of each.
      const published = new Map<string, Set<string>>();
      const bodies = new Map<string, Buffer>();
      const record = () => {
        const release = currentRelease(out)!;
        for (const e of readManifestSync(path.join(release, 'manifest.ndjson'))) {
          if (!published.has(e.request)) published.set(e.request, new Set());
          published.get(e.request)!.add(e.etag);
          if (!bodies.has(e.etag)) bodies.set(e.etag, fs.readFileSync(path.join(release, e.file)));
        }
      };
      record();
      const s = await serve(out, { cacheBytes: 32 * 1024 * 1024 });

      let stop = false;
      const answers: Array<{ url: string; r: TargetResponse }> = [];
      const codings: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br' }];
      const client = async (c: number) => {
        for (let i = c; !stop; i++) {
          const url = urls[i % urls.length]!;
          answers.push({ url, r: await s.get(url, codings[i % codings.length]) });
        }
      };
      const clients = Array.from({ length: 6 }, (_, c) => client(c * 7));
      for (let i = 0; i < 3; i++) {
        renameMatches(league, `Build ${i} `);
        await buildInto(db, out);
        record();
      }
      stop = true;
      await Promise.all(clients);

      const static_ = s.sources.filter((x) => x === 'static').length;
      expect(static_, 'answered from files').toBeGreaterThan(answers.length / 2);
      for (const { url, r } of answers) {
        expect(r.status, url).toBe(200);
        const body = decoded(r);
        expect(r.headers.etag, url).toBe(etagOf(body));
        // Dynamic answers render the store, which can be a step ahead of the published release.
        if (published.get(url)!.has(r.headers.etag!)) expect(bodies.get(r.headers.etag!)!.equals(body), url).toBe(true);
      }
      const spanned = urls.filter(
        (u) => new Set(answers.filter((a) => a.url === u).map((a) => a.r.headers.etag)).size > 1,
      );
      expect(spanned.length, 'requests answered from more than one release').toBeGreaterThan(0);
    },
  );
});
