/**
 * Where the contract suite sends its requests. A target answers raw requests (method, path with
 * query, headers) with status, lower-cased headers and body bytes. The suite runs unchanged against
 * the render core in-process, the HTTP server, and (next) a built static tree.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { render } from '../../../src/app/render.js';
import type { ApiResponse } from '../../../src/api/respond.js';
import type { StoreReader } from '../../../src/store/read/reader.js';
import { createApiServer } from '../../../src/server/http.js';
import type { Clock } from '../../../src/util/time.js';

export interface TargetResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Target {
  name: string;
  /**
   * Whether its answers carry the shared-cache headers (lifetimes, tags) everywhere. Default: yes,
   * but for the CDN's targets (named `cdn…`): Netlify's `_headers` give files what a path pattern can say.
   */
  sharedCache?: boolean;
  request(method: string, url: string, headers?: Record<string, string>): Promise<TargetResponse>;
  close(): Promise<void>;
}

/** A target over a store file (null file: the store cannot be opened). */
export type TargetFactory = (storeFile: string | null) => Promise<Target>;

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/** What a transport sends of a finished response: nothing for HEAD, 204 and 304. */
export const sent = (res: ApiResponse): Buffer => (res.sendBody ? res.body : Buffer.alloc(0));

export function inProcessTarget(open: (file: string) => StoreReader, clock: Clock): TargetFactory {
  return async (file) => {
    const store = file ? open(file) : null;
    return {
      name: 'render',
      async request(method, url, headers = {}) {
        const q = url.indexOf('?');
        const res = render(
          {
            method,
            path: q === -1 ? url : url.slice(0, q),
            rawQuery: q === -1 ? '' : url.slice(q + 1),
            headers: lower(headers),
          },
          { store, clock, uptime: () => 1.5, storeName: 'missing.sqlite' },
        );
        return { status: res.status, headers: lower(res.headers), body: sent(res) };
      },
      async close() {
        store?.close();
      },
    };
  };
}

/** Send exactly this method, path and headers (no client normalisation), read the raw answer. */
export function rawRequest(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  agent: http.Agent | false = false,
): Promise<TargetResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function httpTarget(clock: Clock): TargetFactory {
  return async (file) => {
    const api = createApiServer({
      storeFile: file ?? '/nonexistent/missing.sqlite',
      clock,
      rateLimit: null,
      log: null,
    });
    const { port } = (await api.listen(0, '127.0.0.1')) as AddressInfo;
    // Kept-alive connections, as clients hold them: the plain requests are the server's fast lane's.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    return {
      name: 'http',
      request: (method, url, headers) => rawRequest(port, method, url, headers, agent),
      close: async () => {
        agent.destroy();
        await api.close();
      },
    };
  };
}
