/**
 * A routine demo sync (each cycle of `fds live`, or `fds sync --provider demo --from/--to`) looks
 * only at what can have changed: the boards of the days around the clock and of any day that moved
 * on, and of the matches on them only those that moved on — never a settled match or a fresh roster.
 * It leaves the store exactly as a whole-season sync at the same clock would.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import type { DB } from '../../src/store/db.js';
import type { Provider } from '../../src/sync/provider.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { storeRoutine } from '../../src/sync/providers/demo/routine.js';
import { runSync } from '../../src/sync/run-sync.js';
import { addDays, ymd } from '../../src/util/time.js';
import { dumpContent, tempStore } from '../helpers/store.js';
import { syncAt, syncDemo } from './helpers.js';
import type { DemoStore } from './helpers.js';

const LEAGUES = ['eng.1', 'usa.1'];
const MINUTE = 60_000;
const DAY = 86_400_000;

interface Call {
  method: string;
  league: string;
  key: string;
}

/** The provider, recording every payload it is asked for. */
function recording(provider: Provider): { provider: Provider; calls: Call[] } {
  const calls: Call[] = [];
  const spy = <A extends unknown[], R>(method: string, fn: (league: string, ...rest: A) => Promise<R>) => {
    return (league: string, ...rest: A) => {
      calls.push({ method, league, key: rest.length ? String(rest[0]) : '' });
      return fn(league, ...rest);
    };
  };
  return {
    calls,
    provider: {
      ...provider,
      scoreboard: spy('scoreboard', provider.scoreboard),
      summary: spy('summary', provider.summary),
      plays: spy('plays', provider.plays),
      roster: spy('roster', provider.roster),
    },
  };
}

/** A routine sync of `db` at `now`, the window the clock's day ± 1 as `fds live` uses. */
function routineSync(db: DB, now: Date, leagues = LEAGUES) {
  const clock = () => now;
  const window = { from: ymd(addDays(now, -1)), to: ymd(addDays(now, 1)) };
  const { provider, calls } = recording(
    createDemoProvider({ seed: 1, now, scale: 1, weight: 'light', routine: storeRoutine(() => db, clock, window) }),
  );
  return runSync(db, provider, { leagues, concurrency: 8, clock }).then((report) => ({ report, calls }));
}

/** A copy of the base store to sync again. */
async function copyOf(base: DemoStore, name: string): Promise<DB> {
  const file = path.join(path.dirname(base.file), `${name}.sqlite`);
  await base.db.backup(file);
  return openStore(file);
}

const matchState = (db: DB, league: string, id: string) =>
  db.prepare('SELECT state FROM matches WHERE league_slug = ? AND id = ?').pluck().get(league, id) as string;

describe('a routine demo sync', { timeout: 180_000 }, () => {
  let base: DemoStore;
  const opened: DB[] = [];
  beforeAll(async () => {
    // Noon of a matchday: in each league one match in the second half, one at half-time, one in the first.
    base = await syncDemo({ leagues: LEAGUES });
  });
  afterAll(() => {
    for (const db of opened) db.close();
    base?.cleanup();
  });

  async function both(later: Date) {
    const routine = await copyOf(base, `routine-${later.getTime()}`);
    const full = await copyOf(base, `full-${later.getTime()}`);
    opened.push(routine, full);
    const run = await routineSync(routine, later);
    await syncAt(full, LEAGUES, later);
    return { routine, full, ...run };
  }

  it('a minute into a live matchday asks only for the live matches, and changes only their records', async () => {
    const later = new Date(base.now.getTime() + MINUTE);
    const { routine, full, report, calls } = await both(later);
    expect(report.failures).toEqual([]);
    const live = base.db
      .prepare("SELECT league_slug AS league, id FROM matches WHERE state = 'in' ORDER BY 1, 2")
      .all() as Array<{ league: string; id: string }>;
    expect(live).toHaveLength(3 * LEAGUES.length);
    const liveKeys = live.map((m) => `${m.league} ${m.id}`);
    const asked = (method: string) =>
      [...new Set(calls.filter((c) => c.method === method).map((c) => `${c.league} ${c.key}`))].sort();
    // Every live match is looked at (the one at half-time too); no other match, and no roster.
    expect(asked('summary')).toEqual(liveKeys);
    expect(asked('plays')).toEqual(liveKeys);
    expect(asked('roster')).toEqual([]);
    // The boards: yesterday, today and tomorrow where they are matchdays, nothing else.
    const window = [ymd(addDays(later, -1)), ymd(later), ymd(addDays(later, 1))];
    for (const c of calls.filter((x) => x.method === 'scoreboard')) expect(window).toContain(c.key);

    const changed = routine
      .prepare('SELECT league_slug, id, state FROM matches WHERE snapshot = (SELECT max(id) FROM snapshots)')
      .all() as Array<{ league_slug: string; id: string; state: string }>;
    expect(changed.length).toBeGreaterThan(0);
    for (const m of changed) expect(liveKeys).toContain(`${m.league_slug} ${m.id}`);
    expect(dumpContent(routine)).toEqual(dumpContent(full));
  });

  it('a day later fetches the final summary and plays of the matches that finished, and equals a full sync', async () => {
    const later = new Date(base.now.getTime() + DAY);
    const { routine, full, report, calls } = await both(later);
    expect(report.failures).toEqual([]);
    const wasLive = base.db.prepare("SELECT league_slug AS league, id FROM matches WHERE state = 'in'").all() as Array<{
      league: string;
      id: string;
    }>;
    for (const m of wasLive) {
      expect(matchState(routine, m.league, m.id)).toBe('post');
      expect(calls).toContainEqual({ method: 'summary', league: m.league, key: m.id });
      expect(calls).toContainEqual({ method: 'plays', league: m.league, key: m.id });
    }
    // Matches over before the base sync were settled then: not one of them is asked for again.
    const settled = new Set(
      (
        base.db.prepare("SELECT league_slug || ' ' || id FROM matches WHERE state = 'post'").pluck().all() as string[]
      ).filter(Boolean),
    );
    expect(settled.size).toBeGreaterThan(20);
    for (const c of calls.filter((x) => x.method === 'summary' || x.method === 'plays'))
      expect(settled.has(`${c.league} ${c.key}`), `${c.method} ${c.key}`).toBe(false);
    expect(dumpContent(routine)).toEqual(dumpContent(full));
  });

  it('takes the rosters again once the last sync of them is a day old', async () => {
    const later = new Date(base.now.getTime() + DAY + MINUTE);
    const db = await copyOf(base, 'rosters');
    opened.push(db);
    const { calls } = await routineSync(db, later);
    expect(calls.filter((c) => c.method === 'roster').length).toBe(
      db.prepare('SELECT count(*) FROM league_clubs').pluck().get(),
    );
  });

  it('fills the whole season into an empty store, as a whole-season sync does', async () => {
    const routine = tempStore().db;
    const full = tempStore().db;
    opened.push(routine, full);
    const { report } = await routineSync(routine, base.now, ['eng.1']);
    expect(report.failures).toEqual([]);
    await syncAt(full, ['eng.1'], base.now);
    expect(routine.prepare('SELECT count(*) FROM matches').pluck().get()).toBe(380);
    expect(dumpContent(routine)).toEqual(dumpContent(full));
  });
});
