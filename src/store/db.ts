/** Opening the store: one SQLite file in WAL mode, migrated to the current schema on open. */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { LEAGUES, leagueLogo } from '../reference/leagues.js';
import { SCHEMA_VERSION, migrate } from './migrations/index.js';
import type { DB } from './sqlite.js';
import { StoreError } from './errors.js';

export type { DB } from './sqlite.js';
export { StoreError } from './errors.js';

export interface OpenOptions {
  readonly?: boolean;
  /**
   * Read up to this many bytes of a read-only store through a memory map instead of copies into
   * SQLite's page cache (default 0: none). The mapped pages are the OS's file cache, but they count
   * in the process's resident memory, so only a long-lived reader (the server) asks for it.
   */
  mapBytes?: number;
}

export function openStore(file: string, opts: OpenOptions = {}): DB {
  if (opts.readonly) {
    if (!fs.existsSync(file)) throw new StoreError(`no store at ${file} (run \`fds sync\` first)`);
    const db = new Database(file, { readonly: true, fileMustExist: true });
    if (opts.mapBytes) db.pragma(`mmap_size = ${Math.max(0, Math.floor(opts.mapBytes))}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      db.close();
      throw new StoreError(
        `store ${file} has schema version ${version}, this build reads ${SCHEMA_VERSION} (run \`fds sync\` to migrate)`,
      );
    }
    return db;
  }
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  seedLeagues(db);
  return db;
}

/** The 16 leagues exist in every store, synced or not; reference fields follow the code's catalogue. */
function seedLeagues(db: DB): void {
  const upsert = db.prepare(`
    INSERT INTO leagues (slug, espn_id, name, abbreviation, country, kind, logo)
    VALUES (@slug, @espnId, @name, @abbreviation, @country, @kind, @logo)
    ON CONFLICT (slug) DO UPDATE SET name = excluded.name, abbreviation = excluded.abbreviation,
      country = excluded.country, kind = excluded.kind
    WHERE leagues.name IS NOT excluded.name OR leagues.abbreviation IS NOT excluded.abbreviation
      OR leagues.country IS NOT excluded.country OR leagues.kind IS NOT excluded.kind`);
  db.transaction(() => {
    for (const l of LEAGUES) upsert.run({ ...l, logo: leagueLogo(l) });
  })();
}

/** store_meta keys: the snapshot time, the end of the last sync without failures, the provider. */
export const META_SNAPSHOT_AT = 'snapshot_at';
export const META_LAST_SUCCESS = 'last_successful_sync_at';
export const META_PROVIDER = 'provider';

export function getMeta(db: DB, key: string): string | null {
  const row = db.prepare('SELECT value FROM store_meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setMeta(db: DB, key: string, value: string): void {
  db.prepare(
    'INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}

/**
 * A small page cache (2 MB, not the 16 MB each connection gets by default) for a connection that
 * reads each page about once, as a build's do, its workers' and its own: the operating system
 * caches the file anyway. Returns what puts the previous size back.
 */
export function smallPageCache(db: DB): () => void {
  const before = db.pragma('cache_size', { simple: true }) as number;
  db.pragma('cache_size = -2000');
  return () => db.pragma(`cache_size = ${before}`);
}
