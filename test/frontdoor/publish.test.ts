/**
 * The front door published: `fds build` writes `index.html` and the assets into the release,
 * Netlify's own rule engine leaves `/` and the assets to those files (no catch-all takes them), and
 * `fds serve` answers `/` with the same bytes and the assets through serve-handler.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetServer } from '../../src/frontdoor/serve-assets.js';
import { assetSources } from '../../src/frontdoor/assets.js';
import { ASSET_FILES } from '../../src/frontdoor/paths.js';
import { NetlifyCdn, webRequest } from '../helpers/netlify-cdn.js';
import { loadMatcher } from '../../src/netlify/matcher.js';
import type { NetlifyMatcher } from '../../src/netlify/matcher.js';
import { currentRelease } from '../../src/release/layout.js';
import { StaticBuild } from '../../src/server/static-lookup.js';
import { createApiServer } from '../../src/server/http.js';
import type { ApiServer } from '../../src/server/http.js';
import { rawRequest } from '../api/helpers/targets.js';
import { buildApiStore, clock } from '../api/helpers/api-store.js';
import { tempDir } from '../helpers/store.js';
import { buildInto } from '../publish/helpers.js';

let storeFile: string;
let out: string;
let release: string;
let matcher: NetlifyMatcher;
const servers: ApiServer[] = [];
/** Where each answer came from (`static`, `dynamic`, `asset`), from the servers' request logs. */
const sources = new Map<string, string>();

async function serve(dir: string | null): Promise<number> {
  const api = createApiServer({
    storeFile,
    clock,
    rateLimit: null,
    log: (line) => {
      const { url, source } = JSON.parse(line) as { url: string; source: string };
      sources.set(`${dir ? 'build' : 'none'} ${url}`, source);
    },
    ...(dir ? { staticLookup: new StaticBuild(dir), assets: new AssetServer(dir) } : {}),
  });
  servers.push(api);
  return ((await api.listen(0, '127.0.0.1')) as AddressInfo).port;
}

beforeAll(async () => {
  storeFile = await buildApiStore();
  ({ out } = await buildInto(storeFile));
  release = currentRelease(out)!;
  matcher = await loadMatcher(path.join(release, '_redirects'));
});
afterAll(async () => {
  for (const api of servers) await api.close();
});

describe('the published front door', () => {
  it('is index.html in the release, the same bytes fds serve answers for / with and without a build', async () => {
    const file = fs.readFileSync(path.join(out, 'index.html'));
    expect(file.toString('utf8', 0, 15)).toBe('<!doctype html>');
    const fromBuild = await rawRequest(await serve(out), 'GET', '/', { 'accept-encoding': 'identity' });
    const rendered = await rawRequest(await serve(null), 'GET', '/', { 'accept-encoding': 'identity' });
    for (const res of [fromBuild, rendered]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body.equals(file)).toBe(true);
    }
    expect(fromBuild.headers.etag).toBe(rendered.headers.etag);
    expect(sources.get('build /')).toBe('static');
    expect(sources.get('none /')).toBe('dynamic');
  });

  it('leaves / to index.html under Netlify’s matcher, whatever the query, and ahead of the catch-all', () => {
    for (const [p, q] of [
      ['/', ''],
      ['/', 'utm_source=newsletter&x'],
      ['//', ''],
    ] as const) {
      expect(matcher.resolve(p, q), `${p}?${q}`).toEqual({ kind: 'file', file: 'index.html', status: 200 });
    }
    const rules = fs.readFileSync(path.join(release, '_redirects'), 'utf8').split('\n');
    expect(rules.indexOf('/ /index.html 200!')).toBeLessThan(rules.findIndex((r) => r.startsWith('/* ')));
  });

  it('serves / from the CDN with the headers the render core gives it', async () => {
    const cdn = await NetlifyCdn.open(release);
    const viaCdn = await cdn.serve(webRequest('GET', '/')!);
    const rendered = await rawRequest(await serve(null), 'GET', '/', { 'accept-encoding': 'identity' });
    expect(viaCdn.kind).toBe('file');
    if (viaCdn.kind !== 'file') return;
    expect(viaCdn.response.body.equals(rendered.body)).toBe(true);
    for (const h of ['ETag', 'Cache-Control', 'Content-Type', 'Access-Control-Allow-Origin'])
      expect(viaCdn.response.headers[h], h).toBe(rendered.headers[h.toLowerCase()]);
    const revalidated = await cdn.serve(webRequest('GET', '/', '', { 'If-None-Match': rendered.headers.etag! })!);
    expect(revalidated.kind === 'file' && revalidated.response.status).toBe(304);
  });

  it('reaches every asset through its own rule, and sends anything else under /_fd/ to the fallback', () => {
    for (const { name } of ASSET_FILES) {
      expect(matcher.resolve(`/_fd/${name}`, ''), name).toEqual({ kind: 'file', file: `_fd/${name}`, status: 200 });
      expect(fs.readFileSync(path.join(release, '_fd', name)).equals(fs.readFileSync(assetSources().get(name)!))).toBe(
        true,
      );
    }
    for (const p of ['/_fd/', '/_fd', '/_fd/nothing.js', '/_fd/../manifest.ndjson', '/index.html', '/_FD/frontdoor.js'])
      expect(matcher.resolve(p, '').kind, p).toBe('fallback');
  });

  it('keeps the API paths the fallback’s or their files’, as before', () => {
    expect(matcher.resolve('/get/soccer/leagues', 'kind=club&available=false')).toMatchObject({ kind: 'file' });
    expect(matcher.resolve('/get/soccer/eng.1/scoreboard', '')).toMatchObject({ kind: 'fallback' });
    expect(matcher.resolve('/health', '')).toMatchObject({ kind: 'fallback' });
  });

  it('publishes nothing when rebuilt from the same store, assets included', async () => {
    const again = await buildInto(storeFile, out);
    expect(again.summary.published).toBe(false);
  });

  it('publishes a new release when only an asset changed, as after a renderer upgrade', async () => {
    const dir = tempDir('fds-fd-upgrade-');
    const first = await buildInto(storeFile, path.join(dir, 'dist'));
    // The published copy stands in for the previous renderer version: it differs from the installed file.
    const old = path.join(currentRelease(first.out)!, '_fd', 'swagger-ui.css');
    fs.rmSync(old);
    fs.writeFileSync(old, '/* the previous version */');
    // …and the published build says it was made with those assets.
    const info = path.join(currentRelease(first.out)!, 'build.json');
    const recorded = JSON.parse(fs.readFileSync(info, 'utf8'));
    fs.rmSync(info);
    fs.writeFileSync(info, JSON.stringify({ ...recorded, settings: { ...recorded.settings, assets: 'previous' } }));
    const again = await buildInto(storeFile, first.out);
    expect(again.summary.published).toBe(true);
    const now = path.join(currentRelease(first.out)!, '_fd', 'swagger-ui.css');
    expect(fs.readFileSync(now).equals(fs.readFileSync(assetSources().get('swagger-ui.css')!))).toBe(true);
  });
});

describe('front-door assets in fds serve', () => {
  let port: number;
  beforeAll(async () => {
    port = await serve(out);
  });

  it('are served with their types, the asset cache lifetime, and a validator that answers 304', async () => {
    const types: Record<string, string> = {
      'frontdoor.js': 'text/javascript; charset=utf-8',
      'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      'swagger-ui.css': 'text/css; charset=utf-8',
      'swagger-ui-LICENSE.txt': 'text/plain; charset=utf-8',
    };
    for (const [name, type] of Object.entries(types)) {
      const res = await rawRequest(port, 'GET', `/_fd/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type'], name).toBe(type);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body.equals(fs.readFileSync(path.join(release, '_fd', name)))).toBe(true);
      const again = await rawRequest(port, 'GET', `/_fd/${name}`, { 'if-none-match': res.headers.etag! });
      expect(again.status, name).toBe(304);
    }
    const head = await rawRequest(port, 'HEAD', '/_fd/frontdoor.js');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('list no directory and serve no other file: those are the API’s 404', async () => {
    for (const p of ['/_fd/', '/_fd', '/_fd/nothing.js', '/_fd/..%2Fmanifest.ndjson', '/_fd/%2e%2e/_redirects']) {
      const res = await rawRequest(port, 'GET', p);
      expect(res.status, p).toBe(404);
      expect(JSON.parse(res.body.toString()), p).toEqual({ error: 'Route not found' });
    }
  });

  it('come from the published release when there is one, else from the installed files', async () => {
    const dir = tempDir('fds-fd-assets-');
    const copy = await buildInto(storeFile, path.join(dir, 'dist'));
    const file = path.join(currentRelease(copy.out)!, '_fd', 'frontdoor.js');
    fs.writeFileSync(file, '/* this release */');
    expect((await rawRequest(await serve(copy.out), 'GET', '/_fd/frontdoor.js')).body.toString()).toBe(
      '/* this release */',
    );
    const installed = await rawRequest(await serve(null), 'GET', '/_fd/frontdoor.js');
    expect(installed.body.equals(fs.readFileSync(assetSources().get('frontdoor.js')!))).toBe(true);
  });
});
