/**
 * Stored event texts (schema 4): each match's event as the API lists it is written with its record,
 * with a hole for each club's catalogSource, and lists splice it in. These tests hold the stored
 * bytes to what serializing the record gives, whatever the league's catalogue says meanwhile.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { deriveEvents } from '../../src/store/migrations/derived.js';
import type { MatchRecord } from '../../src/store/records.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { sourceIn } from '../../src/store/shape/club.js';
import { eventBody, eventText, fillEvent } from '../../src/store/shape/event.js';
import { expectSameResponses, storeResponses } from '../api/helpers/prerendered.js';
import { demoStore } from '../publish/helpers.js';
import { storedRecord, unpackRecords } from '../helpers/store.js';

const joined = (pieces: Uint8Array[]) => Buffer.concat(pieces).toString('utf8');

function records(file: string): Array<{ league: string; record: MatchRecord; json: Buffer; holes: string }> {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare('SELECT league_slug, record, event_json, event_holes FROM matches ORDER BY rowid').all() as Array<{
        league_slug: string;
        record: Buffer;
        event_json: Buffer;
        event_holes: string;
      }>
    ).map((r) => ({
      league: r.league_slug,
      record: storedRecord(r.record),
      json: r.event_json,
      holes: r.event_holes,
    }));
  } finally {
    db.close();
  }
}

describe('stored event texts', () => {
  it('fill to exactly what serializing the record gives, for any catalogue', async () => {
    const file = await demoStore({ leagues: ['eng.1', 'jpn.1'], scale: 0.2 });
    const all = records(file);
    expect(all.length).toBeGreaterThan(100);
    for (const { record, json, holes } of all) {
      const [home, away] = record.competitors.map((c) => c.team.id);
      for (const catalogue of [new Set<string>(), new Set([home!]), new Set([away!]), new Set([home!, away!])]) {
        expect(joined(fillEvent(json, holes, catalogue)), record.id).toBe(
          JSON.stringify(eventBody(record, sourceIn(catalogue))),
        );
      }
    }
  });

  it('hold multi-byte text and any number of competitors', () => {
    const competitor = (id: string, name: string) => ({
      id,
      uid: null,
      homeAway: 'home',
      score: null,
      winner: null,
      form: null,
      team: { id, name, displayName: name, shortDisplayName: name },
      statistics: [],
    });
    const record = {
      id: '1',
      uid: null,
      date: '2026-03-21T12:00Z',
      name: 'Évian – Ñublense 😀 "quoted" \\ back',
      shortName: 'ÉVI @ ÑUB',
      season: null,
      status: { clock: 0, displayClock: "0'", period: 0, type: { name: 'S', state: 'pre', completed: false } },
      venue: null,
      competitors: [competitor('7', 'Évian 😀'), competitor('8', 'Ñublense'), competitor('9', 'Third ☃')],
    } as unknown as MatchRecord;
    const { json, holes } = eventText(record);
    expect(JSON.parse(holes)).toHaveLength(3);
    for (const catalogue of [new Set<string>(), new Set(['8']), new Set(['7', '9'])]) {
      expect(joined(fillEvent(json, holes, catalogue))).toBe(JSON.stringify(eventBody(record, sourceIn(catalogue))));
    }
    const none = { ...record, competitors: [] } as MatchRecord;
    const empty = eventText(none);
    expect(empty.holes).toBe('[]');
    expect(joined(fillEvent(empty.json, empty.holes, new Set()))).toBe(JSON.stringify(eventBody(none, () => 'x')));
  });

  it('are derived for a store of schema 3 with every response unchanged', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.3 });
    const before = storeResponses(file);
    expect([...before.keys()].filter((u) => /\/(fixtures|scoreboard)/.test(u)).length).toBeGreaterThan(50);
    const db = new Database(file);
    unpackRecords(db);
    db.exec('ALTER TABLE matches DROP COLUMN event_json');
    db.exec('ALTER TABLE matches DROP COLUMN event_holes');
    db.exec('ALTER TABLE play_streams DROP COLUMN ends');
    db.exec('DROP INDEX matches_scores'); // new in schema 7, which the migration rebuilds
    db.exec('ALTER TABLE matches DROP COLUMN home_score');
    db.exec('ALTER TABLE matches DROP COLUMN away_score');
    db.pragma('user_version = 3');
    db.close();
    expect(() => StoreReader.open(file)).toThrow(/schema version 3/);
    openStore(file).close();
    expectSameResponses(storeResponses(file), before);
  });

  it('left out of a store (the function’s slim store), are derived from the records: every list unchanged', async () => {
    const file = await demoStore({ leagues: ['eng.1'], scale: 0.3 });
    const lists = (url: string) => /\/(fixtures|scoreboard)/.test(url);
    const before = storeResponses(file, lists);
    expect(before.size).toBeGreaterThan(50);
    const db = new Database(file);
    db.exec(`UPDATE matches SET event_json = x'', event_holes = '[]'`);
    db.close();
    expectSameResponses(storeResponses(file, lists), before);
  });

  it('change shape only with a migration that derives them again', () => {
    // A change to the event shape (store/shape/event.ts, club.ts) leaves every stored text stale:
    // add a migration that runs deriveEvents again, then record its version and the new hash here.
    const record = {
      id: '42',
      uid: 's:600~e:42',
      date: '2026-03-21T15:00Z',
      name: 'A at B',
      shortName: 'A @ B',
      season: { year: 2025, type: 1, slug: 'regular-season' },
      status: { clock: 90, displayClock: "90'", period: 2, type: { name: 'F', state: 'post', completed: true } },
      venue: { id: '1', fullName: 'Ground', address: { city: 'Town', country: 'Land' } },
      competitors: [],
    } as unknown as MatchRecord;
    const e = eventText(record);
    const hash = createHash('sha1').update(e.json).update(e.holes).digest('hex').slice(0, 12);
    const derivedAt = MIGRATIONS.lastIndexOf(deriveEvents) + 1;
    expect({ derivedAt, shape: hash }).toEqual({ derivedAt: 4, shape: '2b34f92af363' });
  });
});
