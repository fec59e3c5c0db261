/**
 * Columns derived from a match's record and stored beside it, so that lists splice stored text and
 * the change feed reads no record: each match's event as the API lists it (4) and its scores (6).
 */
import type { DB } from '../sqlite.js';
import type { MatchRecord } from '../records.js';
import { eventText } from '../shape/event.js';
import { AWAY_SCORE, HOME_SCORE } from '../columns.js';
import { columnsOf, eachRow } from './table-rows.js';

/**
 * 4: each match's event as the API lists it, stored beside its record (shape/event.ts), so that
 * scoreboards and fixtures splice stored text. Derived with the code's shape: a change to that shape
 * is a new migration that derives every event again (test/store/event-text.test.ts holds it to that).
 */
export function deriveEvents(db: DB): void {
  if (!columnsOf(db, 'matches').includes('event_json')) {
    db.exec(`ALTER TABLE matches ADD COLUMN event_json BLOB NOT NULL DEFAULT x''`);
    db.exec(`ALTER TABLE matches ADD COLUMN event_holes TEXT NOT NULL DEFAULT '[]'`);
  }
  const set = db.prepare('UPDATE matches SET event_json = ?, event_holes = ? WHERE rowid = ?');
  eachRow<{ rowid: number; record_json: string }>(db, 'matches', 'record_json', (r) => {
    const e = eventText(JSON.parse(r.record_json) as MatchRecord);
    set.run(e.json, e.holes, r.rowid);
  });
}

/**
 * 6: each match's scores beside its record, so the change feed lists thousands of matches without
 * reading their records. Typed ANY: the feed gives a score as the record has it, text or number.
 */
export function scoreColumns(db: DB): void {
  if (!columnsOf(db, 'matches').includes('home_score')) {
    db.exec('ALTER TABLE matches ADD COLUMN home_score ANY');
    db.exec('ALTER TABLE matches ADD COLUMN away_score ANY');
  }
  db.exec(`UPDATE matches SET home_score = record_json ${HOME_SCORE}, away_score = record_json ${AWAY_SCORE}`);
}
