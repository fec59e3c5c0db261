/**
 * The read side of the store: every query the API makes, as prepared statements over one
 * connection (read-only when serving). Derived aggregates (coverage, totals, catalogues) are
 * memoized until another connection commits, which SQLite reports through `PRAGMA data_version`.
 */
import path from 'node:path';
import type { DB } from '../db.js';
import { META_LAST_SUCCESS, META_PROVIDER, META_SNAPSHOT_AT, getMeta, openStore } from '../db.js';
import { ClubQueries } from './clubs.js';
import { LeagueQueries } from './leagues.js';
import { MatchQueries } from './matches.js';
import { PlayQueries } from './plays.js';
import { StandingsQueries } from './standings.js';
import { SnapshotQueries } from '../snapshots.js';
import type { Coverage, LeagueRow, StoreTotals } from './types.js';

export interface StoreMeta {
  snapshotAt: string | null;
  lastSuccessfulSyncAt: string | null;
  provider: string | null;
}

export class StoreReader {
  readonly leagues: LeagueQueries;
  readonly matches: MatchQueries;
  readonly plays: PlayQueries;
  readonly clubs: ClubQueries;
  readonly standings: StandingsQueries;
  readonly snapshots: SnapshotQueries;
  private readonly memo = new Map<string, unknown>();
  private dataVersion = -1;
  private readonly version;
  private readonly ping;
  private readonly beginTx;
  private readonly commitTx;

  constructor(
    readonly db: DB,
    /** How health names the store: the file's base name. */
    readonly name: string = path.basename(db.name),
  ) {
    this.leagues = new LeagueQueries(db);
    this.matches = new MatchQueries(db);
    this.plays = new PlayQueries(db);
    this.clubs = new ClubQueries(db);
    this.standings = new StandingsQueries(db);
    this.snapshots = new SnapshotQueries(db);
    this.version = db.prepare('PRAGMA data_version').pluck();
    this.ping = db.prepare('SELECT COUNT(*) FROM store_meta').pluck();
    // Prepared once: `exec` compiles its SQL on every call, twice per request.
    this.beginTx = db.prepare('BEGIN');
    this.commitTx = db.prepare('COMMIT');
  }

  /** Open a store file for serving: read-only, and refusing a store of another schema version. */
  static open(file: string, opts: { mapBytes?: number } = {}): StoreReader {
    return new StoreReader(openStore(file, { readonly: true, mapBytes: opts.mapBytes }));
  }

  /**
   * Run a render's reads in one read transaction, so a sync committing meanwhile cannot give one
   * response two states of the store.
   */
  read<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    this.beginTx.run();
    try {
      // A deferred transaction takes its snapshot at the first read: take it before asking whether
      // the memos are still current, so they are judged against the data this render will see.
      this.ping.get();
      this.refresh();
      return fn();
    } finally {
      if (this.db.inTransaction) this.commitTx.run();
    }
  }

  /**
   * Open a read transaction that the caller ends (a build reads the whole store in one): its
   * snapshot is taken now, and the memos are judged against it — a reader kept open across syncs
   * (`fds live`) must not carry aggregates over from an earlier state.
   */
  begin(): void {
    this.db.exec('BEGIN');
    this.ping.get();
    this.refresh();
  }

  /** Throws unless the store answers a query now. */
  check(): void {
    this.ping.get();
  }

  meta(): StoreMeta {
    return this.cached('meta', () => ({
      snapshotAt: getMeta(this.db, META_SNAPSHOT_AT),
      lastSuccessfulSyncAt: getMeta(this.db, META_LAST_SUCCESS),
      provider: getMeta(this.db, META_PROVIDER),
    }));
  }

  coverage(slug: string): Coverage {
    const all = this.cached('coverage', () => this.leagues.coverage());
    return all.get(slug) ?? { matches: 0, clubs: 0, dedicatedClubs: 0, standingsGroups: 0, hasData: false };
  }

  totals(): StoreTotals {
    return this.cached('totals', () => this.leagues.totals());
  }

  /**
   * A league's row, read once per state of the store: every answer about a league asks for it, and
   * a query per request cost a dynamic answer ~3 % of its rate. A slug the store lacks is not
   * remembered (slugs are the client's to choose).
   */
  league(slug: string): LeagueRow | undefined {
    return this.cached(`league:${slug}`, () => this.leagues.bySlug(slug));
  }

  /** Ids of the clubs in a league's own catalogue (league_clubs). */
  catalogue(slug: string): ReadonlySet<string> {
    return this.cached(`catalogue:${slug}`, () => this.clubs.catalogueIds(slug));
  }

  close(): void {
    this.db.close();
  }

  private refresh(): void {
    const v = this.version.get() as number;
    if (v !== this.dataVersion) {
      this.memo.clear();
      this.dataVersion = v;
    }
  }

  /** `compute`'s value until the store changes; `undefined` is not remembered. */
  private cached<T>(key: string, compute: () => T): T {
    if (!this.db.inTransaction) this.refresh();
    const held = this.memo.get(key);
    if (held !== undefined) return held as T;
    const value = compute();
    if (value !== undefined) this.memo.set(key, value);
    return value;
  }
}
