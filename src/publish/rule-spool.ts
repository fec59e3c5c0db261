/**
 * A literal rule candidate as the rule planner (rules.ts) spools it while a build streams, and reads
 * it back when it admits candidates within the budget.
 */

export interface Spooled {
  /** Admission priority (reach.ts): lower first. */
  p: number;
  rule: string;
  k: number;
  file: string;
  /** 1 when this is a pre-rendered request's shortest spelling; `hot` when that request is in the hot set. */
  shortest: 0 | 1;
  hot: 0 | 1;
  etag: string;
  cacheControl: string;
}

/**
 * A spooled candidate as one tab-separated line (a build spools tens of thousands): no field holds a
 * tab or a line break — file names and rules are URL-safe tokens and spaces, ETags and Cache-Control
 * header values are ours — and the rule, the one with spaces, goes last.
 */
export const spoolLine = (s: Spooled) =>
  `${s.p}\t${s.k}\t${s.shortest}\t${s.hot}\t${s.file}\t${s.etag}\t${s.cacheControl}\t${s.rule}\n`;

export function unspool(line: string): Spooled {
  const [p, k, shortest, hot, file, etag, cacheControl, rule] = line.split('\t') as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const bit = (v: string) => (v === '1' ? 1 : 0);
  return { p: Number(p), k: Number(k), shortest: bit(shortest), hot: bit(hot), file, etag, cacheControl, rule };
}
