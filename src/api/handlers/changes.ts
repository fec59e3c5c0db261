/**
 * /changes: the change feed (docs/json-api.md, "The change feed") — what each recent snapshot of
 * the store changed.
 */
import type { StoreReader } from '../../store/read/reader.js';
import type { ChangeKind } from '../../store/snapshots.js';
import { CLUB_CHANGES } from '../../store/snapshots.js';
import type { HandlerResult } from '../route.js';
import { compareText } from '../serialize/league.js';
import { RawJson } from '../raw-json.js';

/** Snapshots listed when the client gives no `since`. */
export const DEFAULT_FEED_LENGTH = 20;
/** More than the log keeps, so `since` always lists every kept snapshot after it. */
const MAX_FEED_LENGTH = 1000;

const byLeagueThenId = (a: { league: string; id: string }, b: { league: string; id: string }) =>
  compareText(a.league, b.league) || compareText(a.id, b.id);

function distinct<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

function describe(store: StoreReader, snapshot: number) {
  // Their values now, not then: a client polls to learn where things stand.
  const matches = new RawJson(store.matches.changedIn(snapshot));
  const others = store.snapshots.changesOfKinds(snapshot, [...CLUB_CHANGES, 'standings']);
  const clubs = distinct(
    others.filter((r) => CLUB_CHANGES.has(r.kind as ChangeKind)),
    (r) => `${r.league}\0${r.key}`,
  )
    .map((r) => ({ league: r.league, id: r.key }))
    .sort(byLeagueThenId);
  const standings = distinct(
    others.filter((r) => r.kind === 'standings'),
    (r) => `${r.league}\0${r.key}`,
  ).map((r) => ({ league: r.league, season: r.key }));
  const leagues = store.snapshots.leaguesOf(snapshot).sort(compareText);
  return { leagues, matches, clubs, standings };
}

export function changes(store: StoreReader, since: number | null): HandlerResult {
  const current = store.snapshots.current();
  const oldest = store.snapshots.oldest();
  // A `since` older than the log: list from the oldest snapshot kept, and say so.
  const truncated = since !== null && oldest !== null && since < oldest - 1;
  const list =
    since === null ? store.snapshots.list(0, DEFAULT_FEED_LENGTH) : store.snapshots.list(since, MAX_FEED_LENGTH);
  return {
    body: {
      snapshot: current,
      truncated,
      snapshots: list.map((s) => ({ id: s.id, at: s.at, ...describe(store, s.id) })),
    },
  };
}
