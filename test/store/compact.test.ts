/**
 * The compact store (schema 3): summaries and play streams are compressed, and a store of the
 * earlier, uncompressed layout migrates to it with every response byte-identical and the file smaller.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { spanAt, unpackBytes, unpackJson } from '../../src/store/blob.js';
import { flagsJsonOf } from '../../src/store/important.js';
import { expectSameResponses, storeResponses } from '../api/helpers/prerendered.js';
import { demoStore } from '../publish/helpers.js';
import { unpackRecords } from '../helpers/store.js';

/** Every pre-rendered response, and a few that are not, as url → bytes. */
const responses = (file: string) =>
  storeResponses(file, undefined, (store) => {
    const id = store.db.prepare("SELECT id FROM matches WHERE league_slug = 'eng.1' ORDER BY id LIMIT 1").pluck().get();
    return [
      `/get/soccer/eng.1/events/${id}/plays?limit=7&page=3`,
      `/get/soccer/eng.1/events/${id}/plays?important=true&limit=2&page=2`,
      `/get/soccer/eng.1/summary?event=${id}&fields=keyEvents,rosters,meta`,
    ];
  });

/** Rewrite a schema-3 store into the uncompressed layout of schema 2, as older versions wrote it. */
function decompact(file: string): void {
  const db = new Database(file);
  db.transaction(() => {
    unpackRecords(db);
    db.exec('ALTER TABLE match_summaries ADD COLUMN sections_json TEXT');
    const summaries = db.prepare('SELECT rowid, sections FROM match_summaries').all() as Array<{
      rowid: number;
      sections: Buffer;
    }>;
    const setJson = db.prepare('UPDATE match_summaries SET sections_json = ? WHERE rowid = ?');
    for (const r of summaries) setJson.run(unpackJson(r.sections), r.rowid);
    db.exec('ALTER TABLE match_summaries DROP COLUMN sections');
    db.exec(`CREATE TABLE plays (league_slug TEXT NOT NULL, match_id TEXT NOT NULL, sequence INTEGER NOT NULL,
      id TEXT NOT NULL, flagged INTEGER NOT NULL, record_json TEXT NOT NULL,
      UNIQUE (league_slug, match_id, sequence)) STRICT`);
    const insert = db.prepare('INSERT INTO plays VALUES (?, ?, ?, ?, ?, ?)');
    const streams = db.prepare('SELECT league_slug, match_id, plays, flags FROM play_streams').all() as Array<{
      league_slug: string;
      match_id: string;
      plays: Buffer;
      flags: string;
    }>;
    for (const s of streams) {
      const flags = JSON.parse(flagsJsonOf(s.flags)) as Array<[string, number]>;
      (JSON.parse(unpackJson(s.plays)) as unknown[]).forEach((p, i) => {
        insert.run(s.league_slug, s.match_id, i + 1, flags[i]![0], flags[i]![1], JSON.stringify(p));
      });
    }
    db.exec('ALTER TABLE play_streams DROP COLUMN plays');
    db.exec('ALTER TABLE play_streams DROP COLUMN flags');
    db.pragma('user_version = 2');
  })();
  db.exec('VACUUM');
  db.close();
}

describe('the compact store', () => {
  it('migrates a store of the uncompressed layout with every response unchanged, and smaller', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.3 });
    const before = responses(file);
    expect(before.size).toBeGreaterThan(300);
    decompact(file);
    const uncompressed = fs.statSync(file).size;
    expect(() => StoreReader.open(file)).toThrow(/schema version 2/);
    openStore(file).close();
    const compacted = fs.statSync(file).size;
    expect(compacted).toBeLessThan(uncompressed / 2);
    expectSameResponses(responses(file), before);
  });

  it('splices stored JSON into exactly the bytes parsing and re-serializing it would give', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.3 });
    const all = responses(file);
    let spliced = 0;
    for (const [url, body] of all) {
      if (!url.startsWith('/get/')) continue;
      expect(JSON.stringify(JSON.parse(body)), url).toBe(body);
      if (/\/events\/|\/summary/.test(url)) spliced++;
    }
    expect(spliced).toBeGreaterThan(100);
  });

  it('keeps a play stream as one compressed array with each play id, flag and end beside it', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.3 });
    const db = new Database(file, { readonly: true });
    const row = db.prepare('SELECT count, plays, flags, ends FROM play_streams WHERE count > 20 LIMIT 1').get() as {
      count: number;
      plays: Buffer;
      flags: string;
      ends: Buffer;
    };
    db.close();
    const plays = JSON.parse(unpackJson(row.plays)) as Array<{ id: string }>;
    expect(plays).toHaveLength(row.count);
    // Each stored end cuts out exactly one play's JSON.
    const bytes = unpackBytes(row.plays);
    const cut = plays.map((_, i) => {
      const [start, end] = spanAt(row.ends, i)!;
      return bytes.subarray(start, end).toString('utf8');
    });
    expect(cut).toEqual(plays.map((p) => JSON.stringify(p)));
    expect(spanAt(row.ends, row.count)).toBeUndefined();
    expect((JSON.parse(flagsJsonOf(row.flags)) as Array<[string, number]>).map(([id]) => id)).toEqual(
      plays.map((p) => p.id),
    );
    expect(row.plays.length).toBeLessThan(JSON.stringify(plays).length / 4);
  });
});
