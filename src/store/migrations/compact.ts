/**
 * The compact store (docs/performance.md): summaries and play streams as compressed JSON texts (3),
 * with where each play ends (5) and where each summary section lies (8) stored beside them, so
 * nothing is scanned to be sliced.
 */
import type { DB } from '../sqlite.js';
import { packEnds, packJson, packSpans, unpackBytes } from '../blob.js';
import { arraySpans } from '../../util/json-spans.js';
import { columnsOf, eachRow } from './table-rows.js';

/**
 * 3: a compact store (docs/performance.md). A summary's sections and a match's whole play stream
 * are each one compressed JSON text; a stream keeps, beside it, each play's id and whether it is
 * flagged, so the important filter and the counts need no decompression of anything else.
 */
export function compactStore(db: DB): void {
  db.exec('ALTER TABLE match_summaries ADD COLUMN sections BLOB');
  const summaries = db.prepare(
    'SELECT rowid, sections_json FROM match_summaries WHERE rowid > ? ORDER BY rowid LIMIT 256',
  );
  const setSections = db.prepare('UPDATE match_summaries SET sections = ? WHERE rowid = ?');
  for (let last = 0; ; ) {
    const rows = summaries.all(last) as Array<{ rowid: number; sections_json: string }>;
    if (!rows.length) break;
    for (const r of rows) setSections.run(packJson(r.sections_json), r.rowid);
    last = rows.at(-1)!.rowid;
  }
  db.exec('ALTER TABLE match_summaries DROP COLUMN sections_json');

  db.exec('ALTER TABLE play_streams ADD COLUMN plays BLOB');
  db.exec('ALTER TABLE play_streams ADD COLUMN flags TEXT');
  const streams = db.prepare(
    'SELECT rowid, league_slug, match_id FROM play_streams WHERE rowid > ? ORDER BY rowid LIMIT 256',
  );
  const playsOf = db.prepare(
    'SELECT id, flagged, record_json FROM plays WHERE league_slug = ? AND match_id = ? ORDER BY sequence',
  );
  const setPlays = db.prepare('UPDATE play_streams SET plays = ?, flags = ? WHERE rowid = ?');
  for (let last = 0; ; ) {
    const rows = streams.all(last) as Array<{ rowid: number; league_slug: string; match_id: string }>;
    if (!rows.length) break;
    for (const r of rows) {
      const plays = playsOf.all(r.league_slug, r.match_id) as Array<{
        id: string;
        flagged: number;
        record_json: string;
      }>;
      const text = `[${plays.map((p) => p.record_json).join(',')}]`;
      setPlays.run(packJson(text), JSON.stringify(plays.map((p) => [p.id, p.flagged])), r.rowid);
    }
    last = rows.at(-1)!.rowid;
  }
  db.exec('DROP TABLE plays');
}

/** 5: where each play ends in its match's stream (store/blob.ts packEnds), so pages need no scan. */
export function playEnds(db: DB): void {
  if (!columnsOf(db, 'play_streams').includes('ends')) db.exec('ALTER TABLE play_streams ADD COLUMN ends BLOB');
  const set = db.prepare('UPDATE play_streams SET ends = ? WHERE rowid = ?');
  eachRow<{ rowid: number; plays: Buffer }>(db, 'play_streams', 'plays', (r) => {
    set.run(packEnds(arraySpans(unpackBytes(r.plays)).map(([start, end]) => end - start)), r.rowid);
  });
}

/**
 * 8: where each of a summary's sections lies in its JSON (blob.ts packSpans), beside it, so a summary
 * is not scanned on every render. After the sections: only what reads them reads it, and they have
 * walked their overflow pages by then.
 */
export function summarySpans(db: DB): void {
  if (!columnsOf(db, 'match_summaries').includes('section_spans')) {
    db.exec('ALTER TABLE match_summaries ADD COLUMN section_spans TEXT');
  }
  const set = db.prepare('UPDATE match_summaries SET section_spans = ? WHERE rowid = ?');
  eachRow<{ rowid: number; sections: Buffer | null }>(db, 'match_summaries', 'sections', (r) => {
    if (r.sections) set.run(packSpans(unpackBytes(r.sections)), r.rowid);
  });
}
