/**
 * What a purge did, per target, and the one line of it the publishing cycle prints: short when
 * every target is done, one clause per target as soon as any of them failed, is busy or is behind.
 */

export interface TargetReport {
  /** The target's name, with its host when two of one kind are configured. */
  name: string;
  /** Tags purged, requests answered or failed, and how long those requests took, since the previous report. */
  purged: number;
  requests: number;
  ms: number;
  /** Tags not yet purged: waiting for the next request, or in one still unanswered. */
  pending: number;
  /** A request was still unanswered when this report was made; it was not waited for (any longer). */
  busy: boolean;
  /** Why the latest request failed, while no later one has succeeded. */
  error?: string;
  /** The pending tags wait this long for the provider's rate, or for a 429's Retry-After. */
  retryInMs?: number;
}

export interface PurgeReport {
  targets: TargetReport[];
}

const tags = (n: number) => `${n} tag${n === 1 ? '' : 's'}`;

/** `purged 14 tags in 23 ms`, or `purge: varnish 14 tags in 23 ms; cloudflare failed (HTTP 503), 14 tags pending`. */
export function formatPurgeReport(report: PurgeReport): string {
  const { targets } = report;
  const settled = targets.every((t) => !t.busy && !t.error && t.pending === 0);
  if (settled && targets.every((t) => t.purged === targets[0]?.purged)) {
    const n = targets[0]?.purged ?? 0;
    return n ? `purged ${tags(n)} in ${Math.max(...targets.map((t) => t.ms))} ms` : 'purge: nothing to purge';
  }
  return `purge: ${targets.map(clause).join('; ')}`;
}

function clause(t: TargetReport): string {
  const parts: string[] = [];
  if (t.purged) parts.push(`${tags(t.purged)} in ${t.ms} ms`);
  if (t.busy) parts.push('busy (request in flight)');
  else if (t.error) parts.push(`failed (${t.error})`);
  if (t.pending) {
    const wait = t.retryInMs ? ` (next request in ${Math.ceil(t.retryInMs / 1000)} s)` : '';
    parts.push(`${tags(t.pending)} pending${wait}`);
  }
  return `${t.name} ${parts.join(', ') || 'nothing to purge'}`;
}

/**
 * Two reports of one purger in a row as one (a one-shot purge: what `purge` did, then `flush`):
 * counts added up, the state as the later one found it.
 */
export function mergeReports(first: PurgeReport, then: PurgeReport): PurgeReport {
  return {
    targets: then.targets.map((t, i) => {
      const a = first.targets[i];
      return a ? { ...t, purged: a.purged + t.purged, requests: a.requests + t.requests, ms: a.ms + t.ms } : t;
    }),
  };
}

/** Whether any target failed or still has tags pending. */
export const purgeIncomplete = (report: PurgeReport): boolean =>
  report.targets.some((t) => t.error !== undefined || t.pending > 0 || t.busy);
