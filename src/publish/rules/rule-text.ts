/** The words of the rule plan that every target's rules share: a literal's request, written and read back. */
import type { RequestForm } from '../plan/plan.js';

export function subsets<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let m = 1; m < 1 << items.length; m++) out.push(items.filter((_, i) => m & (1 << i)));
  return out;
}

/** A literal rule's request: the path and the conditions (`path k=v …`). */
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
