/**
 * The static-first server: it answers pre-rendered requests (in any spelling that means the same
 * request) from the published files with exactly the dynamic answer, and follows a newly published
 * build without a restart — never mixing two builds in one response.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer } from '../../src/server/http.js';
import type { ApiServer } from '../../src/server/http.js';
import { StaticBuild } from '../../src/server/static-lookup.js';
import { readManifestSync } from '../../src/release/manifest.js';
import { currentRelease } from '../../src/release/layout.js';
import { etagOf } from '../../src/api/etag.js';
import { rawRequest } from '../api/helpers/targets.js';
import type { TargetResponse } from '../api/helpers/targets.js';
import { buildInto, demoStore } from './helpers.js';
import { editStore } from '../helpers/store.js';

const NOW = new Date('2026-03-21T12:00:00Z');
let db: string;
let out: string;
let staticServer: { api: ApiServer; port: number; sources: string[] };
let dynamicServer: { api: ApiServer; port: number; sources: string[] };

async function start(withBuild: boolean) {
  const sources: string[] = [];
  const api = createApiServer({
    storeFile: db,
    clock: () => NOW,
    rateLimit: null,
    log: (line) => sources.push((JSON.parse(line) as { source: string }).source),
    staticLookup: withBuild ? new StaticBuild(out) : undefined,
  });
  const { port } = (await api.listen(0, '127.0.0.1')) as AddressInfo;
  return { api, port, sources };
}

beforeAll(async () => {
  db = await demoStore();
  ({ out } = await buildInto(db));
  staticServer = await start(true);
  dynamicServer = await start(false);
});
afterAll(async () => {
  await staticServer?.api.close();
  await dynamicServer?.api.close();
});

const get = (s: { port: number }, url: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(s.port, method, url, headers);
/** Status, every header but the connection's own (Date, Keep-Alive), and the bytes. */
const sameAnswer = (a: TargetResponse, b: TargetResponse, label: string) => {
  const own = (h: Record<string, string>) => ({ ...h, date: '', 'keep-alive': '', connection: '' });
  expect(a.status, label).toBe(b.status);
  expect(own(a.headers), label).toEqual(own(b.headers));
  expect(a.body.equals(b.body), `${label}: body`).toBe(true);
};

describe('static-first server', () => {
  it('serves every pre-rendered request from its file with the dynamic status, headers and bytes', async () => {
    const urls = readManifestSync(path.join(currentRelease(out)!, 'manifest.ndjson')).flatMap((e) => [
      e.request,
      ...e.aliases,
    ]);
    const sampled = urls.filter((_, i) => i % 3 === 0);
    expect(sampled.length).toBeGreaterThan(100);
    staticServer.sources.length = 0;
    for (const url of sampled) {
      const [a, b] = [await get(staticServer, url), await get(dynamicServer, url)];
      sameAnswer(a, b, url);
    }
    expect(staticServer.sources).toEqual(sampled.map(() => 'static'));
  });

  it('answers /summary?event=ID from the /events/ID file it is an alias of', async () => {
    const entry = readManifestSync(path.join(currentRelease(out)!, 'manifest.ndjson')).find((e) =>
      /\/events\/[^/]+$/.test(e.request),
    );
    expect(entry?.aliases).toEqual([expect.stringMatching(/\/summary\?event=/)]);
    staticServer.sources.length = 0;
    sameAnswer(
      await get(staticServer, entry!.aliases[0]!),
      await get(dynamicServer, entry!.request),
      entry!.aliases[0]!,
    );
    expect(staticServer.sources).toEqual(['static']);
  });

  it(
    'answers other spellings of a pre-rendered request, HEAD and ' +
      'conditional GETs from files too, exactly as dynamically',
    async () => {
      const league = 'eng.1';
      const urls = [
        `/get/soccer/${league}/fixtures`,
        `/get/soccer/${league}/fixtures?status=ALL&page=1&utm=x`,
        `/get/soccer/ENG.1/clubs/`,
        '/get/soccer/leagues?available=false',
      ];
      staticServer.sources.length = 0;
      for (const url of urls) {
        const plain = await get(dynamicServer, url);
        for (const [headers, method] of [
          [{}, 'GET'],
          [{}, 'HEAD'],
          [{ 'if-none-match': plain.headers.etag! }, 'GET'],
          [{ 'if-none-match': `W/${plain.headers.etag}, "x"` }, 'GET'],
          [{ 'accept-encoding': 'gzip' }, 'GET'],
        ] as const) {
          const [a, b] = [
            await get(staticServer, url, headers, method),
            await get(dynamicServer, url, headers, method),
          ];
          sameAnswer(a, b, `${method} ${url} ${JSON.stringify(headers)}`);
        }
      }
      expect(staticServer.sources.filter((s) => s === 'static').length).toBe(urls.length * 5);
    },
  );

  it('picks up a newly published build without a restart and never mixes two builds in one response', async () => {
    const conn = new Database(db, { readonly: true });
    const { league, id, date } = conn
      .prepare('SELECT league_slug AS league, id, scoreboard_date AS date FROM matches ORDER BY kickoff, id LIMIT 1')
      .get() as Record<string, string>;
    conn.close();
    const url = `/get/soccer/${league}/scoreboard?dates=${date}`;
    const first = await get(staticServer, url);

    // Publish builds in a loop while requests keep coming: every answer must be one build's file,
    // its ETag the hash of the very bytes it came with.
    let stop = false;
    const answers: TargetResponse[] = [];
    const hammer = (async () => {
      while (!stop) answers.push(await get(staticServer, url));
    })();
    for (let i = 0; i < 4; i++) {
      editStore(
        db,
        (w) =>
          w
            .prepare(
              `UPDATE matches SET record = packed_record(json_set(record_text(record), '$.name', ?)), hash = ?
               WHERE league_slug = ? AND id = ?`,
            )
            .run(`Build ${i}`, `h${i}`, league, id),
        [
          ['match', league!, id!],
          ['day', league!, date!],
        ],
      );
      await buildInto(db, out);
    }
    stop = true;
    await hammer;
    for (const a of answers) expect(a.headers.etag).toBe(etagOf(a.body));
    expect(new Set(answers.map((a) => a.headers.etag)).size, 'answers spanning several builds').toBeGreaterThan(1);

    staticServer.sources.length = 0;
    const last = await get(staticServer, url);
    expect(staticServer.sources).toEqual(['static']);
    expect(last.headers.etag).not.toBe(first.headers.etag);
    expect(last.body.toString()).toContain('Build 3');
    sameAnswer(last, await get(dynamicServer, url), url);
  });
});
