/**
 * A plays page is read as runs of neighbouring plays, each one slice of the stored stream: joined by
 * commas, the runs are exactly the page's plays as a JSON array lists them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { StoreReader } from '../../src/store/read/reader.js';
import { demoStore } from '../publish/helpers.js';

let store: StoreReader;
let match: { league: string; id: string };

beforeAll(async () => {
  store = StoreReader.open(await demoStore({ leagues: ['eng.1'] }));
  // A match with plays, some of them not important, so an important page skips over plays.
  match = store.db
    .prepare(
      `SELECT league_slug AS league, match_id AS id FROM play_streams
       WHERE count >= 20 AND important BETWEEN 3 AND count - 3 ORDER BY match_id LIMIT 1`,
    )
    .get() as { league: string; id: string };
  expect(match).toBeDefined();
});

/** Every play of the match as stored, parsed. */
function allPlays(): unknown[] {
  const { runs, count } = store.plays.page(match.league, match.id, false, 10_000, 0);
  const plays = JSON.parse(`[${runs.map((r) => r.toString('utf8')).join(',')}]`) as unknown[];
  expect(plays).toHaveLength(count);
  return plays;
}

const asArray = (runs: Buffer[]) => JSON.parse(`[${runs.map((r) => r.toString('utf8')).join(',')}]`) as unknown[];

describe('plays pages from the stored stream', () => {
  it('a page of all plays is a single slice holding exactly that page', () => {
    const every = allPlays();
    const { runs, count } = store.plays.page(match.league, match.id, false, 7, 7);
    expect(count).toBe(every.length);
    expect(runs).toHaveLength(1);
    expect(asArray(runs)).toEqual(every.slice(7, 14));
  });

  it('an important page is cut into runs where it skips plays, and lists exactly its plays in order', () => {
    const every = allPlays();
    const whole = store.plays.page(match.league, match.id, true, 10_000, 0);
    const important = asArray(whole.runs);
    expect(important).toHaveLength(whole.count);
    expect(whole.count).toBeLessThan(every.length);
    // Each important play is one of the match's plays, in the stream's order.
    const positions = important.map((p) => every.findIndex((q) => JSON.stringify(q) === JSON.stringify(p)));
    expect(positions.every((at, i) => at >= 0 && (i === 0 || at > positions[i - 1]!))).toBe(true);
    // A run per stretch of neighbours in the stream.
    const stretches = positions.filter((at, i) => i === 0 || at !== positions[i - 1]! + 1).length;
    expect(stretches).toBeGreaterThan(1);
    expect(whole.runs).toHaveLength(stretches);
    const page = store.plays.page(match.league, match.id, true, 2, 2);
    expect(asArray(page.runs)).toEqual(important.slice(2, 4));
  });

  it('a page past the last play is empty', () => {
    const { runs, count } = store.plays.page(match.league, match.id, false, 5, 100_000);
    expect(runs).toEqual([]);
    expect(count).toBeGreaterThan(0);
  });
});
