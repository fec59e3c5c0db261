/**
 * A plays page is one slice of a stored stream: the match's plays, or its important plays stored
 * beside them. The slice is exactly the page's plays as a JSON array lists them, without its brackets.
 */
import zlib from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { packJson, streamOf } from '../../src/store/blob.js';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { demoStore } from '../publish/helpers.js';

let file: string;
let store: StoreReader;
let match: { league: string; id: string };

beforeAll(async () => {
  file = await demoStore({ leagues: ['eng.1'] });
  store = StoreReader.open(file);
  // A match with plays, some of them not important, so its important plays skip over plays.
  match = store.db
    .prepare(
      `SELECT league_slug AS league, match_id AS id FROM play_streams
       WHERE count >= 20 AND important BETWEEN 3 AND count - 3 ORDER BY match_id LIMIT 1`,
    )
    .get() as { league: string; id: string };
  expect(match).toBeDefined();
});

const asArray = (slice: Buffer) => JSON.parse(`[${slice.toString('utf8')}]`) as unknown[];

/** Every play of the match as stored, parsed. */
function allPlays(): unknown[] {
  const { plays, count } = store.plays.page(match.league, match.id, false, 10_000, 0);
  const every = asArray(plays);
  expect(every).toHaveLength(count);
  return every;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('plays pages from the stored streams', () => {
  it('a page of all plays holds exactly that page', () => {
    const every = allPlays();
    const { plays, count } = store.plays.page(match.league, match.id, false, 7, 7);
    expect(count).toBe(every.length);
    expect(asArray(plays)).toEqual(every.slice(7, 14));
  });

  it('an important page lists exactly its plays, in the order of the match', () => {
    const every = allPlays();
    const whole = store.plays.page(match.league, match.id, true, 10_000, 0);
    const important = asArray(whole.plays);
    expect(important).toHaveLength(whole.count);
    expect(whole.count).toBeLessThan(every.length);
    // Each important play is one of the match's plays, in the stream's order, with gaps between some.
    const positions = important.map((p) => every.findIndex((q) => JSON.stringify(q) === JSON.stringify(p)));
    expect(positions.every((at, i) => at >= 0 && (i === 0 || at > positions[i - 1]!))).toBe(true);
    expect(positions.some((at, i) => i > 0 && at !== positions[i - 1]! + 1)).toBe(true);
    const page = store.plays.page(match.league, match.id, true, 2, 2);
    expect(asArray(page.plays)).toEqual(important.slice(2, 4));
  });

  it('a page past the last play is empty', () => {
    for (const important of [false, true]) {
      const { plays, count } = store.plays.page(match.league, match.id, important, 5, 100_000);
      expect(plays.length).toBe(0);
      expect(count).toBeGreaterThan(0);
    }
  });

  it('decodes a stream once for two pages of it read one after the other, as a build reads them', () => {
    // Streams are stored as Brotli (store/blob.ts).
    const inflate = vi.spyOn(zlib, 'brotliDecompressSync');
    const first = store.plays.page(match.league, match.id, false, 100, 0);
    const again = store.plays.page(match.league, match.id, false, 300, 0);
    expect(inflate).toHaveBeenCalledTimes(1);
    expect(again.plays.equals(first.plays)).toBe(true);
    // Taken once: a third read decodes it again.
    store.plays.page(match.league, match.id, false, 100, 0);
    expect(inflate).toHaveBeenCalledTimes(2);
  });

  it('answers a page from the stream stored now, not from the one decoded for the page before, when a sync replaced it in between', () => {
    // Another stream read first, so the one read next is decoded and kept, whatever came before.
    store.plays.page(match.league, match.id, true, 2, 0);
    const before = store.plays.page(match.league, match.id, false, 2, 0);
    expect(before.count).toBeGreaterThan(2);
    const replacement = [
      { id: 'a', text: 'replaced' },
      { id: 'b', text: 'too' },
    ];
    const { bytes, ends } = streamOf(replacement.map((p) => Buffer.from(JSON.stringify(p))));
    const writer = openStore(file);
    try {
      writer
        .prepare('UPDATE play_streams SET plays = ?, ends = ?, count = ? WHERE league_slug = ? AND match_id = ?')
        .run(packJson(bytes), ends, replacement.length, match.league, match.id);
    } finally {
      writer.close();
    }
    const after = store.plays.page(match.league, match.id, false, 2, 0);
    expect(after.count).toBe(2);
    expect(asArray(after.plays)).toEqual(replacement);
  });
});
