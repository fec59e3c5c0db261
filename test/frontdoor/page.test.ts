/**
 * The front door (`GET /`) as the render core answers it: an HTML page built from the store and
 * the route table that a person can start from, that says how fresh the data is, loads nothing
 * from another origin, and behaves like every other response (ETag, 304, HEAD, caching).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../src/app/render.js';
import type { ApiResponse } from '../../src/app/render.js';
import { ROUTES, ROUTES_BY_NAME } from '../../src/app/routes.js';
import { openApiDocument } from '../../src/api/routes.js';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { FilesProvider } from '../../src/sync/providers/files.js';
import { runSync } from '../../src/sync/run-sync.js';
import { LEAGUES, LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import { SNAPSHOT_AT, buildApiStore, buildEmptyStore, clock } from '../api/helpers/api-store.js';
import { copyRecorded, tempDir } from '../helpers/store.js';

const readers: StoreReader[] = [];
afterAll(() => {
  for (const r of readers) r.close();
});

function open(file: string): StoreReader {
  const reader = StoreReader.open(file);
  readers.push(reader);
  return reader;
}

function frontDoor(store: StoreReader | null, headers: Record<string, string> = {}, method = 'GET'): ApiResponse {
  return render({ method, path: '/', rawQuery: '', headers }, { store, clock });
}

const html = (store: StoreReader) => frontDoor(store).body.toString('utf8');

/** Every href and src attribute value of a page. */
const references = (page: string) => [...page.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);

let synced: string;
let store: StoreReader;
beforeAll(async () => {
  synced = await buildApiStore();
  store = open(synced);
});

describe('the front door page', () => {
  it('lists all 16 leagues, each linking to its scoreboard of today, fixtures, clubs and standings', () => {
    const page = html(store);
    for (const league of LEAGUES) {
      expect(page).toContain(league.name);
      for (const name of ['scoreboard', 'fixtures', 'clubs', 'standings']) {
        const href = ROUTES_BY_NAME.get(name)!.path.replace(':league', league.slug);
        expect(page, `${league.slug} ${name}`).toContain(`href="${href}"`);
      }
    }
    expect(page).toContain('<h2 id="leagues-title">16 leagues</h2>');
  });

  it('shows each league’s coverage: matches, clubs and standings tables, or that it has no data yet', () => {
    const page = html(store);
    const row = (slug: string) => page.split('<tr>').find((r) => r.includes(`<span class="slug">${slug}</span>`))!;
    const c = store.coverage('eng.1');
    expect(row('eng.1')).toContain(
      `<td class="num">${c.matches}</td><td class="num">${c.clubs}</td><td class="num">${c.standingsGroups}</td>`,
    );
    expect(row('ger.1')).toContain('no data yet');
  });

  it('states the snapshot time and the last successful sync', () => {
    const page = html(store);
    const meta = store.meta();
    expect(meta.snapshotAt).toBe(SNAPSHOT_AT);
    expect(page).toContain(`<time datetime="${SNAPSHOT_AT}" data-age>2026-03-22 16:00 UTC</time>`);
    expect(page).toContain(`<time id="last-success" datetime="${meta.lastSuccessfulSyncAt}" data-age>`);
    // Nothing of the last sync run itself: it moves with syncs that change no data.
    expect(page).not.toContain('Last sync started');
    expect(page).not.toContain('<strong>Warning:</strong>');
  });

  it('suggests three requests, each answered with data by this store', () => {
    const page = html(store);
    const hrefs = [...page.matchAll(/<li><a href="([^"]+)"><code>GET /g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    expect(hrefs).toHaveLength(3);
    for (const url of hrefs) {
      const [p, q = ''] = url.split('?');
      const res = render({ method: 'GET', path: p!, rawQuery: q, headers: {} }, { store, clock });
      expect(res.status, url).toBe(200);
    }
    expect(hrefs[1]).toMatch(/\/scoreboard\?dates=\d{8}$/);
  });

  it('stays byte for byte as it was after syncs that change no data, failing or not (docs/json-api.md)', async () => {
    const file = path.join(tempDir('fds-fd-same-'), 'api.sqlite');
    fs.copyFileSync(synced, file);
    const before = html(open(file));
    const broken = copyRecorded();
    fs.writeFileSync(path.join(broken, 'eng.1/standings/2025.json'), '{"children": [');
    for (const [dir, at] of [
      [copyRecorded(), '2026-03-23T09:00:00Z'],
      [broken, '2026-03-23T10:00:00Z'],
    ] as const) {
      const db = openStore(file);
      const report = await runSync(db, new FilesProvider(dir), {
        leagues: LEAGUE_SLUGS,
        concurrency: 2,
        clock: () => new Date(at),
      });
      db.close();
      expect(report.written).toBe(0);
      // The build publishes nothing after such a sync: the page a dynamic render gives must be the published one.
      expect(html(open(file))).toBe(before);
    }
  });

  it('warns, in the page itself, when the data comes from a sync with failures', () => {
    const file = path.join(tempDir('fds-fd-failed-'), 'api.sqlite');
    fs.copyFileSync(synced, file);
    // A sync that wrote data but failed for some units: the snapshot moves, the last clean sync does not.
    const db = new Database(file);
    db.prepare("UPDATE store_meta SET value = '2026-03-23T09:05:00Z' WHERE key = 'snapshot_at'").run();
    db.close();
    const page = html(open(file));
    expect(page).toMatch(
      /<strong>Warning:<\/strong> The data as of <time datetime="2026-03-23T09:05:00Z"[^>]*>[^<]*<\/time> came from a sync that failed for some of its units/,
    );
    expect(page).toContain('The last sync without failures was at <time datetime="2026-03-22T16:00:00Z"');
  });

  it('says so when no sync has run yet', () => {
    const page = html(open(buildEmptyStore()));
    expect(page).toContain('<strong>Warning:</strong> No sync has brought data yet');
    for (const league of LEAGUES) expect(page).toContain(league.name);
  });

  it('escapes what the provider wrote, such as league names', () => {
    const file = path.join(tempDir('fds-fd-esc-'), 'api.sqlite');
    fs.copyFileSync(synced, file);
    const db = new Database(file);
    db.prepare("UPDATE leagues SET name = ? WHERE slug = 'eng.1'").run('<img src=x onerror=alert(1)> & "Co"');
    db.close();
    const page = html(open(file));
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
  });

  it('references only its own origin: no remote scripts, styles, fonts or images, not even league logos', () => {
    const file = path.join(tempDir('fds-fd-logo-'), 'api.sqlite');
    fs.copyFileSync(synced, file);
    const db = new Database(file);
    db.prepare('UPDATE leagues SET logo = ?').run('https://a.espncdn.com/i/leaguelogos/soccer/500/23.png');
    db.close();
    const page = html(open(file));
    const refs = references(page);
    expect(refs.length).toBeGreaterThan(60);
    for (const ref of refs) expect(ref, ref).toMatch(/^(\/(?!\/)|#|data:)/);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).not.toContain('espncdn');
    expect(refs).toEqual(
      expect.arrayContaining([
        '/_fd/swagger-ui-bundle.js',
        '/_fd/swagger-ui.css',
        '/_fd/frontdoor.js',
        '/openapi.json',
      ]),
    );
  });

  it('lists every endpoint of the route table for readers without JavaScript', () => {
    const noscript = html(store).split('<noscript>')[1]!.split('</noscript>')[0]!;
    for (const route of ROUTES) expect(noscript).toContain(`<code>GET ${route.path.replace(/:(\w+)/g, '{$1}')}</code>`);
  });

  it('is the same bytes for the same store, whatever the time it is rendered', () => {
    const a = render({ method: 'GET', path: '/', rawQuery: '', headers: {} }, { store, clock });
    const b = render(
      { method: 'GET', path: '/', rawQuery: '', headers: {} },
      { store, clock: () => new Date('2030-01-01T00:00:00Z') },
    );
    expect(b.body.equals(a.body)).toBe(true);
  });
});

describe('GET / through the render core', () => {
  it('is HTML with a strong ETag, cached like the other catalogue responses, with CORS', () => {
    const res = frontDoor(store);
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(res.headers['Cache-Control']).toBe('public, max-age=60');
    expect(res.headers['Access-Control-Allow-Origin']).toBe('*');
    expect(res.headers.ETag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Content-Length is the transport's: the render core leaves it to whoever sends the bytes.
    expect(res.headers['Content-Length']).toBeUndefined();
    expect(res.body.toString('utf8', 0, 15)).toBe('<!doctype html>');
  });

  it('answers If-None-Match with 304 and HEAD with the same headers and no body', () => {
    const full = frontDoor(store);
    const notModified = frontDoor(store, { 'if-none-match': `W/${full.headers.ETag}` });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    const head = frontDoor(store, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.sendBody).toBe(false);
    expect(head.body.equals(full.body)).toBe(true);
    expect(head.headers).toEqual(full.headers);
  });

  it('ignores query parameters and one trailing slash, as for every route', () => {
    const plain = frontDoor(store).body;
    const withQuery = render({ method: 'GET', path: '/', rawQuery: 'utm_source=x', headers: {} }, { store, clock });
    const slashed = render({ method: 'GET', path: '//', rawQuery: '', headers: {} }, { store, clock });
    expect(withQuery.body.equals(plain)).toBe(true);
    expect(slashed.body.equals(plain)).toBe(true);
  });

  it('answers 503 as JSON when the store cannot be read, like every data route', () => {
    const res = frontDoor(null);
    expect(res.status).toBe(503);
    expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body.toString())).toEqual({ error: 'Football data store unavailable' });
  });

  it('is documented in the OpenAPI description as text/html', () => {
    const doc = openApiDocument(ROUTES_BY_NAME) as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    expect(Object.keys(doc.paths['/']!.get.responses['200']!.content!)).toEqual(['text/html']);
    expect(Object.keys(doc.paths['/openapi.json']!.get.responses['200']!.content!)).toEqual(['application/json']);
  });
});
