/**
 * Schema 10: each play stream's important plays as a stream of their own beside it (important.ts
 * `importantStream`), so an important page inflates only them and is one slice, not a run per
 * stretch of the full stream. Before the full stream in the row: reading them walks no overflow page.
 */
import type { DB } from '../sqlite.js';
import type { StoredStream } from '../important.js';
import { importantOfStored } from '../important.js';
import { insertColumns } from './row-layout.js';
import { eachRow } from './table-rows.js';

export function importantStreams(db: DB): void {
  insertColumns(db, 'play_streams', 'plays', [
    { definition: 'important_ends BLOB', value: 'NULL' },
    { definition: 'important_plays BLOB', value: 'NULL' },
  ]);
  const keyEvents = db
    .prepare('SELECT key_event_ids FROM match_summaries WHERE league_slug = ? AND match_id = ?')
    .pluck();
  const set = db.prepare(
    'UPDATE play_streams SET important = ?, important_plays = ?, important_ends = ? WHERE rowid = ?',
  );
  type Row = StoredStream & { rowid: number; league_slug: string; match_id: string };
  eachRow<Row>(db, 'play_streams', 'league_slug, match_id, flags, ends, plays', (r) => {
    const ids = (keyEvents.get(r.league_slug, r.match_id) as string | undefined) ?? null;
    const key = importantOfStored(r, ids);
    if (key) set.run(key.count, key.plays, key.ends, r.rowid);
  });
}
