/**
 * A build's settings: what its output depends on besides the code and the store, chosen on the
 * command line — the fallback the rules send everything else to, the rule budget, how the CDN finds
 * files, a hybrid build's origin, the target — and the front door's assets. Checked once (`settingsOf`) into one
 * `BuildSettings`, which the build records in build.json and hands unchanged to the rule planner
 * (rules.ts says how each is used).
 */
import type { AnyRoute } from '../../api/route.js';
import { ROUTES } from '../../app/routes.js';
import { assetsVersion } from '../../frontdoor/assets.js';
import { ASSET_FILES } from '../../frontdoor/paths.js';

/** Netlify's guidance: beyond ~10,000 rules, expect slow or failing deploys. */
export const DEFAULT_RULE_BUDGET = 10_000;

/** How the CDN finds pre-rendered files: literal rules only, or an edge function first (netlify/edge/bundle.ts). */
export type Router = 'rules' | 'edge';
export const ROUTERS: readonly Router[] = ['rules', 'edge'];

/** Page rules at most: one per front-door asset, `/_s/*` (edge router) and `/_b/*` (the function's bodies). */
const MAX_PAGE_RULES = ASSET_FILES.length + 2;

export class RuleError extends Error {}

const ORIGIN_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;

/** An origin URL as every target reads it: without a trailing slash; null when `url` is not one. */
export const originUrl = (url: string): string | null => (ORIGIN_URL.test(url) ? url.replace(/\/+$/, '') : null);

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

/**
 * A build's settings, checked: what build.json records (`origin` only when given, see `settingsOf`).
 * A type, not an interface: build.json holds it as a plain record (release/build-info.ts).
 */
export type BuildSettings = {
  fallback: string;
  ruleBudget: number;
  router: Router;
  /** The front door's assets' version: a new one rebuilds what links them. */
  assets: string;
  /** The origin of a hybrid build: volatile requests go there instead of to their files. */
  origin?: string;
  /** The target (publish/target.ts), named only when it is not the default one (Netlify). */
  target?: string;
};

/** The settings as given (the command's flags, or a caller's options); defaults for what is left out. */
export interface SettingsInput {
  fallback?: string;
  ruleBudget?: number;
  router?: Router;
  origin?: string;
}

/** What checks a target's settings (publish/target.ts `BuildTarget`). */
export interface SettingsTarget {
  readonly name: string;
  readonly defaultFallback: string;
  /** A fallback checked for this target, as it is written (a RuleError says what is wrong). */
  fallbackOf(fallback: string): string;
  /** The settings checked as a whole for this target (a RuleError says what is wrong). */
  check(settings: BuildSettings): void;
}

/** The target build.json does not name: builds made before there were others read as its own. */
export const DEFAULT_TARGET = 'netlify';

/** Check the settings once, with their defaults, for `target`; bad ones throw a RuleError. */
export function settingsOf(input: SettingsInput, target: SettingsTarget): BuildSettings {
  const fallback = target.fallbackOf(input.fallback ?? target.defaultFallback);
  const ruleBudget = checkBudget(input.ruleBudget ?? DEFAULT_RULE_BUDGET, ROUTES, !!input.origin);
  const router = input.router ?? 'rules';
  const settings: BuildSettings = { fallback, ruleBudget, router, assets: assetsVersion() };
  // Named only when given, so a build without it reads the settings of earlier builds as its own.
  if (input.origin) settings.origin = checkOrigin(input.origin, router);
  if (target.name !== DEFAULT_TARGET) settings.target = target.name;
  target.check(settings);
  return settings;
}
