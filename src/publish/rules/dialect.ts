/** How a target spells the rule plan (rules.ts): the interface each target's dialect implements (../target.ts). */
import type { AnyRoute } from '../../api/route.js';
import type { OutputFs } from '../../util/lines.js';
import type { Router } from './rule-settings.js';

/**
 * How a target writes the rule plan (rules.ts says what each kind of rule is for and why the order is
 * sound): one line per rule, in the plan's order, and one block of headers per path pattern.
 */
export interface RuleDialect {
  /** The release's files the rules and the headers go to. */
  readonly rulesFile: string;
  readonly headersFile: string;
  /** Lines before the first rule. */
  readonly preamble: readonly string[];
  /** A literal rule: `request` (rule-text.ts `literalRequest`) rewritten to its pre-rendered file. */
  literal(request: string, file: string): string;
  /** A hybrid build's literal for a volatile request: the origin, asked the same. */
  toOrigin(request: string, origin: string): string;
  /** An escape: the route with `keys` present, whatever their values, to the fallback. */
  escape(route: AnyRoute, keys: readonly string[], fallback: string): string;
  /** A hybrid build's rule for a route whose answer without keys means "today": to the origin. */
  today(route: AnyRoute, origin: string): string;
  /** The rules that keep the paths outside the API that the release in `dir` ships as files on them. */
  pages(dir: string, router: Router, fs: OutputFs): string[];
  /** The last rule: everything else to the fallback. */
  catchAll(fallback: string): string;
  /** A block of headers for a path pattern. */
  block(pathPattern: string, headers: Readonly<Record<string, string>>): string;
}
