/** The text of the rules and header blocks a build writes (rules.ts says what each is for and why it is sound). */
import nodeFs from 'node:fs';
import path from 'node:path';
import type { AnyRoute } from '../../api/route.js';
import type { OutputFs } from '../../util/lines.js';
import type { RequestForm } from '../plan/plan.js';
import { STATIC_PREFIX } from '../../release/file-name.js';
import { ASSET_DIR, ASSET_FILES } from '../../frontdoor/paths.js';
import { BODIES_DIR } from '../../netlify/function-store.js';
import type { Router } from './rule-settings.js';
import { isFunction } from './rule-settings.js';

export function subsets<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let m = 1; m < 1 << items.length; m++) out.push(items.filter((_, i) => m & (1 << i)));
  return out;
}

/**
 * A proxy gets the request path back through the placeholders and, since Netlify replaces the query
 * of a rule with conditions, the escape's keys re-attached (the only route keys the request has).
 */
export function escapeRule(route: AnyRoute, keys: string[], fallback: string): string {
  const conds = keys.map((k) => `${k}=:q${k}`).join(' ');
  const to = isFunction(fallback) ? fallback : `${fallback}${route.path}?${keys.map((k) => `${k}=:q${k}`).join('&')}`;
  return `${route.path} ${conds} ${to} 200!`;
}

/** A literal rule's request: the path and the conditions (the rule is `<request> /<file> 200!`). */
export function literalRequest(form: RequestForm): string {
  return `${form.path}${form.query.map(([k, v]) => ` ${k}=${v}`).join('')}`;
}

/** A literal rule's request `path k=v …` (`literalRequest`) read back: its path and its conditions. */
export function splitLiteral(request: string): { path: string; conds: string[] } {
  const [p, ...conds] = request.split(' ');
  return { path: p!, conds };
}

/** A literal's conditions as a query object (values are tokens, never containing `=`). */
export const literalQuery = (conds: readonly string[]): Record<string, string> =>
  Object.fromEntries(conds.map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]));

/** Where a hybrid build sends a volatile literal (rules.ts, HYBRID): the origin, asked the same. */
export function originTarget(origin: string, request: string): string {
  const { path: p, conds } = splitLiteral(request);
  return `${origin}${p}${conds.length ? `?${conds.join('&')}` : ''}`;
}

/** A hybrid build's rules for the requests that mean "today" by leaving a key out (rules.ts, HYBRID). */
export const todayRules = (routes: readonly AnyRoute[], origin: string): string[] =>
  routes.filter((r) => r.today).map((r) => `${r.path} ${origin}${r.path} 200!`);

/** The page rules for what the release in `dir` holds (rules.ts, PAGES). */
export function pageRules(dir: string, router: Router, fs: OutputFs = nodeFs): string[] {
  const rules: string[] = [];
  for (const a of ASSET_FILES) {
    const file = `${ASSET_DIR}/${a.name}`;
    if (fs.existsSync(path.join(dir, file))) rules.push(`/${file} /${file} 200!`);
  }
  if (router === 'edge') rules.push(`/${STATIC_PREFIX}/* /${STATIC_PREFIX}/:splat 200!`);
  // The per-match bodies the Netlify Function fetches from its own deploy (netlify/function-package.ts).
  if (fs.existsSync(path.join(dir, BODIES_DIR))) rules.push(`/${BODIES_DIR}/* /${BODIES_DIR}/:splat 200!`);
  return rules;
}

/** A `_headers` block: a path, then its headers indented. */
export const block = (pathPattern: string, headers: Readonly<Record<string, string>>) =>
  `${pathPattern}\n${Object.entries(headers)
    .map(([k, v]) => `  ${k}: ${v}\n`)
    .join('')}`;
