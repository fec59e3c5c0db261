/**
 * Schema migrations, applied in order; `PRAGMA user_version` holds how many have run. A migration is
 * never edited once released: a change to the schema is a new entry at the end.
 */
import type { DB } from '../sqlite.js';
import { StoreError } from '../errors.js';
import { changeTracking, normalizedStore } from './schema.js';
import { compactStore, playEnds, summarySpans } from './compact.js';
import { deriveEvents, scoreColumns } from './derived.js';
import { rowLayout } from './row-layout.js';
import { matchFacts } from './match-facts.js';
import { importantStreams } from './important-streams.js';
import { syncPlan } from './sync-plan.js';
import { packedRecords } from './packed-records.js';

/** SQL, or a step that needs code (compressing what is stored). */
export type Migration = string | ((db: DB) => void);

export const MIGRATIONS: readonly Migration[] = [
  normalizedStore,
  changeTracking,
  compactStore,
  deriveEvents,
  playEnds,
  scoreColumns,
  rowLayout,
  summarySpans,
  matchFacts,
  importantStreams,
  syncPlan,
  packedRecords,
];

/** Versions that rewrite whole tables: migrating across one leaves much free space, given back by VACUUM. */
export const REWRITES = [3, 7, 9, 10, 12];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Bring a store up to this code's schema, one migration per transaction. */
export function migrate(db: DB): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new StoreError(`store has schema version ${version}, newer than this build (${SCHEMA_VERSION})`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const step = MIGRATIONS[v]!;
    db.transaction(() => {
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  // A store migrated across a rewrite gives the space back once (VACUUM cannot run in a transaction).
  if (version > 0 && REWRITES.some((v) => version < v)) db.exec('VACUUM');
}
