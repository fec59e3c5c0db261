/**
 * An event summary's header is the stored one with the league record put in: spliced into the stored
 * bytes rather than parsed and written again. Both must give the same bytes; and the facts a summary
 * reads of its match out of SQLite must be what parsing the record gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withLeague } from '../../src/api/handlers/summary.js';
import { serializeWithRaw } from '../../src/api/raw-json.js';
import type { LeagueRefBody } from '../../src/api/serialize/league.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { demoStore } from '../publish/helpers.js';
import { storedRecord } from '../helpers/store.js';

const LEAGUE: LeagueRefBody = {
  id: '700',
  uid: 's:600~l:700',
  name: 'Premier League',
  abbreviation: 'EPL',
  slug: 'eng.1',
  country: 'England',
  kind: 'club',
  logo: null,
  season: { year: 2025, displayName: '2025-26' },
  active: true,
};

/** The rule as it was written on objects: replace `league`, else insert it after season, uid, id or the last member. */
function parsedWithLeague(header: Record<string, unknown>, league: LeagueRefBody): Record<string, unknown> {
  if ('league' in header)
    return Object.fromEntries(Object.entries(header).map(([k, v]) => [k, k === 'league' ? league : v]));
  const entries = Object.entries(header);
  const at =
    ['season', 'uid', 'id'].map((k) => entries.findIndex(([key]) => key === k)).find((i) => i >= 0) ??
    entries.length - 1;
  entries.splice(at + 1, 0, ['league', league]);
  return Object.fromEntries(entries);
}

describe('an event summary’s header', () => {
  it('is the bytes parsing the stored header, putting the league in and writing it again gives', () => {
    const keys = fc.constantFrom('id', 'uid', 'season', 'league', 'competitions', 'links', 'é', 'a"b', '0', '12');
    fc.assert(
      fc.property(fc.dictionary(keys, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), (header) => {
        const stored = Buffer.from(JSON.stringify(header), 'utf8');
        const expected = JSON.stringify({ header: parsedWithLeague(JSON.parse(stored.toString('utf8')), LEAGUE) });
        const spliced = serializeWithRaw({ header: withLeague(stored, LEAGUE) }).toString('utf8');
        expect(spliced).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('reads the provider and whether any competitor has statistics as parsing the record does', async () => {
    const store = StoreReader.open(await demoStore({ leagues: ['eng.1'], scale: 0.2 }));
    try {
      const rows = store.db.prepare('SELECT league_slug AS l, id, record AS r FROM matches').all() as {
        l: string;
        id: string;
        r: Buffer;
      }[];
      expect(rows.length).toBeGreaterThan(10);
      const seen = new Set<boolean>();
      for (const row of rows) {
        const record = storedRecord(row.r);
        const statistics = record.competitors.some((c) => c.statistics.length > 0);
        seen.add(statistics);
        expect(store.matches.facts(row.l, row.id)).toMatchObject({ provider: record.provider, statistics });
      }
      expect(seen).toEqual(new Set([true, false]));
    } finally {
      store.close();
    }
  });
});
