/**
 * Schema 9, a match's facts: the two things a summary reads of its match's record (the provider,
 * whether a competitor has statistics), stored beside it. Read out of the record's text, which
 * SQLite parses for each, they are a large share of a summary answer; from the columns, next to
 * nothing (docs/performance.md).
 */
import type { DB } from '../sqlite.js';
import { hasStatistics, providerOf } from '../columns.js';
import { insertColumns } from './row-layout.js';

/**
 * 9: the facts as columns among the small ones, before the match's event and record (row-layout.ts),
 * so reading them walks no overflow page.
 */
export function matchFacts(db: DB): void {
  insertColumns(db, 'matches', 'event_holes', [
    { definition: 'provider TEXT', value: providerOf('record_json'), comment: "the record's provider" },
    {
      definition: 'statistics INTEGER NOT NULL DEFAULT 0',
      value: hasStatistics('record_json'),
      comment: '1 when a competitor has statistics',
    },
  ]);
}
