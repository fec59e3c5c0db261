/**
 * The front door's assets in `fds serve`, served by serve-handler: it streams files with the right
 * Content-Type, Content-Length, ranges and a content-hash ETag with 304s. It is given no say over
 * which files exist: only the exact asset paths reach it (anything else under `/_fd/` is the render
 * core's 404), directory listing and clean URLs are off, and it sees a fixed virtual root that maps
 * each asset name to one real file — the published release's copy when there is a build, else the
 * installed file. That root never changes, so serve-handler's ETag memo (keyed on path and mtime)
 * holds one entry per asset however many releases come and go, and every request resolves the
 * release once, so one response never mixes two builds.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import handler from 'serve-handler';
import type { Config, Methods } from 'serve-handler';
import { CORS, JSON_TYPE } from '../api/headers.js';
import { assetSources } from './assets.js';
import { ASSET_DIR, ASSET_HEADERS } from './paths.js';

const PREFIX = `/${ASSET_DIR}/`;
const VIRTUAL_ROOT = path.resolve('/fds-front-door');
const VIRTUAL_DIR = path.join(VIRTUAL_ROOT, ASSET_DIR);

const header = (key: string, value: string) => ({ key, value });

const CONFIG: Config = {
  public: VIRTUAL_ROOT,
  cleanUrls: false,
  directoryListing: false,
  symlinks: false,
  etag: true,
  headers: [
    { source: '**', headers: Object.entries(ASSET_HEADERS).map(([k, v]) => header(k, v)) },
    // mime-types still says application/javascript; RFC 9239 made text/javascript the one to send.
    { source: '**/*.js', headers: [header('Content-Type', 'text/javascript; charset=utf-8')] },
  ],
};

function notFound(p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`no asset at ${p}`), { code: 'ENOENT' });
}

function realpathOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

export class AssetServer {
  /** `dir`: the published build to serve the copies of (null: serve the installed files). */
  constructor(readonly dir: string | null) {}

  /** Whether the raw request path is exactly one asset's path (no other spelling is an asset). */
  handles(rawPath: string): boolean {
    return rawPath.startsWith(PREFIX) && assetSources().has(rawPath.slice(PREFIX.length));
  }

  /** Where this request's files are: the published release's copies, else the installed files. */
  private fileResolver(): (name: string) => string {
    const release = this.dir === null ? null : realpathOrNull(this.dir);
    const copies = release && path.join(release, ASSET_DIR);
    if (copies && fs.existsSync(copies)) return (name) => path.join(copies, name);
    const sources = assetSources();
    return (name) => sources.get(name)!;
  }

  /** Answer a GET or HEAD for a path `handles` accepted. */
  serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const fileOf = this.fileResolver();
    const real = (p: string): string => {
      const name = path.relative(VIRTUAL_DIR, p);
      if (!assetSources().has(name)) throw notFound(p);
      return fileOf(name);
    };
    const methods: Methods = {
      lstat: async (p) => fs.promises.lstat(real(p)),
      createReadStream: (p, options) => fs.createReadStream(real(p), options),
      // A listed asset missing from the release (pruned meanwhile) is the API's 404, in the API's shape.
      sendError: (_p, response, _json, _current, _handlers, _config, spec) => {
        const body = JSON.stringify({ error: spec.statusCode === 404 ? 'Route not found' : spec.message });
        response.writeHead(spec.statusCode, {
          'Content-Type': JSON_TYPE,
          'Cache-Control': 'no-store',
          ...CORS,
          'Content-Length': String(Buffer.byteLength(body)),
        });
        response.end(body);
      },
    };
    return handler(req, res, CONFIG, methods);
  }
}
