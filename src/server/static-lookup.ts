/**
 * The server's static-first lookup. A request is answered from a pre-rendered file when its
 * request key (route + validated parameters, api/resolve.ts) is one the published manifest lists;
 * the key is what the handler sees, so the file is exactly the dynamic answer. Headers come from
 * the manifest, not from the file system, and the response is finished as the render core's is.
 *
 * `dist` is a symlink swapped atomically. The lookup holds the release it last resolved (its
 * directory and a compact index of its manifest) and looks again when the release may have changed
 * (release-watch.ts); each answer takes its headers and bytes from that one release, so a response
 * never mixes two builds, and a newly published release is picked up without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ApiRequest } from '../app/render.js';
import type { Resolution } from '../api/resolve.js';
import type { ApiResponse } from '../api/respond.js';
import { finishResponse, requestHeader } from '../api/respond.js';
import { sharedCacheHeaders } from '../api/cache-tags.js';
import { liveByCacheControl } from '../api/headers.js';
import { MANIFEST_FILE } from '../release/layout.js';
import type { Coding } from './compress.js';
import { compressibleSize, negotiate } from './compress.js';
import { encode } from './transport.js';
import type { HeldBuffer } from '../util/byte-lru.js';
import type { Body } from './file-bodies.js';
import { FileBodies } from './file-bodies.js';
import { ReleaseIndex } from './release-index.js';
import { ReleaseWatch } from './release-watch.js';

/**
 * Where the lookup last found a request target's file: which release it had loaded, and the file's
 * number there (-1: none). Kept with the target (resolution-memo.ts), so a target asked for again
 * in the same release skips the release's index: that lookup, in a map of every request key of
 * the build, cost a static answer about 5 % of its rate.
 */
export interface FileSlot {
  release: number;
  n: number;
  /** The file's ready answers in that release (`lookup`'s `ready`), by coding. */
  ready: ReadyAnswers | null;
  /**
   * The file's headers in that release: the manifest's, then the shared caches' (its lifetimes and
   * tags, from its route, as the render core gives them), made once per target and release.
   */
  headers: Readonly<Record<string, string>> | null;
}

/**
 * A ready answer, held with its target: headers complete for the transport and frozen, and the
 * hot-file memory's item for the body, which turns null when the memory drops it (so the budget
 * still bounds what is held; the headers stay, bounded by the targets remembered). Answering from
 * it skips the header work, the memory's lookup and the transport's additions, a sizeable share of
 * a static answer's cost (docs/performance.md).
 */
interface ReadyAnswer {
  headers: Readonly<Record<string, string>>;
  body: HeldBuffer;
}

interface ReadyAnswers {
  /** Whether the file is offered in a content coding at all. */
  compressible: boolean;
  identity: ReadyAnswer | null;
  gzip: ReadyAnswer | null;
  br: ReadyAnswer | null;
}

export const fileSlot = (): FileSlot => ({ release: -1, n: -1, ready: null, headers: null });

/**
 * A file's headers: the manifest's (Content-Type, Cache-Control, CORS), then what the render core
 * tells shared caches of the same answer (api/cache-tags.ts), from the file's route and values —
 * the resolution that found the file — and whether its Cache-Control is its class's while live.
 */
export function fileHeaders(
  base: Readonly<Record<string, string>>,
  resolution: Resolution,
): Readonly<Record<string, string>> {
  if (resolution.kind !== 'resolved') return base;
  const { route, params, query } = resolution.request;
  const live = liveByCacheControl(route.cache, base['Cache-Control'] ?? '');
  return Object.freeze({ ...base, ...sharedCacheHeaders(route, 200, live, params, query) });
}

/** Counts the releases loaded in this process, by any lookup: what a FileSlot names its release by. */
let releasesLoaded = 0;

export interface StaticLookup {
  /**
   * A pre-rendered answer for exactly this (already resolved) request, or null to render it. An
   * answer with `Content-Encoding` was negotiated here (its body is in that coding, with `Vary`);
   * any other is the plain entity, which the transport may still compress. `slot`: this target's
   * own, read and updated here. `ready`: the caller adds no header of its own (no rate limit), so a
   * plain 200 answer whose body the memory holds is finished for the transport here (transport.ts
   * `encode`, marked `final`) and held with the slot, to be answered as it is next time.
   */
  lookup(req: ApiRequest, resolution: Resolution, slot?: FileSlot, ready?: boolean): ApiResponse | null;
  readonly description: string;
  /** Stop watching for new releases. */
  close?(): void;
}

export const NO_STATIC_BUILD: StaticLookup = {
  lookup: () => null,
  description: 'no build: every request is rendered dynamically',
};

export interface StaticBuildOptions {
  /** Memory for file bodies and their compressed variants (default 64 MiB; 0 reads every file). */
  cacheBytes?: number;
  /** How often to look at `dir` again when no change was heard of (default 1 s). */
  recheckMs?: number;
}

interface LoadedRelease {
  /** Names this release's manifest: directory, inode, mtime and size. */
  id: string;
  /** Its number among the releases loaded in this process (releasesLoaded). */
  generation: number;
  dir: string;
  index: ReleaseIndex;
}

const EMPTY = Buffer.alloc(0);

export class StaticBuild implements StaticLookup {
  private loaded: LoadedRelease | null = null;
  private readonly watch: ReleaseWatch;
  private readonly bodies: FileBodies;

  constructor(
    readonly dir: string,
    opts: StaticBuildOptions = {},
  ) {
    this.watch = new ReleaseWatch(dir, opts.recheckMs ?? 1000);
    this.bodies = new FileBodies(opts.cacheBytes);
  }

  /** What it serves, and how much of that its memory holds (the server's first log line says it). */
  get description(): string {
    const r = this.current();
    if (!r) return `no build in ${this.dir} yet: rendering dynamically until one is published`;
    const { files, totalBytes } = r.index;
    const budget = this.bodies.budget;
    const memory = `${(budget / 2 ** 20).toFixed(0)} MiB of memory for hot files (--cache-mb)`;
    const held =
      budget === 0
        ? 'no memory for hot files: every answer reads its file'
        : budget >= totalBytes
          ? `all of it fits the ${memory}`
          : `the ${memory} holds about ${Math.round((100 * budget) / totalBytes)} % of it`;
    return `static build ${path.basename(r.dir)} in ${this.dir} (${files} files, ${(totalBytes / 1e6).toFixed(1)} MB; ${held})`;
  }

  /** What the hot-file memory holds now (bodies and variants). */
  get cached(): { items: number; bytes: number } {
    return this.bodies.held;
  }

  close(): void {
    this.watch.close();
  }

  private current(): LoadedRelease | null {
    return this.watch.due() ? this.look() : this.loaded;
  }

  /** Resolve `dir` to the release it stands for now, loading that release's index when it is a new one. */
  private look(): LoadedRelease | null {
    let dir: string;
    let st: fs.Stats | undefined;
    try {
      dir = fs.realpathSync.native(this.dir);
      st = fs.statSync(path.join(dir, MANIFEST_FILE), { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st) {
      this.loaded = null;
      return null;
    }
    const id = `${dir!}\0${st.ino}\0${st.mtimeMs}\0${st.size}`;
    if (this.loaded?.id === id) return this.loaded;
    try {
      this.loaded = { id, generation: ++releasesLoaded, dir: dir!, index: ReleaseIndex.load(dir!) };
    } catch {
      // A release being pruned under us: answer dynamically, and look again on the next request.
      this.loaded = null;
      this.watch.invalidate();
    }
    return this.loaded;
  }

  lookup(req: ApiRequest, resolution: Resolution, slot: FileSlot = fileSlot(), ready = false): ApiResponse | null {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const key = resolution.kind === 'resolved' ? resolution.request.key : null;
    if (key === null) return null;
    const release = this.current();
    if (!release) return null;
    const { dir, index } = release;
    if (slot.release !== release.generation) {
      slot.release = release.generation;
      slot.n = index.find(key);
      slot.ready = null;
      slot.headers = null;
    }
    const n = slot.n;
    if (n < 0) return null;
    const conditional = requestHeader(req, 'if-none-match') !== undefined;
    const held = ready && !conditional ? this.ready(slot, index, n) : null;
    const coding = (held ? held.compressible : this.compressible(index, n))
      ? negotiate(requestHeader(req, 'accept-encoding'))
      : null;
    const answer = held?.[coding ?? 'identity'];
    if (answer) {
      let bytes = answer.body.value;
      if (bytes === null) {
        // The memory dropped the body: read it again, but answer with the headers finished before:
        // rebuilding them and their encoded head is a sizeable share of each answer to a client
        // going round more files than the memory holds (docs/performance.md).
        const body = this.body(dir, index, n, coding);
        if (body === null) return null;
        if (body.held) answer.body = body.held;
        bytes = body.bytes;
      } else answer.body.used = true;
      return { status: 200, headers: answer.headers, body: bytes, sendBody: req.method !== 'HEAD', final: true };
    }
    // Status, ETag and 304 are decided as for any answer; a 304 needs no body, so none is read for it.
    slot.headers ??= fileHeaders(index.headers(n), resolution);
    const response = finishResponse(req, 200, { ...slot.headers }, EMPTY, index.etag(n), index.bytes(n));
    if (response.status === 200) {
      const body = this.body(dir, index, n, coding);
      if (body === null) return null;
      if (coding) {
        response.headers.Vary = 'Accept-Encoding';
        response.headers['Content-Encoding'] = coding;
      }
      response.body = body.bytes;
      // Held only while the memory holds the body: other answers go to the transport as they are.
      if (held && body.held) {
        encode(response, requestHeader(req, 'accept-encoding'));
        response.final = true;
        held[coding ?? 'identity'] = { headers: Object.freeze(response.headers), body: body.held };
      }
    }
    return response;
  }

  /**
   * File `n`'s body in `coding`, from the memory or its file; null when the file is not what the
   * manifest says (the release is being replaced): the release is then looked up again.
   */
  private body(dir: string, index: ReleaseIndex, n: number, coding: Coding | null): Body | null {
    const body = coding ? this.bodies.encoded(dir, index, n, coding) : this.bodies.body(dir, index, n);
    if (body === null) this.watch.invalidate();
    return body;
  }

  private compressible(index: ReleaseIndex, n: number): boolean {
    return compressibleSize(index.bytes(n), index.headers(n)['Content-Type']);
  }

  /** The slot's ready answers, begun when the file is first answered in this release. */
  private ready(slot: FileSlot, index: ReleaseIndex, n: number): ReadyAnswers {
    slot.ready ??= { compressible: this.compressible(index, n), identity: null, gzip: null, br: null };
    return slot.ready;
  }
}
