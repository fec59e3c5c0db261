/**
 * Schema 12: a match's record stored packed (store/migrations/packed-records.ts). A store of
 * schema 11, its records as JSON text, is migrated with every response unchanged, and is smaller.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BROTLI_TAG, unpackJson } from '../../src/store/blob.js';
import { expectMigrated } from '../api/helpers/prerendered.js';
import { demoStore } from '../publish/helpers.js';

describe('packed match records', () => {
  it('are what a store from schema 11 is migrated to, every response unchanged and the store smaller', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.3 });
    let before = 0;
    let texts: string[] = [];
    expectMigrated({
      file,
      version: 11,
      undo: (db) => {
        // expectMigrated took the records back to text (unpackRecords); the store as schema 11 left it.
        texts = db.prepare('SELECT record_json FROM matches ORDER BY league_slug, id').pluck().all() as string[];
        db.exec('VACUUM');
        before = fs.statSync(file).size;
      },
      atLeast: 100,
      check: (db) => {
        const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('matches');
        expect(columns).not.toContain('record_json');
        const packed = db.prepare('SELECT record FROM matches ORDER BY league_slug, id').pluck().all() as Buffer[];
        expect(packed.every((b) => b[0] === BROTLI_TAG)).toBe(true);
        expect(packed.map((b) => unpackJson(b))).toEqual(texts);
      },
    });
    expect(texts.length).toBeGreaterThan(50);
    expect(fs.statSync(file).size).toBeLessThan(before);
  });

  it('is how a sync stores them', async () => {
    const db = new Database(await demoStore({ leagues: ['eng.1'], scale: 0.1 }), { readonly: true });
    const packed = db.prepare('SELECT record FROM matches').pluck().all() as Buffer[];
    expect(packed.length).toBeGreaterThan(10);
    for (const b of packed) expect(JSON.parse(unpackJson(b)).competitors).toHaveLength(2);
    db.close();
  });
});
