/**
 * What a build must render (docs/publishing.md, "Incremental builds"): everything, only what the
 * store's change log says changed since the published build's snapshot, or nothing at all.
 */
import { topicsOfChange } from '../../api/reads.js';
import { topic } from '../../api/reads.js';
import type { StoreReader } from '../../store/read/reader.js';
import type { BuildInfo } from '../../release/build-info.js';

export type BuildScope =
  | { kind: 'full'; reason: string }
  /**
   * Render what reads one of `topics`; reuse every other file of the published build. `matches`:
   * by league, the matches whose record changed.
   */
  | { kind: 'changes'; topics: ReadonlySet<string>; matches: ReadonlyMap<string, ReadonlySet<string>>; changes: number }
  /** Nothing the build depends on changed: the published build stands. */
  | { kind: 'none' };

/** `settings`: what else the output depends on (rule budget, fallback) besides code and store. */
export function buildScope(
  store: StoreReader,
  previous: BuildInfo | null,
  next: BuildInfo,
  full: boolean,
  sameSettings: boolean,
): BuildScope {
  if (full) return { kind: 'full', reason: '--full' };
  if (!previous) return { kind: 'full', reason: 'no published build' };
  if (previous.code !== next.code) return { kind: 'full', reason: 'another code version built the published one' };
  const was = previous.snapshot;
  if (was === null) return { kind: 'full', reason: 'the published build has no snapshot' };
  // The same id with another time is another store (or one rebuilt from scratch).
  const same = store.snapshots.byId(was.id);
  if (!same || same.at !== was.at) return { kind: 'full', reason: 'the store is not the one the build was made from' };
  const rows = store.snapshots.changedSince(was.id);
  if (rows === null) return { kind: 'full', reason: "the store's change log no longer reaches the published build" };
  const moved = next.snapshot?.id !== was.id;
  if (!rows.length && !moved && sameSettings) return { kind: 'none' };
  const topics = new Set<string>();
  if (rows.length || moved) topics.add(topic.any);
  const matches = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const t of topicsOfChange(row)) topics.add(t);
    if (row.kind === 'match') matches.get(row.league)?.add(row.key) ?? matches.set(row.league, new Set([row.key]));
  }
  return { kind: 'changes', topics, matches, changes: rows.length };
}
