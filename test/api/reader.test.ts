/** The store's read side: index-shaped queries, batched enumeration, and memos that follow commits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openStore } from '../../src/store/db.js';
import type { StoreReader } from '../../src/store/read/reader.js';
import { buildApiStore, openReader } from './helpers/api-store.js';

let file: string;
let store: StoreReader;
beforeAll(async () => {
  file = await buildApiStore();
  store = openReader(file);
});
afterAll(() => store.close());

/** Every prepared statement of a query module, by name. */
function statements(module: object): Array<[string, Database.Statement]> {
  return Object.entries((module as { s: Record<string, Database.Statement> }).s);
}

function plan(sql: string): string {
  const named = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!))];
  const positional = (sql.match(/\?/g) ?? []).length;
  const explain = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = (
    named.length
      ? explain.all(Object.fromEntries(named.map((n) => [n, 'x'])))
      : explain.all(...Array(positional).fill('x'))
  ) as Array<{ detail: string }>;
  return rows.map((r) => r.detail).join('\n');
}

describe('store reader', () => {
  it('reads through indexes, never scanning a table, and pages matches and plays without sorting', () => {
    for (const module of [store.matches, store.plays, store.clubs, store.standings]) {
      // A module whose statements moved elsewhere would pass the loop below without a check.
      expect(statements(module).length, module.constructor.name).toBeGreaterThan(0);
      for (const [name, stmt] of statements(module)) {
        const p = plan(stmt.source);
        expect(p, `${name}: ${p}`).not.toMatch(
          /\bSCAN (matches|plays|match_summaries|standings|players|league_clubs|clubs)\b/,
        );
        // Pages of matches and plays come straight off an index (clubs, rosters and tables are a few dozen rows).
        if (module === store.matches || module === store.plays)
          expect(p, `${name}: ${p}`).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      }
    }
  });

  it('streams match ids in kickoff order across batches', () => {
    expect([...store.matches.ids('eng.1', 1)]).toEqual(['9001', '9003', '9002', '9004']);
    expect([...store.matches.ids('eng.1', 3)]).toEqual(['9001', '9003', '9002', '9004']);
    expect([...store.matches.ids('ger.1')]).toEqual([]);
  });

  it('recomputes memoized coverage once another connection commits', () => {
    expect(store.read(() => store.coverage('ger.1')).dedicatedClubs).toBe(0);
    const writer = openStore(file);
    writer.prepare("INSERT INTO league_clubs (league_slug, club_id) VALUES ('ger.1', '1001')").run();
    writer.close();
    expect(store.read(() => store.coverage('ger.1'))).toEqual({
      matches: 0,
      clubs: 1,
      dedicatedClubs: 1,
      standingsGroups: 0,
      hasData: true,
    });
    expect(store.read(() => [...store.catalogue('ger.1')])).toEqual(['1001']);
  });

  it('reads a league again once another connection commits, and does not remember slugs it lacks', () => {
    const name = store.read(() => store.league('eng.1')!.name);
    expect(store.read(() => store.league('eng.1'))).toBe(store.read(() => store.league('eng.1')));
    const writer = openStore(file);
    writer.prepare("UPDATE leagues SET name = 'Renamed' WHERE slug = 'eng.1'").run();
    writer.close();
    expect(store.read(() => store.league('eng.1')!.name)).toBe('Renamed');
    expect(name).not.toBe('Renamed');
    expect(store.read(() => store.league('xyz.9'))).toBeUndefined();
    expect((store as unknown as { memo: Map<string, unknown> }).memo.has('league:xyz.9')).toBe(false);
  });
});
