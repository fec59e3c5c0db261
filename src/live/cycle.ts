/**
 * One cycle of `fds live`: sync the store at one instant, then build and publish what changed, then
 * start purging the shared caches of what that changed (without waiting for it). The server picks
 * the new release up by itself (server/static-lookup.ts), so a cycle never touches it.
 */
import path from 'node:path';
import type { DB } from '../store/db.js';
import type { StoreReader } from '../store/read/reader.js';
import { build } from '../netlify/build.js';
import type { NetlifyBuildSummary as BuildSummary } from '../netlify/build.js';
import type { Provider } from '../sync/provider.js';
import { failureReasons, runSync } from '../sync/run-sync.js';
import type { SyncReport, UnitResult } from '../sync/run-sync.js';
import { isoSeconds } from '../util/time.js';
import type { Purger } from '../purge/purger.js';
import type { PurgeReport } from '../purge/report.js';
import { formatPurgeReport } from '../purge/report.js';
import { upstreamLine } from '../sync/upstream-line.js';

export interface CycleDeps {
  /** The writable store the syncs write to, and a reader on the same file for the builds. */
  db: DB;
  reader: StoreReader;
  out: string;
  workers?: number;
  /** Where the release's rules send what has no file (publish/rules: a Netlify Function or an origin URL). */
  fallback?: string;
  /** Purges the tags of each publish's changed answers (`--purge`); none: no purging. */
  purger?: Purger | null;
  leagues: readonly string[];
  concurrency: number;
  signal?: AbortSignal;
  onPlanned?: (n: number) => void;
  onUnit?: (r: UnitResult) => void;
}

export interface CycleReport {
  /** The instant the cycle synced at (the demo clock, or the time). */
  at: Date;
  sync: SyncReport;
  syncSeconds: number;
  /** null: not built, because the loop was stopped during the sync. */
  build: BuildSummary | null;
  seconds: number;
  /**
   * The purge this cycle started (with the tags of what it published, and whatever earlier ones left
   * pending), settling with its report within the purger's wait; null without a purger. Not part
   * of the cycle's time: the cycle is over before it settles.
   */
  purge: Promise<PurgeReport> | null;
}

export async function runCycle(deps: CycleDeps, provider: Provider, at: Date): Promise<CycleReport> {
  const started = performance.now();
  const sync = await runSync(deps.db, provider, {
    leagues: deps.leagues,
    concurrency: deps.concurrency,
    clock: () => at,
    signal: deps.signal,
    onPlanned: deps.onPlanned,
    onUnit: deps.onUnit,
  });
  const syncSeconds = (performance.now() - started) / 1000;
  const summary = deps.signal?.aborted
    ? null
    : await build({
        ...{ store: deps.reader, out: deps.out, workers: deps.workers, fallback: deps.fallback },
        // The loop answers from its own server: it deploys nothing to Netlify.
        functionPackage: false,
      });
  const seconds = (performance.now() - started) / 1000;
  // Pending tags of earlier cycles go too, published or not: a target that was down gets them sooner.
  const purge = deps.purger ? deps.purger.purge(summary?.changedTags ?? []) : null;
  return { at, sync, syncSeconds, build: summary, seconds, purge };
}

const secs = (s: number) => `${s.toFixed(1)}s`;

/**
 * The one line a cycle prints: clock, what the sync changed, what the build rendered and wrote,
 * seconds; then, given its purge's report, what that purged (or why not) — left out when there was
 * nothing to purge and nothing is pending.
 */
export function cycleLine(n: number, r: CycleReport, purged?: PurgeReport | null): string {
  const { sync } = r;
  const units = sync.units.ok + sync.units.failed + sync.units.unavailable;
  const failed = sync.units.failed ? `, ${sync.units.failed} FAILED (${failureReasons(sync.failures)})` : '';
  const stopped = sync.aborted ? ', stopped early' : '';
  const synced = `sync ${units} units, ${sync.written} records changed${failed}${stopped} in ${secs(r.syncSeconds)}`;
  const b = r.build;
  const built = !b
    ? 'not built'
    : b.mode === 'unchanged' || !b.published
      ? `build: nothing to publish, ${path.basename(b.release)} stays in ${secs(b.seconds)}`
      : `build ${b.rendered} rendered, ${b.added + b.changed} written, ${b.deleted} deleted, ` +
        `published ${path.basename(b.release)} in ${secs(b.seconds)}`;
  const purge = purged ? formatPurgeReport(purged) : null;
  const tail = purge && purge !== NOTHING_TO_PURGE ? `; ${purge}` : '';
  const upstream = sync.upstream ? `; ${upstreamLine(sync.upstream)}` : '';
  return `cycle ${n} at ${isoSeconds(r.at)}: ${synced}; ${built}; ${secs(r.seconds)} in all${upstream}${tail}`;
}

/** formatPurgeReport's line when every target is idle and had nothing to send. */
const NOTHING_TO_PURGE = 'purge: nothing to purge';
