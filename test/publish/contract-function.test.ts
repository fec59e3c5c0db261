/**
 * The API contract, answered the way Netlify answers it: the built tree through the generated rules
 * (netlify-redirector), and every request the rules send to the fallback handed to the Netlify
 * Function itself — netlify/functions/fds.mjs and the compiled tree it imports — as a Web Request
 * carrying what Netlify passes on a rewrite to a function: the function's own URL with the request's
 * query, and the request's path and query in `x-netlify-original-pathname`/`-search` (netlify/cli
 * src/utils/proxy.ts). The function reads its store from FDS_DB and the wall clock, which the test
 * pins to the suite's clock while the function runs.
 */
import { describe, expect, it, vi } from 'vitest';
import { contractSuite } from '../api/contract-suite.js';
import { NOW, clock } from '../api/helpers/api-store.js';
import type { TargetFactory, TargetResponse } from '../api/helpers/targets.js';
import { cdnTarget } from './helpers.js';
import type { Served } from './helpers.js';

type NetlifyFunction = (request: Request) => Promise<Response>;

const FUNCTION = '../../netlify/functions/fds.mjs';
const BASE = 'https://fds.test';

/** What Netlify hands the function for a request that a rule rewrote to `/.netlify/functions/fds`. */
function rewrittenToFunction(method: string, url: string, headers: Record<string, string>): Request {
  const asked = new URL(url, BASE);
  const target = new URL('/.netlify/functions/fds', BASE);
  for (const [k, v] of asked.searchParams) target.searchParams.append(k, v);
  return new Request(target, {
    method,
    headers: {
      ...headers,
      'x-netlify-original-pathname': asked.pathname,
      'x-netlify-original-search': asked.search,
    },
  });
}

function functionTarget(): TargetFactory {
  return async (file) => {
    const fds = ((await import(FUNCTION)) as { default: NetlifyFunction }).default;
    const storeFile = file ?? '/nonexistent/missing.sqlite';
    return {
      name: 'netlify function',
      async request(method, url, headers = {}): Promise<TargetResponse> {
        const request = rewrittenToFunction(method, url, headers);
        process.env.FDS_DB = storeFile;
        // Only the function's Date is pinned, and only while it answers.
        vi.useFakeTimers({ toFake: ['Date'], now: NOW });
        let res: Response;
        try {
          res = await fds(request);
        } finally {
          vi.useRealTimers();
        }
        const out: Record<string, string> = {};
        res.headers.forEach((v, k) => {
          out[k] = v;
        });
        return { status: res.status, headers: out, body: Buffer.from(await res.arrayBuffer()) };
      },
      async close() {},
    };
  };
}

describe('API contract: built tree through the generated rules, the Netlify Function behind them', () => {
  const served: Served = { fromFiles: 0, other: 0 };
  contractSuite(cdnTarget(clock, served, { fallback: functionTarget(), name: 'cdn + function' }));
  it('answered many of the cases from files and many through the function', () => {
    expect(served.fromFiles).toBeGreaterThan(30);
    expect(served.other).toBeGreaterThan(30);
  });
});
