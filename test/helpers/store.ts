import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/store/db.js';
import type { DB } from '../../src/store/db.js';
import { beginSnapshot, endSnapshot } from '../../src/store/snapshots.js';
import { packJson, unpackJson } from '../../src/store/blob.js';
import type { MatchRecord } from '../../src/store/records.js';
import { eventText } from '../../src/store/shape/event.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const RECORDED = path.join(ROOT, 'test/fixtures/recorded');
export const SHARED_ESPN = path.resolve(ROOT, '../shared/fixtures/espn');

const created: string[] = [];

/** A fresh directory under the OS temp dir, removed after the test file (see test/setup.ts). */
export function tempDir(prefix = 'fds-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export function tempStore(): { db: DB; file: string; dir: string } {
  const dir = tempDir();
  const file = path.join(dir, 'store.sqlite');
  return { db: openStore(file), file, dir };
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

/** Every content table as sorted rows, without run bookkeeping: equal dumps mean equal stores. */
export function dumpContent(db: DB, { withTimes = true } = {}): Record<string, unknown[]> {
  const tables = [
    'leagues',
    'clubs',
    'league_clubs',
    'players',
    'rosters',
    'matches',
    'match_summaries',
    'play_streams',
    'standings',
  ];
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const rows = db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[];
    out[t] = rows
      .map((r) => {
        if (!withTimes) delete r.last_synced_at;
        // A match's record as its JSON, as it was stored before schema 12 packed it.
        if (Buffer.isBuffer(r.record)) r.record = unpackJson(r.record);
        return JSON.stringify(r);
      })
      .sort();
  }
  // last_successful_sync_at is run bookkeeping (it moves on every clean run), like sync_state.
  out.store_meta = (db.prepare("SELECT * FROM store_meta WHERE key <> 'last_successful_sync_at'").all() as unknown[])
    .map((r) => JSON.stringify(r))
    .sort();
  return out;
}

/** A copy of the recorded fixtures that a test may damage. */
export function copyRecorded(): string {
  const dir = tempDir('fds-rec-');
  fs.cpSync(RECORDED, dir, { recursive: true });
  return dir;
}

/** A match's record as the store holds it: packed (schema 12, store/migrations/packed-records.ts). */
export function storedRecord<T = MatchRecord>(packed: Buffer | string): T {
  return JSON.parse(typeof packed === 'string' ? packed : unpackJson(packed)) as T;
}

/**
 * SQL functions over packed records on this connection, for a test that edits a record in SQL:
 * `record_text(record)` is its JSON, `packed_record(json)` the column's bytes for it, as in
 * `UPDATE matches SET record = packed_record(json_set(record_text(record), '$.name', ?))`.
 */
export function recordSql<D extends Pick<DB, 'function'>>(db: D): D {
  db.function('record_text', { deterministic: true }, (b: unknown) => unpackJson(b as Buffer));
  db.function('packed_record', { deterministic: true }, (t: unknown) => packJson(String(t)));
  return db;
}

/**
 * A store of this schema taken back to the layout before schema 12 (migrations/packed-records.ts):
 * each match's record as JSON text in `record_json`, for a test that marks a store older than it is
 * and lets the migrations from that version run again.
 */
export function unpackRecords(db: Pick<DB, 'exec' | 'prepare' | 'function'>): void {
  recordSql(db as DB);
  db.exec(`ALTER TABLE matches ADD COLUMN record_json TEXT NOT NULL DEFAULT ''`);
  db.exec('UPDATE matches SET record_json = record_text(record)');
  db.exec('ALTER TABLE matches DROP COLUMN record');
}

/**
 * Edit a store file as a sync would: the edit and the change-log rows that say what it touched
 * (kind, league, key — see src/store/migrations.ts), committed as one new snapshot, so an
 * incremental build sees exactly this change; the edit may use `recordSql`'s functions. An edit of a match record also
 * gets the event text the writer would store with it (store/shape/event.ts); a record the edit broke
 * on purpose keeps its old one.
 */
export function editStore(file: string, edit: (db: DB) => void, changes: Array<[string, string, string]>): number {
  const db = recordSql(openStore(file));
  try {
    const id = beginSnapshot(db);
    db.transaction(() => {
      edit(db);
      rederiveEvents(db);
      const log = db.prepare('INSERT OR IGNORE INTO changes (snapshot, kind, league_slug, key) VALUES (?, ?, ?, ?)');
      for (const [kind, league, key] of changes) log.run(id, kind, league, key);
      endSnapshot(db, id, new Date(Date.UTC(2030, 0, 1) + id * 60_000).toISOString().replace('.000', ''), true);
    })();
    return id;
  } finally {
    db.close();
  }
}

function rederiveEvents(db: DB): void {
  const set = db.prepare('UPDATE matches SET event_json = ?, event_holes = ? WHERE rowid = ?');
  for (const r of db.prepare('SELECT rowid, record FROM matches').all() as Array<{ rowid: number; record: Buffer }>) {
    let record: MatchRecord;
    try {
      record = storedRecord(r.record);
    } catch {
      continue;
    }
    const e = eventText(record);
    set.run(e.json, e.holes, r.rowid);
  }
}

/** Delete a match with its summary and plays, and log it as a writer deleting it would. */
export function deleteMatch(file: string, league: string, id: string, day: string): number {
  return editStore(
    file,
    (w) => {
      for (const table of ['play_streams', 'match_summaries'])
        w.prepare(`DELETE FROM ${table} WHERE league_slug = ? AND match_id = ?`).run(league, id);
      w.prepare('DELETE FROM matches WHERE league_slug = ? AND id = ?').run(league, id);
    },
    [
      ['match', league, id],
      ['day', league, day],
      ['order', league, ''],
    ],
  );
}

/** A match's stored play records, in match order (the stream is one compressed JSON array). */
export function storedPlays<T = Record<string, unknown>>(db: DB, league: string, match: string): T[] {
  const blob = db
    .prepare('SELECT plays FROM play_streams WHERE league_slug = ? AND match_id = ?')
    .pluck()
    .get(league, match);
  return blob ? (JSON.parse(unpackJson(blob as Buffer)) as T[]) : [];
}

/** A match's stored summary sections (one compressed JSON object), or undefined. */
export function storedSections<T = Record<string, unknown>>(db: DB, league: string, match: string): T | undefined {
  const blob = db
    .prepare('SELECT sections FROM match_summaries WHERE league_slug = ? AND match_id = ?')
    .pluck()
    .get(league, match);
  return blob ? (JSON.parse(unpackJson(blob as Buffer)) as T) : undefined;
}
