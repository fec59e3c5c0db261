/**
 * The fallback as a Netlify Function (docs/deploying.md): the render core over the store deployed
 * with the function, answering every request the generated rules send to `/.netlify/functions/fds`
 * with the bytes a pre-rendered file would hold. `netlify/functions/fds.mjs` re-exports it from the
 * compiled tree, which is what Netlify's bundler packs.
 *
 * The store it ships is the slim one `fds build` writes (function-package.ts): every row the render
 * core reads, without the per-match bodies (summaries, play streams), which it fetches from its own
 * deploy's files (`_b/…`) when a request needs one (deploy-bodies.ts) — so the archive stays within
 * Netlify's limits however many seasons the store holds, and a deploy uploads only the bodies that
 * changed. Given a full store (FDS_DB), it reads the bodies from the store itself.
 *
 * It declares no `config.path` on purpose: a function with a path runs before the redirect rules and
 * would take requests the files should answer.
 */
import { render } from '../app/render.js';
import type { ApiRequest, ApiResponse, Deps } from '../app/render.js';
import type { StoreReader } from '../store/read/reader.js';
import { StoreSource } from '../store/store-source.js';
import type { BlobSource } from './deploy-bodies.js';
import { BodyUnavailable, DeployBodies } from './deploy-bodies.js';
import { FUNCTION_STORE } from './function-store.js';
import { netlifyCanonicalQuery } from './query.js';

// Uptime by the monotonic clock: the wall clock may jump.
const startedAt = performance.now();
let source: StoreSource | null = null;

let bodies: { reader: StoreReader; bodies: DeployBodies | null } | null = null;

/** What Netlify hands a function besides the request (the parts read here). */
export interface NetlifyContext {
  deploy?: { id?: string };
  site?: { name?: string; url?: string };
}

/**
 * Where this deploy's files are, most specific first: its permalink
 * (`https://<deploy id>--<site name>.netlify.app`), which serves this deploy's files even after a
 * newer one is published, then the site's URL. A body file's name says what it holds (match-body.ts),
 * so a newer deploy answers either the same bytes or 404; either way the bytes are checked.
 */
export function deployOrigins(request: Request, context: NetlifyContext | undefined): string[] {
  const deploy = context?.deploy?.id ?? request.headers.get('x-nf-deploy-id') ?? '';
  const name = context?.site?.name ?? process.env.SITE_NAME ?? '';
  const site = context?.site?.url ?? process.env.URL ?? '';
  const origins: string[] = [];
  if (/^[0-9a-f]+$/i.test(deploy) && /^[a-z0-9-]+$/i.test(name)) origins.push(`https://${deploy}--${name}.netlify.app`);
  if (site) origins.push(site.replace(/\/+$/, ''));
  return origins;
}

/** The deploy's files over HTTP: a file's bytes from the first origin that has it, null when none has. */
function deployFiles(origins: readonly string[]): BlobSource {
  return {
    async get(file: string) {
      let failed: unknown = null;
      for (const origin of origins) {
        try {
          const res = await fetch(`${origin}/${file}`);
          if (res.status === 200) return Buffer.from(await res.arrayBuffer());
          await res.body?.cancel();
          if (res.status !== 404) failed = new Error(`${origin} answered ${res.status}`);
        } catch (err) {
          failed = err;
        }
      }
      if (failed) throw failed;
      if (!origins.length) throw new Error('no address of the deploy (no deploy id, site name or site URL)');
      return null;
    },
  };
}

/** The body reads of this reader, hooked once per reader (the store may be reopened). */
function bodiesOf(reader: StoreReader): DeployBodies | null {
  if (bodies?.reader !== reader) bodies = { reader, bodies: DeployBodies.attach(reader) };
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

export default async function handler(request: Request, context?: NetlifyContext): Promise<Response> {
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
  const files = () => deployFiles(deployOrigins(request, context));
  const { res, storeFailed } = await answer(req, deps, store && bodiesOf(store), files);
  // Opened again on the next request: the store may be back (or replaced). A body the deploy's files
  // could not give is no reason to drop a good reader and the bodies it holds.
  if (storeFailed) source.reset();
  // Content-Length is the platform's: a Response states the length of what it sends.
  return new Response(res.sendBody ? res.body : null, { status: res.status, headers: res.headers });
}

/**
 * The render core's answer; when it read a match whose bodies are in the deploy's files and not yet
 * here, they are fetched and the request rendered again (deploy-bodies.ts). Bodies that cannot be
 * had make it a 503, as a store that cannot be read does.
 */
async function answer(
  req: ApiRequest,
  deps: Deps,
  bodies: DeployBodies | null,
  files: () => BlobSource,
): Promise<{ res: ApiResponse; storeFailed: boolean }> {
  const first = render(req, deps);
  const wanted = bodies?.takeWanted() ?? [];
  if (!bodies || !wanted.length) return { res: first, storeFailed: first.status === 503 };
  try {
    const fetched = await bodies.load(wanted, files());
    const res = bodies.renderWith(fetched, () => render(req, deps));
    return { res, storeFailed: res.status === 503 };
  } catch (err) {
    if (!(err instanceof BodyUnavailable)) throw err;
    console.error(`fds function: ${err.message}`);
    return { res: render(req, { ...deps, store: null, storeProblem: 'error' }), storeFailed: false };
  }
}
