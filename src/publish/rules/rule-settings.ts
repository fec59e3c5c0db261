/**
 * What a build's rules are made with, chosen on the command line: the fallback the rules send
 * everything else to, the rule budget, and how the CDN finds files (rules.ts says how they are used).
 */
import type { AnyRoute } from '../../api/route.js';
import { ASSET_FILES } from '../../frontdoor/paths.js';

export const DEFAULT_FALLBACK = '/.netlify/functions/fds';
/** Netlify's guidance: beyond ~10,000 rules, expect slow or failing deploys. */
export const DEFAULT_RULE_BUDGET = 10_000;

/** How the CDN finds pre-rendered files: literal rules only, or an edge function first (netlify/edge/bundle.ts). */
export type Router = 'rules' | 'edge';
export const ROUTERS: readonly Router[] = ['rules', 'edge'];

/** Page rules at most: one per front-door asset, `/_s/*` (edge router) and `/_b/*` (the function's bodies). */
const MAX_PAGE_RULES = ASSET_FILES.length + 2;

export class RuleError extends Error {}

const ORIGIN_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

export function checkFallback(fallback: string): string {
  if (/^\/\.netlify\/functions\/[A-Za-z0-9_-]+$/.test(fallback)) return fallback;
  if (ORIGIN_URL.test(fallback)) return fallback.replace(/\/+$/, '');
  throw new RuleError(
    `--fallback must be /.netlify/functions/<name> or an http(s) origin URL, got ${JSON.stringify(fallback)}`,
  );
}

/**
 * The origin of a hybrid build (`--origin`): an http(s) URL without query. Its rules are literal,
 * which the edge router does not read, so it needs the rules router.
 */
export function checkOrigin(origin: string, router: Router): string {
  if (!ORIGIN_URL.test(origin)) throw new RuleError(`--origin must be an http(s) URL, got ${JSON.stringify(origin)}`);
  if (router !== 'rules')
    throw new RuleError('--origin needs --router rules: the edge router sends requests to files, not to an origin');
  return origin.replace(/\/+$/, '');
}

/** Rules that every build writes whatever it admits: the floor of any rule budget. `hybrid`: with `--origin`. */
export function fallbackRuleCount(routes: readonly AnyRoute[], hybrid = false): number {
  const escapes = routes.reduce((n, r) => n + (1 << Object.keys(r.query).length) - 1, 0);
  // A hybrid build's rules for today's answers (rule-text.ts `todayRules`).
  const todays = hybrid ? routes.filter((r) => r.today).length : 0;
  return escapes + todays + MAX_PAGE_RULES + 1;
}

export function checkBudget(budget: number, routes: readonly AnyRoute[], hybrid = false): number {
  const floor = fallbackRuleCount(routes, hybrid);
  if (budget < floor)
    throw new RuleError(`a rule budget of ${budget} cannot hold the ${floor} rules that route to the fallback`);
  return budget;
}

export const isFunction = (fallback: string) => fallback.startsWith('/.netlify/functions/');
