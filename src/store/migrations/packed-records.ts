/**
 * Schema 12: a match's record stored packed (store/blob.ts), as its summary and plays are. At ESPN's
 * weight a record is ~5 KB of JSON (competitors with their statistics, details, odds, broadcasts):
 * kept as text, the records were 26 of a scale-1 store's 180 MB and kept it above 1.2 × the gzip
 * size of what it holds (contract §2.4). A record is read for one match at a time (a summary's
 * header, a sync's merge), never for a list, whose events are stored beside it as they are spliced
 * (derived.ts), so packing it costs no list anything.
 */
import type { DB } from '../sqlite.js';
import { packJson } from '../blob.js';
import { insertColumns } from './row-layout.js';
import { columnsOf, eachRow } from './table-rows.js';

export function packedRecords(db: DB): void {
  // Last among the large columns, where the text was (row-layout.ts: what lists read comes first).
  insertColumns(db, 'matches', 'record_json', [
    { definition: "record BLOB NOT NULL DEFAULT x''", value: "x''", comment: 'MatchRecord, packed (blob.ts)' },
  ]);
  if (!columnsOf(db, 'matches').includes('record_json')) return;
  const set = db.prepare('UPDATE matches SET record = ? WHERE rowid = ?');
  eachRow<{ rowid: number; record_json: string }>(db, 'matches', 'record_json', (r) => {
    set.run(packJson(r.record_json), r.rowid);
  });
  db.exec('ALTER TABLE matches DROP COLUMN record_json');
}
