/** Walking a table in a migration (migrations.ts, row-layout.ts). */
import type { DB } from '../sqlite.js';

/** Every row of `table` with its rowid and `column`, read in batches (a whole table would not fit in memory). */
export function eachRow<R extends { rowid: number }>(
  db: DB,
  table: string,
  column: string,
  fn: (row: R) => void,
): void {
  const rows = db.prepare(`SELECT rowid, ${column} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT 256`);
  for (let last = 0; ; ) {
    const batch = rows.all(last) as R[];
    if (!batch.length) break;
    for (const r of batch) fn(r);
    last = batch.at(-1)!.rowid;
  }
}

/** A table's column names, in order. */
export const columnsOf = (db: DB, table: string): string[] =>
  db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
