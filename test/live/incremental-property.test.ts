/**
 * The publishing loop (docs/json-api.md): whatever sequence of syncs happens — the demo clock
 * moving on by random steps, units failing on the way — an incremental build publishes exactly the
 * tree a full build of the same store gives, and the change feed names exactly the matches whose
 * responses changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import type { DB } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import type { ListingProvider, Provider } from '../../src/sync/provider.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { runSync } from '../../src/sync/run-sync.js';
import { build } from '../../src/netlify/build.js';
import { currentRelease } from '../../src/release/layout.js';
import { tempDir } from '../helpers/store.js';
import { matchdayNoon } from '../demo/helpers.js';
import { treeState } from '../publish/helpers.js';

const LEAGUES = ['eng.1'];
const SCALE = 0.3;
const MINUTE = 60_000;

/** A demo provider whose units fail where `fails` says (a fetch that timed out, say). */
function flaky(provider: ListingProvider, fails: (unit: string) => boolean): Provider {
  const wrap =
    <A extends unknown[], R>(name: string, fn: (...a: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (fails(`${name}:${args.join(',')}`)) throw new Error(`injected failure of ${name} ${args.join(' ')}`);
      return fn(...args);
    };
  return {
    ...provider,
    name: provider.name,
    refetchFinished: provider.refetchFinished,
    scoreboardDates: provider.scoreboardDates.bind(provider),
    eventIds: provider.eventIds.bind(provider),
    rosterTeamIds: provider.rosterTeamIds.bind(provider),
    standingsSeasons: provider.standingsSeasons.bind(provider),
    scoreboard: wrap('scoreboard', provider.scoreboard.bind(provider)),
    summary: wrap('summary', provider.summary.bind(provider)),
    plays: wrap('plays', provider.plays.bind(provider)),
    teams: wrap('teams', provider.teams.bind(provider)),
    roster: wrap('roster', provider.roster.bind(provider)),
    standings: wrap('standings', provider.standings.bind(provider)),
  };
}

/** A stable pseudo-random choice of units: the same unit and salt always decide the same way. */
function chooser(salt: number, rate: number): (unit: string) => boolean {
  return (unit) => {
    let h = salt >>> 0;
    for (let i = 0; i < unit.length; i++) h = Math.imul(h ^ unit.charCodeAt(i), 2654435761) >>> 0;
    return (h % 1000) / 1000 < rate;
  };
}

async function buildOnce(db: string, out: string, full: boolean) {
  const store = StoreReader.open(db);
  try {
    return await build({ store, out, full, workers: 0 });
  } finally {
    store.close();
  }
}

const contentOf = (out: string) => new Map([...treeState(out)].map(([f, s]) => [f, s.sha]));

/** Match ids whose own files (summary, plays pages) differ between two trees. */
function changedMatches(before: Map<string, string>, after: Map<string, string>): string[] {
  const ids = new Set<string>();
  for (const file of new Set([...before.keys(), ...after.keys()])) {
    const m = /^_s\/get\/soccer\/[^/]+\/events\/([^/~]+)~/.exec(file);
    if (m && before.get(file) !== after.get(file)) ids.add(m[1]!);
  }
  return [...ids].sort();
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('incremental builds over random syncs', { timeout: 600_000 }, () => {
  it('publish a full build of the same store after every sync, and the feed names what changed', async () => {
    const start = matchdayNoon(LEAGUES, '20260321', 1, SCALE).getTime() - 90 * MINUTE;
    const step = fc.record({
      minutes: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 60, max: 3 * 24 * 60 })),
      failRate: fc.constantFrom(0, 0, 0.05, 0.3),
      salt: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 3 }), async (steps) => {
        const dir = tempDir('fds-prop-');
        dirs.push(dir);
        const file = path.join(dir, 'store.sqlite');
        const db: DB = openStore(file);
        const out = path.join(dir, 'dist');
        let now = start;
        try {
          await runSync(db, createDemoProvider({ seed: 1, now: new Date(now), scale: SCALE, weight: 'light' }), {
            leagues: LEAGUES,
            concurrency: 4,
            clock: () => new Date(now),
          });
          await buildOnce(file, out, false);
          for (const s of steps) {
            now += s.minutes * MINUTE;
            const before = contentOf(out);
            const since = StoreReader.open(file);
            const snapshot = since.snapshots.current()?.id ?? 0;
            since.close();
            const provider = flaky(
              createDemoProvider({ seed: 1, now: new Date(now), scale: SCALE, weight: 'light' }),
              chooser(s.salt, s.failRate),
            );
            await runSync(db, provider, { leagues: LEAGUES, concurrency: 4, clock: () => new Date(now) });
            const incremental = await buildOnce(file, out, false);
            expect(incremental.mode).not.toBe('full');
            const fullOut = path.join(dir, `full-${now}`);
            await buildOnce(file, fullOut, true);
            const after = contentOf(out);
            expect(after).toEqual(contentOf(fullOut));
            fs.rmSync(path.join(dir, `.full-${now}.releases`), { recursive: true, force: true });
            fs.rmSync(fullOut, { force: true });

            // The feed, from the published tree itself: the snapshots after the one before this sync.
            const feed = JSON.parse(
              fs.readFileSync(path.join(currentRelease(out)!, '_s/get/soccer/changes/index.json'), 'utf8'),
            ) as { snapshots: Array<{ id: number; matches: Array<{ id: string }> }> };
            const listed = new Set(
              feed.snapshots.filter((x) => x.id > snapshot).flatMap((x) => x.matches.map((m) => m.id)),
            );
            expect([...listed].sort()).toEqual(changedMatches(before, after));
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 3, seed: 20261124 },
    );
  });
});
