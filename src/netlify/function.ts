/**
 * The fallback as a Netlify Function (docs/deploying.md): the render core over the store deployed
 * with the function, answering every request the generated rules send to `/.netlify/functions/fds`
 * with the bytes a pre-rendered file would hold. `netlify/functions/fds.mjs` re-exports it from the
 * compiled tree, which is what Netlify's bundler packs.
 *
 * The store it ships is the slim one `fds build` writes (function-package.ts): every row the render
 * core reads, without the per-match bodies (summaries, play streams), which it reads from the
 * deploy's Netlify Blobs store when a request needs one (deploy-bodies.ts) — so the archive stays
 * within Netlify's limits however many seasons the store holds. Given a full store (FDS_DB), it
 * reads the bodies from the store itself.
 *
 * It declares no `config.path` on purpose: a function with a path runs before the redirect rules and
 * would take requests the files should answer.
 */
import { render } from '../app/render.js';
import type { ApiRequest, ApiResponse, Deps } from '../app/render.js';
import type { StoreReader } from '../store/read/reader.js';
import { StoreSource } from '../server/store-source.js';
import type { BlobSource } from './deploy-bodies.js';
import { BodyUnavailable, DeployBodies } from './deploy-bodies.js';
import { FUNCTION_STORE } from './function-store.js';
import { netlifyCanonicalQuery } from './query.js';

// Uptime by the monotonic clock: the wall clock may jump.
const startedAt = performance.now();
let source: StoreSource | null = null;

let bodies: { reader: StoreReader; bodies: DeployBodies | null } | null = null;

/**
 * The deploy's Netlify Blobs store, for a request that needs a body. Netlify hands each invocation
 * its blobs context (site, deploy, token) in the environment, so the store is made per request; the
 * client is imported when first needed, so a function over a full store never loads it.
 */
let blobsClient: Promise<typeof import('@netlify/blobs')> | null = null;
async function deployBlobs(): Promise<BlobSource> {
  blobsClient ??= import('@netlify/blobs');
  const { getDeployStore } = await blobsClient.catch((err: unknown) => {
    blobsClient = null;
    throw err;
  });
  const store = getDeployStore();
  return {
    async get(key: string) {
      const data = await store.get(key, { type: 'arrayBuffer' });
      return data === null ? null : Buffer.from(data);
    },
  };
}

/** The body reads of this reader, hooked once per reader (the store may be reopened). */
function bodiesOf(reader: StoreReader): DeployBodies | null {
  if (bodies?.reader !== reader) bodies = { reader, bodies: DeployBodies.attach(reader, deployBlobs) };
  return bodies.bodies;
}

/** The store FDS_DB names (read on each request), opened once, as the server opens its own. */
function storeSource(): StoreSource {
  const file = process.env.FDS_DB ?? FUNCTION_STORE;
  if (source?.file !== file) {
    source?.close();
    source = new StoreSource(file);
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
  const req: ApiRequest = { method: request.method, path, rawQuery, headers: Object.fromEntries(request.headers) };
  const source = storeSource();
  const store = source.get();
  const deps: Deps = {
    store,
    clock: () => new Date(),
    uptime: () => (performance.now() - startedAt) / 1000,
    storeName: source.name,
    storeProblem: source.problem ?? 'disconnected',
  };
  const { res, storeFailed } = await answer(req, deps, store && bodiesOf(store));
  // Opened again on the next request: the store may be back (or replaced). A body the deploy's blobs
  // could not give is no reason to drop a good reader and the bodies it holds.
  if (storeFailed) source.reset();
  // Content-Length is the platform's: a Response states the length of what it sends.
  return new Response(res.sendBody ? res.body : null, { status: res.status, headers: res.headers });
}

/**
 * The render core's answer; when it read a match whose bodies are in the deploy's blobs and not yet
 * here, they are fetched and the request rendered again (deploy-bodies.ts). Bodies that cannot be
 * had make it a 503, as a store that cannot be read does.
 */
async function answer(
  req: ApiRequest,
  deps: Deps,
  bodies: DeployBodies | null,
): Promise<{ res: ApiResponse; storeFailed: boolean }> {
  const first = render(req, deps);
  const wanted = bodies?.takeWanted() ?? [];
  if (!bodies || !wanted.length) return { res: first, storeFailed: first.status === 503 };
  try {
    const fetched = await bodies.load(wanted);
    const res = bodies.renderWith(fetched, () => render(req, deps));
    return { res, storeFailed: res.status === 503 };
  } catch (err) {
    if (!(err instanceof BodyUnavailable)) throw err;
    console.error(`fds function: ${err.message}`);
    return { res: render(req, { ...deps, store: null, storeProblem: 'error' }), storeFailed: false };
  }
}
