/**
 * Schema 10: each play stream's important plays as a stream of their own beside it (important.ts
 * `importantStream`), so an important page inflates only them and is one slice, not a run per
 * stretch of the full stream. Before the full stream in the row: reading them walks no overflow page.
 */
import type { DB } from './db.js';
import type { StoredStream } from './important.js';
import { importantOfStored } from './important.js';
import { remake } from './row-layout.js';
import { eachRow } from './table-rows.js';

export function importantStreams(db: DB): void {
  const kept = 'league_slug, match_id, count, important, complete, hash, last_synced_at, snapshot, flags, ends, plays';
  remake(
    db,
    'play_streams',
    `league_slug     TEXT NOT NULL,
    match_id        TEXT NOT NULL,
    count           INTEGER NOT NULL,
    important       INTEGER NOT NULL DEFAULT 0, -- plays that are flagged or key events (important.ts)
    complete        INTEGER NOT NULL, -- every page of the provider's stream was stored
    hash            TEXT NOT NULL,
    last_synced_at  TEXT NOT NULL,
    snapshot        INTEGER NOT NULL DEFAULT 0,
    flags           TEXT,
    ends            BLOB,
    important_ends  BLOB,
    important_plays BLOB,
    plays           BLOB,
    PRIMARY KEY (league_slug, match_id)`,
    kept,
  );
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
