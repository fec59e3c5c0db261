/**
 * The store the API tests read: the project's recorded responses (eng.1) plus test/fixtures/api-extra
 * (esp.1), synced with fixed clocks so every timestamp in a response is known.
 */
import path from 'node:path';
import { openStore } from '../../../src/store/db.js';
import { StoreReader } from '../../../src/store/read/reader.js';
import { runSync } from '../../../src/sync/run-sync.js';
import { FilesProvider } from '../../../src/sync/providers/files.js';
import { LEAGUE_SLUGS } from '../../../src/reference/leagues.js';
import { RECORDED, ROOT, tempDir } from '../../helpers/store.js';

export const API_EXTRA = path.join(ROOT, 'test/fixtures/api-extra');
/** The second sync's end: the store's snapshot time, hence every response's generatedAt. */
export const SNAPSHOT_AT = '2026-03-22T16:00:00Z';
/** What the API's clock says during the tests: the date-less scoreboard shows 2026-03-21. */
export const NOW = new Date('2026-03-21T12:00:00Z');
export const clock = () => NOW;

const fixed = (iso: string) => () => new Date(iso);

export async function buildApiStore(dir = tempDir('fds-api-')): Promise<string> {
  const file = path.join(dir, 'api.sqlite');
  const db = openStore(file);
  try {
    await runSync(db, new FilesProvider(RECORDED), {
      leagues: LEAGUE_SLUGS,
      concurrency: 4,
      clock: fixed('2026-03-22T15:00:00Z'),
    });
    await runSync(db, new FilesProvider(API_EXTRA), {
      leagues: LEAGUE_SLUGS,
      concurrency: 4,
      clock: fixed(SNAPSHOT_AT),
    });
  } finally {
    db.close();
  }
  return file;
}

/** A store that was created but never synced: the 16 leagues and nothing else. */
export function buildEmptyStore(dir = tempDir('fds-empty-')): string {
  const file = path.join(dir, 'empty.sqlite');
  openStore(file).close();
  return file;
}

export function openReader(file: string): StoreReader {
  return StoreReader.open(file);
}
