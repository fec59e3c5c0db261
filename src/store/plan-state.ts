/**
 * The sync plan's memory (migrations/sync-plan.ts): small values by provider, league and key, each
 * with the time it was set. Written outside the sync's unit transactions: it records what the plan
 * did, not data, and losing a value only makes the plan ask once more.
 */
import type { DB } from './sqlite.js';

export interface PlanEntry {
  value: string;
  at: string;
}

export class PlanState {
  private readonly getStmt;
  private readonly setStmt;
  private readonly deleteStmt;
  private readonly listStmt;

  constructor(
    db: DB,
    readonly provider: string,
  ) {
    this.getStmt = db.prepare('SELECT value, at FROM sync_plan WHERE provider = ? AND league_slug = ? AND key = ?');
    this.setStmt = db.prepare(
      `INSERT INTO sync_plan (provider, league_slug, key, value, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (provider, league_slug, key) DO UPDATE SET value = excluded.value, at = excluded.at`,
    );
    this.deleteStmt = db.prepare('DELETE FROM sync_plan WHERE provider = ? AND league_slug = ? AND key = ?');
    this.listStmt = db.prepare(
      `SELECT key, value, at FROM sync_plan WHERE provider = ? AND league_slug = ? AND key >= ? AND key < ?
       ORDER BY key`,
    );
  }

  get(league: string, key: string): PlanEntry | undefined {
    return this.getStmt.get(this.provider, league, key) as PlanEntry | undefined;
  }

  set(league: string, key: string, value: string, at: string): void {
    this.setStmt.run(this.provider, league, key, value, at);
  }

  delete(league: string, key: string): void {
    this.deleteStmt.run(this.provider, league, key);
  }

  /** The league's entries whose key starts with `prefix`, in key order. */
  list(league: string, prefix: string): Array<PlanEntry & { key: string }> {
    // Every key with the prefix sorts between it and the prefix followed by the highest code point.
    return this.listStmt.all(this.provider, league, prefix, `${prefix}\u{10FFFF}`) as Array<
      PlanEntry & { key: string }
    >;
  }
}
