/**
 * Netlify's own rule engine (netlify-redirector: the WASM build of libredirect that `netlify dev`
 * uses), loaded over a `_redirects` file, answering "where does this request go?". `fds check` and
 * the tests resolve requests through it rather than through a re-implementation of its semantics.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { ASSET_DIR, FRONT_DOOR_FILE } from '../frontdoor/paths.js';

interface RawMatcher {
  match(req: {
    scheme: string;
    host: string;
    path: string;
    query: string;
    getHeader: (name: string) => string;
    getCookie: (name: string) => string;
  }): { to: string; status: number; force: boolean; from?: string } | null;
}

interface Redirector {
  parsePlain(rules: string, options: object): Promise<RawMatcher>;
}

const require = createRequire(import.meta.url);
let redirector: Redirector | null = null;

export type Resolution =
  | { kind: 'file'; file: string; status: number }
  | { kind: 'fallback'; to: string; status: number }
  /** Another origin: a hybrid build's (`fds build --origin`) for its volatile requests. */
  | { kind: 'origin'; to: string; status: number }
  | { kind: 'other'; to: string; status: number }
  | { kind: 'none' };

export interface NetlifyMatcher {
  /** Resolve a raw path (as sent, percent-encoded) and raw query (without `?`). */
  resolve(path: string, query: string): Resolution;
}

/** Where the build sends unmatched requests: the target of its final `/*` rule. */
export function fallbackOf(rules: string): string {
  const last = rules
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('/* '));
  const to = last?.split(/\s+/)[1];
  if (!to) throw new Error('the rules have no final catch-all rule to the fallback');
  return to.replace(/\/:splat$/, '');
}

/** Rewrite targets that are files of the release: rendered ones, the front door and its assets. */
const isReleaseFile = (to: string) =>
  to.startsWith('/_s/') || to === `/${FRONT_DOOR_FILE}` || to.startsWith(`/${ASSET_DIR}/`);

export async function loadMatcher(redirectsFile: string): Promise<NetlifyMatcher> {
  redirector ??= require('netlify-redirector') as Redirector;
  const rules = fs.readFileSync(redirectsFile, 'utf8');
  const fallback = fallbackOf(rules);
  const matcher = await redirector.parsePlain(rules, {});
  return {
    resolve(path, query) {
      const m = matcher.match({
        scheme: 'https',
        host: 'fds.test',
        path,
        query,
        getHeader: () => '',
        getCookie: () => '',
      });
      if (!m) return { kind: 'none' };
      const to = m.to;
      if (to === fallback || to.startsWith(`${fallback}/`) || to.startsWith(`${fallback}?`))
        return { kind: 'fallback', to, status: m.status };
      if (isReleaseFile(to)) return { kind: 'file', file: to.slice(1).split('?')[0]!, status: m.status };
      if (/^https?:\/\//.test(to)) return { kind: 'origin', to, status: m.status };
      return { kind: 'other', to, status: m.status };
    },
  };
}
