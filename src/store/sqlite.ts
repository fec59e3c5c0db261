/** The connection every store module takes: better-sqlite3's, named once so no module needs db.ts for it. */
import type Database from 'better-sqlite3';

export type DB = Database.Database;
