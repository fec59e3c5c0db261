/**
 * Snapshots (docs/publishing.md, "Incremental builds"): every sync that changes data is one, with
 * an id that grows by one and a log of what it changed, so a build or a client can ask "what
 * changed since N" without comparing content. The id is allocated when a sync starts and confirmed
 * when it ends with changes; a sync that changed nothing gives its id back.
 */
import type { DB } from './db.js';

/** The change log keeps at least this many snapshots; older entries are pruned. */
export const KEPT_SNAPSHOTS = 100;

export interface Snapshot {
  id: number;
  at: string;
}

/** What a change log row names (migrations.ts, table `changes`, says what each key is). */
export type ChangeKind =
  | 'match'
  /** A match's state (pre, in, post) changed, or the match is new: logged beside its `match` row. */
  | 'state'
  | 'day'
  /** The league's matches in kickoff order changed (a match is new, or its kickoff moved): key ''. */
  | 'order'
  | 'summary'
  /** Which of a match's plays are key events (its summary's list) changed: logged beside its `summary` row. */
  | 'key-events'
  | 'plays'
  | 'club'
  | 'roster'
  | 'catalogue'
  | 'league'
  | 'standings';

/** The kinds that mean one match changed (its record, summary or plays), and one club. */
export const MATCH_CHANGES: ReadonlySet<ChangeKind> = new Set(['match', 'summary', 'plays']);
export const CLUB_CHANGES: ReadonlySet<ChangeKind> = new Set(['club', 'roster']);

export interface ChangeRow {
  snapshot: number;
  /** A kind this code version does not know is possible in a store a newer one wrote. */
  kind: ChangeKind | (string & {});
  league: string;
  key: string;
}

export function beginSnapshot(db: DB): number {
  return db.transaction(() => {
    const next = (db.prepare('SELECT coalesce(max(id), 0) + 1 FROM snapshots').pluck().get() as number) ?? 1;
    db.prepare('INSERT INTO snapshots (id, at) VALUES (?, NULL)').run(next);
    return next;
  })();
}

/** Confirm a snapshot that changed data (and prune the log), or give back the id of one that did not. */
export function endSnapshot(db: DB, id: number, at: string, changed: boolean): void {
  if (!changed) {
    // Nothing was logged under it unless a unit changed data and then rolled back, which logs nothing.
    db.prepare('DELETE FROM snapshots WHERE id = ? AND NOT EXISTS (SELECT 1 FROM changes WHERE snapshot = ?)').run(
      id,
      id,
    );
    return;
  }
  db.prepare('UPDATE snapshots SET at = ? WHERE id = ?').run(at, id);
  db.prepare('DELETE FROM changes WHERE snapshot <= ?').run(id - KEPT_SNAPSHOTS);
  db.prepare('DELETE FROM snapshots WHERE id <= ?').run(id - KEPT_SNAPSHOTS);
}

const CONFIRMED = '(SELECT max(id) FROM snapshots WHERE at IS NOT NULL)';
const STATE = `SELECT coalesce((SELECT min(snapshot) FROM changes), 0) || ':' || coalesce(${CONFIRMED}, 0)
  || ':' || (SELECT count(*) FROM changes WHERE snapshot >= min(coalesce(${CONFIRMED}, 0),
    coalesce((SELECT min(id) FROM snapshots WHERE at IS NULL), 9e18)))`;

/** Reads of the log, for the build (what to re-render), the change feed, and a connection's state. */
export class SnapshotQueries {
  private readonly s;

  constructor(db: DB) {
    this.s = {
      current: db.prepare('SELECT id, at FROM snapshots WHERE at IS NOT NULL ORDER BY id DESC LIMIT 1'),
      byId: db.prepare('SELECT id, at FROM snapshots WHERE id = ? AND at IS NOT NULL'),
      oldest: db.prepare('SELECT min(id) FROM snapshots').pluck(),
      since: db.prepare(
        `SELECT snapshot, kind, league_slug AS league, key FROM changes WHERE snapshot > ?
         ORDER BY snapshot, kind, league_slug, key`,
      ),
      list: db.prepare('SELECT id, at FROM snapshots WHERE at IS NOT NULL AND id > ? ORDER BY id DESC LIMIT ?'),
      ofKinds: db.prepare(
        `SELECT snapshot, kind, league_slug AS league, key FROM changes WHERE snapshot = ? AND kind IN (SELECT value FROM json_each(?))
         ORDER BY kind, league_slug, key`,
      ),
      state: db.prepare(STATE).pluck(),
      nextKind: db.prepare('SELECT kind FROM changes WHERE snapshot = ? AND kind > ? ORDER BY kind LIMIT 1').pluck(),
      nextLeague: db
        .prepare(
          'SELECT league_slug FROM changes WHERE snapshot = ? AND kind = ? AND league_slug > ? ORDER BY league_slug LIMIT 1',
        )
        .pluck(),
    };
  }

  /**
   * What state of the store this connection sees, as a text to compare with another connection's:
   * every change to data comes with change-log rows, so two connections that see the same rows read
   * the same data. Rows are added only under snapshots not yet confirmed (syncs under way, above)
   * and taken away only when a confirmation prunes the oldest, so three figures tell the states
   * apart: the log's oldest snapshot, the latest confirmed one, and the rows from the lower of that
   * and the first unconfirmed one on. Index seeks, where counting the whole log would read all of
   * it, in a build's thread and its render worker's alike.
   */
  state(): string {
    return String(this.s.state.get());
  }

  /** The last completed snapshot, or null before the first sync that changed data. */
  current(): Snapshot | null {
    return (this.s.current.get() as Snapshot | undefined) ?? null;
  }

  byId(id: number): Snapshot | null {
    return (this.s.byId.get(id) as Snapshot | undefined) ?? null;
  }

  /**
   * Everything changed after snapshot `id` — including what a sync still running (or one that
   * crashed) has committed so far — or null when the log no longer reaches back that far.
   */
  changedSince(id: number): ChangeRow[] | null {
    const oldest = this.s.oldest.get() as number | null;
    if (oldest !== null && oldest > id + 1) return null;
    return this.s.since.all(id) as ChangeRow[];
  }

  /** Completed snapshots after `since`, newest first, at most `limit`. */
  list(since: number, limit: number): Snapshot[] {
    return this.s.list.all(since, limit) as Snapshot[];
  }

  /** What snapshot `id` changed, of these kinds only. */
  changesOfKinds(id: number, kinds: readonly string[]): ChangeRow[] {
    return this.s.ofKinds.all(id, JSON.stringify(kinds)) as ChangeRow[];
  }

  /**
   * The leagues snapshot `id` changed anything of. One index seek per kind and league, not a read of
   * every row: a first sync's snapshot has a row for each record of the store.
   */
  leaguesOf(id: number): string[] {
    const leagues = new Set<string>();
    const next = (kind: string) => this.s.nextKind.get(id, kind) as string | undefined;
    for (let kind = next(''); kind !== undefined; kind = next(kind)) {
      const after = (league: string) => this.s.nextLeague.get(id, kind, league) as string | undefined;
      for (let league = after(''); league !== undefined; league = after(league)) leagues.add(league);
    }
    return [...leagues];
  }

  oldest(): number | null {
    return this.s.oldest.get() as number | null;
  }
}
