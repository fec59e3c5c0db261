/**
 * The fallback as a Netlify Function: the render core of `fds serve`, over the store deployed with
 * the function (netlify.toml `included_files`), answering every request the generated rules in
 * dist/_redirects send to `/.netlify/functions/fds` — the same bytes a pre-rendered file would hold.
 *
 * It deliberately declares no `config.path`: a function with a path runs before the redirect
 * rules and would take requests the files should answer (research/cdn-serving.md §1.5).
 * It imports the compiled tree (`npm run build:ts`, run by `npm ci` through `prepare`).
 */
import { render } from '../../build/app/render.js';
import { StoreReader } from '../../build/store/read/reader.js';
import { netlifyCanonicalQuery } from '../../build/api/netlify-query.js';

// Uptime by the monotonic clock: the wall clock may jump.
const startedAt = performance.now();
/** The open store and the path it was opened from: FDS_DB is read on each request, the store opened once. */
let store = null;
let storePath = null;

function storeFile() {
  return process.env.FDS_DB ?? 'data/football.sqlite';
}

function openStore(file) {
  if (store && storePath === file) return store;
  store?.close();
  storePath = file;
  try {
    store = StoreReader.open(file);
  } catch {
    store = null;
  }
  return store;
}

/**
 * The request as the client sent it. A rewrite keeps the client's URL; `netlify dev` also passes it
 * in x-netlify-original-pathname/-search, which win when present. The path stays percent-encoded.
 */
function target(request) {
  const raw = request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
  const q = raw.indexOf('?');
  const path = request.headers.get('x-netlify-original-pathname') ?? (q === -1 ? raw : raw.slice(0, q));
  const search = request.headers.get('x-netlify-original-search') ?? (q === -1 ? '' : raw.slice(q));
  // Read the query exactly as the rules that sent the request here read it (src/api/netlify-query.ts).
  return { path, rawQuery: netlifyCanonicalQuery(search.replace(/^\?/, '')) };
}

export default async (request) => {
  const { path, rawQuery } = target(request);
  const headers = Object.fromEntries(request.headers);
  const file = storeFile();
  const res = render(
    { method: request.method, path, rawQuery, headers },
    {
      store: openStore(file),
      clock: () => new Date(),
      uptime: () => (performance.now() - startedAt) / 1000,
      storeName: file.split('/').pop(),
    },
  );
  if (res.status === 503) {
    // Reopen on the next request: the store may be back (or replaced).
    store?.close();
    store = null;
  }
  // Content-Length is the platform's: a Response states the length of what it sends.
  return new Response(res.sendBody ? res.body : null, { status: res.status, headers: res.headers });
};
