/**
 * The static lookup's ready answers (static-lookup.ts `ready`): finished once per file and coding,
 * then answered as they are. Each must be the answer the transport would have finished from the
 * plain lookup, header order included, for every file of a build.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readManifestSync } from '../../src/release/manifest.js';
import { currentRelease } from '../../src/release/layout.js';
import { resolve } from '../../src/app/resolve.js';
import type { ApiResponse } from '../../src/api/respond.js';
import type { FileSlot } from '../../src/server/static-lookup.js';
import { StaticBuild, fileSlot } from '../../src/server/static-lookup.js';
import { encode } from '../../src/server/transport.js';
import { splitTarget } from '../../src/server/http.js';
import { buildInto, demoStore } from '../publish/helpers.js';

let out: string;
beforeAll(async () => {
  ({ out } = await buildInto(await demoStore()));
});

/** Everything the transport writes from an answer, headers in their order. */
const written = (r: ApiResponse | null) =>
  r && { status: r.status, headers: Object.entries(r.headers), body: r.body.toString('latin1'), sendBody: r.sendBody };

const manifest = () => readManifestSync(path.join(currentRelease(out)!, 'manifest.ndjson'));

/** A manifest entry's request as the server takes it: its path, its query, and what they resolve to. */
function target(request: string) {
  const { path: urlPath, rawQuery } = splitTarget(request)!;
  return { urlPath, rawQuery, resolution: resolve(urlPath, rawQuery) };
}

/** A file well above the size from which answers are compressed (1 KiB), and its request. */
function largeFile() {
  const entry = manifest().find((e) => e.bytes > 4096)!;
  return { entry, ...target(entry.request) };
}

describe('a file answered not modified', () => {
  it('says what its 200 varies on, as the transport finishes it, and nothing for a file too small to compress', () => {
    const lookup = new StaticBuild(out);
    try {
      const small = manifest().find((e) => e.status === 200 && e.bytes < 512)!;
      for (const [entry, vary] of [
        [largeFile().entry, 'Accept-Encoding'],
        [small, undefined],
      ] as const) {
        const { urlPath, rawQuery, resolution } = target(entry.request);
        const whole = lookup.lookup({ method: 'GET', path: urlPath, rawQuery, headers: {} }, resolution, fileSlot())!;
        encode(whole, undefined);
        expect(whole.headers.Vary, entry.request).toBe(vary);
        const headers = { 'if-none-match': entry.etag };
        const notModified = lookup.lookup({ method: 'GET', path: urlPath, rawQuery, headers }, resolution, fileSlot())!;
        encode(notModified, undefined);
        expect(notModified.status, entry.request).toBe(304);
        expect(notModified.headers.Vary, entry.request).toBe(vary);
      }
    } finally {
      lookup.close();
    }
  });
});

describe('ready static answers', () => {
  it('are, first and then from what was kept, the answer the transport finishes from the plain lookup, for every file, method and coding', () => {
    const entries = manifest().filter((e) => e.status === 200);
    expect(entries.length).toBeGreaterThan(100);
    const lookup = new StaticBuild(out);
    let kept = 0;
    try {
      for (const entry of entries) {
        const { urlPath, rawQuery, resolution } = target(entry.request);
        const slot = fileSlot();
        for (const acceptEncoding of [undefined, 'gzip', 'br, gzip']) {
          for (const method of ['GET', 'HEAD']) {
            const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
            const req = { method, path: urlPath, rawQuery, headers };
            const plain = lookup.lookup(req, resolution, fileSlot());
            expect(plain, entry.request).not.toBeNull();
            encode(plain!, acceptEncoding);
            const first = lookup.lookup(req, resolution, slot, true);
            const again = lookup.lookup(req, resolution, slot, true);
            expect(written(first), `${method} ${entry.request} ${acceptEncoding}`).toEqual(written(plain));
            expect(written(again), `${method} ${entry.request} ${acceptEncoding}`).toEqual(written(plain));
            expect(again!.final).toBe(true);
            if (again!.headers === first!.headers) kept++;
          }
        }
      }
      // The memory holds this whole build: each second answer came from what the first one kept.
      expect(kept).toBe(entries.length * 6);
    } finally {
      lookup.close();
    }
  });

  it('are not kept for a conditional request, which still gets its 304 or, naming another tag, the whole answer', () => {
    const { entry, urlPath, rawQuery, resolution } = largeFile();
    const lookup = new StaticBuild(out);
    try {
      const slot = fileSlot();
      const ask = (headers: Record<string, string>) =>
        lookup.lookup({ method: 'GET', path: urlPath, rawQuery, headers }, resolution, slot, true)!;
      const matching = ask({ 'if-none-match': entry.etag });
      expect(matching.status).toBe(304);
      expect(matching.final).toBeUndefined();
      const other = ask({ 'if-none-match': '"other"' });
      expect(other.status).toBe(200);
      expect(other.body.length).toBe(entry.bytes);
      // Left to the transport to finish, as every answer not kept.
      expect(other.final).toBeUndefined();
      // The next plain request is answered, and kept.
      const plain = ask({});
      expect(plain.final).toBe(true);
      expect(plain.headers['Content-Length']).toBe(String(entry.bytes));
      expect(ask({}).headers).toBe(plain.headers);
    } finally {
      lookup.close();
    }
  });

  it('keep their headers when the memory drops the body: the body is read again and answered with the same finished headers', () => {
    const entries = manifest().filter((e) => e.status === 200 && e.bytes > 4096);
    const first = entries[0]!;
    // Twenty other files, each more than half its size: more than its memory of eight times its size holds.
    const others = entries
      .filter((e) => e !== first && e.bytes <= first.bytes && e.bytes * 2 > first.bytes)
      .slice(0, 20);
    expect(others.length).toBe(20);
    const lookup = new StaticBuild(out, { cacheBytes: 8 * first.bytes });
    try {
      const ask = (request: string, slot: FileSlot) => {
        const t = target(request);
        return lookup.lookup(
          { method: 'GET', path: t.urlPath, rawQuery: t.rawQuery, headers: {} },
          t.resolution,
          slot,
          true,
        )!;
      };
      const slot = fileSlot();
      const kept = ask(first.request, slot);
      for (const other of others) ask(other.request, fileSlot());
      expect(slot.ready?.identity?.body.value).toBeNull();
      const again = ask(first.request, slot);
      expect(again.final).toBe(true);
      expect(again.headers).toBe(kept.headers);
      expect(again.body.equals(kept.body)).toBe(true);
      expect(again.body).not.toBe(kept.body);
    } finally {
      lookup.close();
    }
  });

  it('are not kept for a body the memory does not hold: such an answer is left to the transport, every time', () => {
    const { entry, urlPath, rawQuery, resolution } = largeFile();
    const lookup = new StaticBuild(out, { cacheBytes: 0 });
    try {
      const slot = fileSlot();
      for (let i = 0; i < 2; i++) {
        const r = lookup.lookup({ method: 'GET', path: urlPath, rawQuery, headers: {} }, resolution, slot, true)!;
        expect(r.body.length).toBe(entry.bytes);
        expect(r.final).toBeUndefined();
        expect(Object.isFrozen(r.headers)).toBe(false);
      }
    } finally {
      lookup.close();
    }
  });
});
