/**
 * The Netlify Function over what `fds build` packs for it (docs/deploying.md): a slim store without the
 * per-match bodies, and the release's body files (`_b/`) that hold them, fetched over HTTP from the
 * deploy's files as a CDN serves them. Every request the contract suite makes, and hostile ones, answer
 * byte for byte what the render core answers over the full store; the contract suite passes against
 * it; the body files follow the store's changes, linked from the published release when unchanged; and
 * a body that cannot be had is a 503, never a wrong answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALL_CASES, contractSuite } from '../api/contract-suite.js';
import { NOW, buildApiStore, clock } from '../api/helpers/api-store.js';
import type { TargetFactory, TargetResponse } from '../api/helpers/targets.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { openStore } from '../../src/store/db.js';
import { functionLayout, placeBodies } from '../../src/netlify/function-package.js';
import { decodeMatchBody, encodeMatchBody } from '../../src/netlify/match-body.js';
import { deleteMatch, editStore, tempDir } from '../helpers/store.js';
import { packJson, packSpans, unpackJson } from '../../src/store/blob.js';
import { buildInto, demoStore } from '../publish/helpers.js';
import type { Blobs } from './function-helpers.js';
import {
  HOSTILE_URLS,
  deployBlobFiles,
  deployStoreOf,
  renderAnswer,
  responseOf,
  rewrittenToFunction,
} from './function-helpers.js';

type NetlifyFunction = (request: Request) => Promise<Response>;
const fds = async (): Promise<NetlifyFunction> =>
  ((await import('../../src/netlify/function.js')) as { default: NetlifyFunction }).default;

/** The function's answer over `slim`, with the deploy's files served by `blobs`, at the suite's clock. */
async function ask(
  slim: string,
  blobs: Blobs,
  method: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<TargetResponse> {
  const handler = await fds();
  process.env.FDS_DB = slim;
  process.env.URL = blobs.url;
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  try {
    return await responseOf(await handler(rewrittenToFunction(method, url, headers)));
  } finally {
    vi.useRealTimers();
  }
}

/** A build of `store` into a new directory: its release (with the body files) and slim store. */
async function packed(store: string) {
  const dir = tempDir('fds-fn-');
  const { summary } = await buildInto(store, path.join(dir, 'dist'));
  return { dir, summary, layout: functionLayout(path.join(dir, 'dist')) };
}

const isHealth = (url: string) => /^\/(api\/)?health(\?|$)/.test(url);

describe("the function over its slim store and the deploy's body files", () => {
  let full: StoreReader;
  let slim: string;
  let blobsDir: string;
  let blobs: Blobs;

  beforeAll(async () => {
    const store = await buildApiStore();
    const { layout, summary } = await packed(store);
    slim = layout.store;
    blobsDir = summary.release;
    expect(summary.functionBlobs?.written).toBe(summary.functionBlobs?.count);
    blobs = await deployStoreOf(blobsDir);
    full = StoreReader.open(store);
  });
  afterAll(async () => {
    full?.close();
    await blobs?.close();
  });

  it('ships every row the render core reads and none of the per-match bodies', () => {
    const db = openStore(slim);
    try {
      const count = (sql: string) => db.prepare(sql).pluck().get() as number;
      expect(count('SELECT count(*) FROM match_summaries')).toBeGreaterThan(0);
      expect(
        count('SELECT count(*) FROM match_summaries WHERE sections IS NOT NULL OR section_spans IS NOT NULL'),
      ).toBe(0);
      expect(count('SELECT count(*) FROM play_streams')).toBeGreaterThan(0);
      expect(
        count(`SELECT count(*) FROM play_streams WHERE plays IS NOT NULL OR ends IS NOT NULL
          OR important_plays IS NOT NULL OR important_ends IS NOT NULL OR flags IS NOT NULL`),
      ).toBe(0);
      expect(count('SELECT count(*) FROM sync_state')).toBe(0);
      const schema = (d: typeof db) =>
        d.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
      expect(schema(db)).toEqual(schema(full.db));
      expect(db.pragma('user_version', { simple: true })).toBe(full.db.pragma('user_version', { simple: true }));
      for (const table of ['matches', 'clubs', 'players', 'standings', 'changes', 'snapshots', 'leagues']) {
        expect(count(`SELECT count(*) FROM ${table}`), table).toBe(
          full.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(),
        );
      }
    } finally {
      db.close();
    }
    // One body file per match with a body.
    const withBodies = full.db
      .prepare(
        'SELECT count(*) FROM (SELECT league_slug, match_id FROM match_summaries UNION SELECT league_slug, match_id FROM play_streams)',
      )
      .pluck()
      .get();
    expect(deployBlobFiles(blobsDir)).toHaveLength(withBodies as number);
  });

  const expectSame = async (method: string, url: string, headers: Record<string, string> = {}) => {
    const got = await ask(slim, blobs, method, url, headers);
    const want = renderAnswer(full, clock, method, url, headers);
    expect(got.status, `${url}: ${got.body.toString()}`).toBe(want.status);
    if (isHealth(url)) return; // uptime and the store's name are the process's own
    expect(got.headers, url).toEqual(want.headers);
    expect(got.body.equals(want.body), `${url}: ${got.body.toString().slice(0, 300)}`).toBe(true);
  };

  it('answers every contract case byte for byte as the render core over the full store', async () => {
    for (const c of ALL_CASES) await expectSame(c.method ?? 'GET', c.url, c.headers);
  });

  it('answers every summary and plays page of every match byte for byte, with fields and other page sizes', async () => {
    const matches = full.db
      .prepare('SELECT league_slug AS league, id FROM matches ORDER BY league_slug, id')
      .all() as Array<{ league: string; id: string }>;
    expect(matches.length).toBeGreaterThan(5);
    for (const { league, id } of matches) {
      const base = `/get/soccer/${league}`;
      for (const url of [
        `${base}/summary?event=${id}`,
        `${base}/summary?event=${id}&fields=keyEvents,header,meta`,
        `${base}/events/${id}?fields=boxscore`,
        `${base}/events/${id}/plays?limit=7&page=2`,
        `${base}/events/${id}/plays?important=true&limit=3`,
        `${base}/events/${id}/plays?page=500`,
      ]) {
        await expectSame('GET', url);
      }
    }
  });

  it('answers hostile requests as the render core does, never with a 500', async () => {
    for (const url of HOSTILE_URLS) {
      const res = await ask(slim, blobs, 'GET', url);
      expect(res.status, url).toBeLessThan(500);
      await expectSame('GET', url);
    }
  });

  it("reads a match's body file only when a request needs its body, and once for several requests", async () => {
    const { league, id } = full.db
      .prepare('SELECT league_slug AS league, match_id AS id FROM play_streams ORDER BY count DESC LIMIT 1')
      .get() as { league: string; id: string };
    // A copy of the slim store: a reader of its own, holding no blob yet.
    const own = path.join(tempDir('fds-slim-'), 'function.sqlite');
    fs.copyFileSync(slim, own);
    blobs.reads.length = 0;
    await ask(own, blobs, 'GET', `/get/soccer/${league}/fixtures?limit=3`);
    await ask(own, blobs, 'GET', '/get/soccer/changes?since=0');
    await ask(own, blobs, 'GET', `/get/soccer/${league}/events/nope/plays?limit=3`);
    expect(blobs.reads).toEqual([]);
    await ask(own, blobs, 'GET', `/get/soccer/${league}/events/${id}/plays?limit=3`);
    await ask(own, blobs, 'GET', `/get/soccer/${league}/summary?event=${id}&fields=meta`);
    expect(blobs.reads).toHaveLength(1);
    expect(blobs.reads[0]).toMatch(new RegExp(`^${league.replace('.', '\\.')}/${id}-[0-9a-f]{16}\\.bin$`));
  });

  it('answers requests in flight together, each with its own bodies', async () => {
    const ids = full.db
      .prepare('SELECT league_slug AS league, match_id AS id FROM match_summaries ORDER BY match_id')
      .all() as Array<{ league: string; id: string }>;
    // A copy of the slim store: a reader of its own, holding no blob yet, so every request waits for one.
    const own = path.join(tempDir('fds-slim-'), 'function.sqlite');
    fs.copyFileSync(slim, own);
    const handler = await fds();
    process.env.FDS_DB = own;
    process.env.URL = blobs.url;
    const urls = ids.flatMap(({ league, id }) => [
      `/get/soccer/${league}/summary?event=${id}&fields=keyEvents,meta`,
      `/get/soccer/${league}/events/${id}/plays?limit=4&page=2`,
    ]);
    const answers = await Promise.all(
      urls.map(async (url) => responseOf(await handler(rewrittenToFunction('GET', url)))),
    );
    urls.forEach((url, i) => {
      const want = renderAnswer(full, clock, 'GET', url);
      expect(answers[i]!.status, url).toBe(want.status);
      expect(answers[i]!.body.equals(want.body), url).toBe(true);
    });
  });

  it("answers 503 when the deploy's files lack a body or hold one of another state, never a wrong body", async () => {
    const { league, id } = full.db
      .prepare('SELECT league_slug AS league, match_id AS id FROM match_summaries LIMIT 1')
      .get() as { league: string; id: string };
    const url = `/get/soccer/${league}/summary?event=${id}&fields=header`;
    // A fresh copy of the slim store: a new reader, holding no blob yet.
    const copy = (name: string) => {
      const file = path.join(tempDir('fds-slim-'), name);
      fs.copyFileSync(slim, file);
      return file;
    };
    const empty = await deployStoreOf(null);
    try {
      const res = await ask(copy('a.sqlite'), empty, 'GET', url);
      expect(res.status).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(res.body.toString())).toHaveProperty('error');
    } finally {
      await empty.close();
    }
    // The same match's body file with another hash: the store it came from is not this one.
    const dir = tempDir('fds-stale-');
    const { key, file } = deployBlobFiles(blobsDir).find((f) => f.key.startsWith(`${league}/${id}-`))!;
    const body = decodeMatchBody(fs.readFileSync(file));
    fs.mkdirSync(path.join(dir, '_b', league), { recursive: true });
    fs.writeFileSync(
      path.join(dir, '_b', key),
      encodeMatchBody({ ...body, summary: { ...body.summary!, hash: 'stale' } }),
    );
    const stale = await deployStoreOf(dir);
    try {
      const res = await ask(copy('b.sqlite'), stale, 'GET', url);
      expect(res.status).toBe(503);
    } finally {
      await stale.close();
    }
    // A request that needs no body still answers.
    const again = await deployStoreOf(null);
    try {
      expect((await ask(copy('c.sqlite'), again, 'GET', `/get/soccer/${league}/clubs`)).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});

describe('the body files across builds', () => {
  it('are written again only for the matches a sync changed, linked otherwise, and equal a full write', async () => {
    const store = await demoStore({ leagues: ['eng.1'] });
    const dir = tempDir('fds-fn-');
    const out = path.join(dir, 'dist');
    const first = await buildInto(store, out);
    const count = first.summary.functionBlobs!.count;
    expect(first.summary.functionBlobs).toMatchObject({ written: count, linked: 0 });
    expect(count).toBeGreaterThan(10);
    // Nothing changed: nothing published.
    const same = await buildInto(store, out);
    expect(same.summary.published).toBe(false);
    // One match's summary edited, another match deleted, as a sync would log them.
    const rows = (() => {
      const db = openStore(store);
      try {
        return db
          .prepare(
            `SELECT s.match_id AS id, m.scoreboard_date AS day FROM match_summaries s
             JOIN matches m ON m.league_slug = s.league_slug AND m.id = s.match_id
             WHERE s.league_slug = 'eng.1' ORDER BY s.match_id LIMIT 2`,
          )
          .all() as Array<{ id: string; day: string }>;
      } finally {
        db.close();
      }
    })();
    const [edited, gone] = rows as [{ id: string; day: string }, { id: string; day: string }];
    editStore(
      store,
      (db) => {
        const old = db
          .prepare("SELECT sections FROM match_summaries WHERE league_slug = 'eng.1' AND match_id = ?")
          .pluck()
          .get(edited.id) as Buffer;
        const sections = JSON.parse(unpackJson(old)) as Record<string, unknown>;
        sections.news = [{ headline: 'edited' }];
        const json = JSON.stringify(sections);
        db.prepare(
          "UPDATE match_summaries SET sections = ?, section_spans = ?, hash = 'edited' WHERE league_slug = 'eng.1' AND match_id = ?",
        ).run(packJson(json), packSpans(Buffer.from(json)), edited.id);
      },
      [['summary', 'eng.1', edited.id]],
    );
    deleteMatch(store, 'eng.1', gone.id, gone.day);
    const next = await buildInto(store, out);
    // Every unchanged body kept (the tree the build started from shares it with the published
    // release) or linked from it; only the edited one written.
    expect(next.summary.functionBlobs).toMatchObject({ written: 1, count: count - 1 });
    const release = next.summary.release;
    const unchanged = deployBlobFiles(release).filter(({ key }) => !key.startsWith(`eng.1/${edited.id}-`));
    for (const { file } of unchanged) {
      const before = path.join(first.summary.release, path.relative(release, file));
      expect(fs.statSync(file).ino, file).toBe(fs.statSync(before).ino);
    }
    const layout = functionLayout(out);
    const reader = StoreReader.open(store);
    const fresh = tempDir('fds-fresh-');
    try {
      expect(placeBodies(reader, fresh, null)).toMatchObject({ written: count - 1, linked: 0 });
    } finally {
      reader.close();
    }
    const contents = (d: string) =>
      Object.fromEntries(deployBlobFiles(d).map(({ key, file }) => [key, fs.readFileSync(file).toString('base64')]));
    expect(contents(release)).toEqual(contents(fresh));
    // The next build starts from an older tree: it is brought to the store's names.
    editStore(
      store,
      (db) => {
        db.prepare("UPDATE match_summaries SET hash = 'edited again' WHERE league_slug = 'eng.1' AND match_id = ?").run(
          edited.id,
        );
      },
      [['summary', 'eng.1', edited.id]],
    );
    const third = await buildInto(store, out);
    const again = StoreReader.open(store);
    const fresher = tempDir('fds-fresh-');
    try {
      placeBodies(again, fresher, null);
    } finally {
      again.close();
    }
    expect(contents(third.summary.release)).toEqual(contents(fresher));
    // And the function answers the edited summary from its new body file.
    const blobs = await deployStoreOf(third.summary.release);
    try {
      const url = `/get/soccer/eng.1/summary?event=${edited.id}&fields=news`;
      const got = await ask(layout.store, blobs, 'GET', url);
      expect(JSON.parse(got.body.toString())).toEqual({ news: [{ headline: 'edited' }] });
    } finally {
      await blobs.close();
    }
  });
});

/** The contract suite against the function over the slim store and blobs a build of the suite's store packs. */
function slimFunctionTarget(): TargetFactory {
  return async (file) => {
    let slim = '/nonexistent/missing.sqlite';
    let blobs: Blobs;
    if (file) {
      const { layout, summary } = await packed(file);
      // Health names the store by its file: the suite expects the name of the store it gave.
      slim = path.join(tempDir('fds-slim-'), path.basename(file));
      fs.copyFileSync(layout.store, slim);
      blobs = await deployStoreOf(summary.release);
    } else blobs = await deployStoreOf(null);
    return {
      name: 'netlify function (slim store)',
      request: (method, url, headers = {}) => ask(slim, blobs, method, url, headers),
      close: () => blobs.close(),
    };
  };
}

describe("API contract: the Netlify Function over its slim store and the deploy's body files", () => {
  contractSuite(slimFunctionTarget());
});
