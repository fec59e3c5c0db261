/**
 * The fallback as a Netlify Function (docs/deploying.md): the render core over the store deployed
 * with the function, answering every request the generated rules send to `/.netlify/functions/fds`
 * with the bytes a pre-rendered file would hold. `netlify/functions/fds.mjs` re-exports it from the
 * compiled tree, which is what Netlify's bundler packs.
 *
 * It declares no `config.path` on purpose: a function with a path runs before the redirect rules and
 * would take requests the files should answer.
 */
import { render } from '../app/render.js';
import { StoreSource } from '../server/store-source.js';
import { netlifyCanonicalQuery } from './query.js';

/** Where the store is, relative to the function's working directory (netlify.toml `included_files`). */
export const FUNCTION_STORE = 'data/football.sqlite';

// Uptime by the monotonic clock: the wall clock may jump.
const startedAt = performance.now();
const stores = new Map<string, StoreSource>();

/** The store FDS_DB names (read on each request), opened once, as the server opens its own. */
function storeSource(): StoreSource {
  const file = process.env.FDS_DB ?? FUNCTION_STORE;
  let source = stores.get(file);
  if (!source) {
    for (const other of stores.values()) other.close();
    stores.clear();
    source = new StoreSource(file);
    stores.set(file, source);
  }
  return source;
}

/**
 * The request as the client sent it. A rewrite keeps the client's URL; `netlify dev` also passes it
 * in x-netlify-original-pathname/-search, which win when present. The path stays percent-encoded,
 * and the query is read exactly as the rules that sent the request here read it (netlify/query.ts).
 */
export function clientTarget(request: Request): { path: string; rawQuery: string } {
  const raw = request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
  const q = raw.indexOf('?');
  const path = request.headers.get('x-netlify-original-pathname') ?? (q === -1 ? raw : raw.slice(0, q));
  const search = request.headers.get('x-netlify-original-search') ?? (q === -1 ? '' : raw.slice(q));
  return { path, rawQuery: netlifyCanonicalQuery(search.replace(/^\?/, '')) };
}

export default async function handler(request: Request): Promise<Response> {
  const { path, rawQuery } = clientTarget(request);
  const headers = Object.fromEntries(request.headers);
  const source = storeSource();
  const res = render(
    { method: request.method, path, rawQuery, headers },
    {
      store: source.get(),
      clock: () => new Date(),
      uptime: () => (performance.now() - startedAt) / 1000,
      storeName: source.name,
      storeProblem: source.problem ?? 'disconnected',
    },
  );
  // Opened again on the next request: the store may be back (or replaced).
  if (res.status === 503) source.reset();
  // Content-Length is the platform's: a Response states the length of what it sends.
  return new Response(res.sendBody ? res.body : null, { status: res.status, headers: res.headers });
}
