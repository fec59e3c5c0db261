/**
 * The request plan against a loopback ESPN that answers as ESPN does now (helpers/espn-now.ts):
 * empty days beyond tomorrow, a month that answers 400 or is cut at the limit, a 403 that blocks, and
 * validators; each fallback leaves what is stored intact.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import type { DB } from '../../src/store/db.js';
import { PlanState } from '../../src/store/plan-state.js';
import { HttpClient } from '../../src/sync/http/fetch-json.js';
import { EspnProvider } from '../../src/sync/providers/espn.js';
import { runSync } from '../../src/sync/run-sync.js';
import { PLAN } from '../../src/sync/plan/periods.js';
import { easternYmd, startEspnNow } from '../helpers/espn-now.js';
import type { EspnNow } from '../helpers/espn-now.js';
import { fault } from '../helpers/espn-standin.js';
import { FAST_HTTP, storeState } from '../helpers/espn-sync.js';
import { tempStore } from '../helpers/store.js';
import { addDays, ymd } from '../../src/util/time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A Saturday afternoon (UTC): the stand-in and the syncs stand here. */
const T0 = Date.parse('2026-11-14T16:00:00Z');
const SITE = '/apis/site/v2/sports/soccer';

interface Run {
  at: number;
  leagues?: readonly string[];
  full?: boolean;
  http?: HttpClient;
  userAgent?: string;
}

/** One `fds sync --provider espn` at `at`, with its default window (today − 3 … today + 7). */
function sync(db: DB, espn: EspnNow, run: Run) {
  const at = new Date(run.at);
  const leagues = run.leagues ?? LEAGUE_SLUGS;
  const provider = new EspnProvider({
    baseUrl: espn.url,
    coreUrl: espn.url,
    from: ymd(addDays(at, -3)),
    to: ymd(addDays(at, 7)),
    leagues,
    store: () => db,
    clock: () => at,
    full: run.full,
    http: run.http ?? new HttpClient({ ...FAST_HTTP, userAgent: run.userAgent }),
    random: () => 0.5,
  });
  return runSync(db, provider, { leagues, concurrency: 4, clock: () => at });
}

const kinds = (espn: EspnNow) => Object.fromEntries(espn.stats.perKind);

describe('the ESPN request plan against ESPN as it answers now', () => {
  let espn: EspnNow;
  let now = T0;
  beforeAll(async () => {
    espn = await startEspnNow({ matchdayAt: new Date(T0), clock: () => now });
  });
  afterAll(() => espn.close());
  beforeEach(() => {
    espn.reset();
    Object.assign(espn.options, {
      emptyBeyondTomorrow: false,
      blockUserAgents: false,
      etags: false,
      faults: undefined,
    });
    now = T0;
  });

  it('stores every fixture of the next 7 days when ESPN answers the days after tomorrow empty', async () => {
    espn.options.emptyBeyondTomorrow = true;
    const { db } = tempStore();
    const report = await sync(db, espn, { at: T0 });
    expect(report.failures).toEqual([]);
    // What ESPN has for the next week, from its month boards (asked after the sync, so not counted in it).
    expect(kinds(espn)['board-day'] ?? 0).toBe(0);
    const expected: string[] = [];
    for (const league of LEAGUE_SLUGS)
      for (const month of new Set([easternYmd(T0).slice(0, 6), easternYmd(T0 + 8 * DAY).slice(0, 6)])) {
        const r = await fetch(`${espn.url}${SITE}/${league}/scoreboard?dates=${month}&limit=500`, {
          headers: { 'user-agent': 'football-data-service/2.0.0 (+https://example.org)' },
        });
        const board = (await r.json()) as { events: Array<{ id: string; date: string }> };
        for (const e of board.events) {
          const at = Date.parse(e.date);
          if (at >= T0 && at < T0 + 7 * DAY) expected.push(`${league}/${e.id}`);
        }
      }
    expect(expected.length).toBeGreaterThan(5);
    const stored = db
      .prepare("SELECT league_slug || '/' || id FROM matches WHERE kickoff >= ? AND kickoff < ?")
      .pluck()
      .all(`${new Date(T0).toISOString().slice(0, 19)}Z`, `${new Date(T0 + 7 * DAY).toISOString().slice(0, 19)}Z`);
    expect(new Set(stored)).toEqual(new Set(expected));
  });

  it('asks a month that answers 400 day by day, remembers it, and stores the same as from the month', async () => {
    const clean = tempStore().db;
    await sync(clean, espn, { at: T0, leagues: ['eng.1'] });
    const month = easternYmd(T0).slice(0, 6);
    espn.reset();
    espn.options.faults = ({ path }) =>
      path.includes(`eng.1/scoreboard?dates=${month}&`) ? fault.status(400) : undefined;
    const { db } = tempStore();
    const report = await sync(db, espn, { at: T0, leagues: ['eng.1'] });
    expect(report.failures).toEqual([]);
    expect(espn.stats.perKind.get('board-month')).toBeGreaterThanOrEqual(1);
    expect(espn.stats.perKind.get('board-day')).toBeGreaterThan(5);
    const matches = (d: DB) => d.prepare('SELECT id, record FROM matches ORDER BY id').all();
    expect(matches(db)).toEqual(matches(clean));
    expect(new PlanState(db, 'espn').get('eng.1', `fallback:${month}`)?.value).toBe('HTTP 400');
    // An hour later the month is not tried again: straight to its days.
    espn.reset();
    await sync(db, espn, { at: T0 + HOUR + MINUTE, leagues: ['eng.1'] });
    expect(espn.log.filter((l) => l.path.includes(`dates=${month}&`))).toEqual([]);
    expect(espn.stats.perKind.get('board-day')).toBeGreaterThan(5);
  });

  it('takes a month board holding exactly the limit as cut: its days are asked, its events not kept', async () => {
    const month = easternYmd(T0).slice(0, 6);
    const r = await fetch(`${espn.url}${SITE}/eng.1/scoreboard?dates=${month}&limit=500`, {
      headers: { 'user-agent': 'football-data-service/2.0.0 (+https://example.org)' },
    });
    const real = (await r.json()) as { events: Array<Record<string, unknown>> };
    // 500 events, as a cut board would hold: the real ones, then copies under ids no day board has.
    const events = Array.from({ length: 500 }, (_, i) =>
      i < real.events.length ? real.events[i] : { ...real.events[i % real.events.length], id: `cut${i}` },
    );
    espn.reset();
    espn.options.faults = ({ path }) =>
      path.includes(`eng.1/scoreboard?dates=${month}&`) ? fault.json({ ...real, events }) : undefined;
    const { db } = tempStore();
    const report = await sync(db, espn, { at: T0, leagues: ['eng.1'] });
    expect(report.failures).toEqual([]);
    expect(espn.stats.perKind.get('board-day')).toBeGreaterThan(5);
    expect(db.prepare("SELECT count(*) FROM matches WHERE id LIKE 'cut%'").pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM matches').pluck().get()).toBeGreaterThan(5);
    expect(new PlanState(db, 'espn').get('eng.1', `fallback:${month}`)?.value).toMatch(/500 events/);
  });

  it('backs off after a 403: asks nothing until the deadline, which doubles, and keeps every stored record', async () => {
    const { db } = tempStore();
    await sync(db, espn, { at: T0, leagues: ['eng.1', 'esp.1'] });
    const before = storeState(db);
    espn.options.blockUserAgents = true;
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36';

    espn.reset();
    const blocked = await sync(db, espn, { at: T0 + HOUR + MINUTE, leagues: ['eng.1', 'esp.1'], userAgent: browser });
    expect(blocked.failures.length).toBeGreaterThan(0);
    // Once one request met the 403, the rest were not sent.
    expect(espn.log.filter((l) => l.status === 403).length).toBeLessThanOrEqual(4);
    const until = Date.parse(blocked.upstream!.blockedUntil!);
    expect(until - (T0 + HOUR + MINUTE)).toBe(30 * MINUTE); // jitter fixed at its middle here
    expect(storeState(db)).toEqual(before);

    espn.reset();
    const waiting = await sync(db, espn, { at: T0 + HOUR + 20 * MINUTE, leagues: ['eng.1', 'esp.1'], full: false });
    expect(espn.stats.total).toBe(0);
    expect(waiting.failures).toEqual([]);
    expect(waiting.upstream?.blockedUntil).toBe(blocked.upstream?.blockedUntil);
    expect(storeState(db)).toEqual(before);

    // Past the deadline it asks again; blocked again, it waits twice as long.
    espn.reset();
    const again = await sync(db, espn, { at: T0 + 2 * HOUR, leagues: ['eng.1', 'esp.1'], userAgent: browser });
    expect(espn.stats.total).toBeGreaterThan(0);
    expect(Date.parse(again.upstream!.blockedUntil!) - (T0 + 2 * HOUR)).toBe(60 * MINUTE);
    expect(storeState(db).lastSuccessfulSyncAt).toBe(before.lastSuccessfulSyncAt);

    // Asked politely after that: answered, and the block is over.
    espn.reset();
    const polite = await sync(db, espn, { at: T0 + 3 * HOUR + MINUTE, leagues: ['eng.1', 'esp.1'] });
    expect(polite.failures).toEqual([]);
    expect(polite.upstream?.blockedUntil).toBeNull();
    expect(espn.stats.total).toBeGreaterThan(0);
  });

  it('sends back the validators ESPN gave and counts a 304 as unchanged', async () => {
    espn.options.etags = true;
    const { db } = tempStore();
    const http = new HttpClient(FAST_HTTP);
    await sync(db, espn, { at: T0, leagues: ['eng.1'], http });
    // … and the rosters of the clubs it learned, so that nothing new is due an hour on.
    await sync(db, espn, { at: T0 + MINUTE, leagues: ['eng.1'], http });
    const before = storeState(db).content;
    espn.reset();
    // An hour on, the stand-in's clock stands still: the month's board is what it was.
    const again = await sync(db, espn, { at: T0 + HOUR + MINUTE, leagues: ['eng.1'], http });
    expect(again.upstream?.asked['board-month']).toMatchObject({ requests: 1, notModified: 1 });
    expect(espn.log.find((l) => l.kind === 'board-month')?.status).toBe(304);
    expect(again.written).toBe(0);
    expect(storeState(db).content).toEqual(before);
  });

  it('asks in a live cycle one day board per hot league and the summaries and plays of what moved', async () => {
    const { db } = tempStore();
    for (const at of [T0 - 2 * MINUTE, T0 - MINUTE]) {
      now = at;
      await sync(db, espn, { at });
    }
    const hot = (await espn.hotLeagues(T0)).sort();
    expect(hot.length).toBeGreaterThan(2);
    const marks = () =>
      new Map(db.prepare("SELECT league_slug || '/' || id, hash FROM matches").raw().all() as Array<[string, string]>);
    const before = marks();
    espn.reset();
    now = T0;
    const report = await sync(db, espn, { at: T0 });
    expect(report.failures).toEqual([]);
    expect(report.upstream?.hot).toEqual(hot);
    const byKind = (k: string) => espn.log.filter((l) => l.kind === k).map((l) => l.path);
    const leagueOf = (p: string) => /soccer\/(?:leagues\/)?([a-z]+\.\d)\//.exec(p)![1]!;
    // One board per hot league (two across Eastern midnight), and nothing of a cold one.
    expect(byKind('board-month')).toEqual([]);
    for (const league of hot)
      expect(byKind('board-day').filter((p) => leagueOf(p) === league).length).toBeLessThanOrEqual(2);
    expect(new Set(byKind('board-day').map(leagueOf))).toEqual(new Set(hot));
    // Summaries only of matches in a hot league (moved, in play, or just settled); plays only of those.
    const after = marks();
    const eventOf = (p: string) => /(?:event=|events\/)(\w+)/.exec(p)![1]!;
    for (const p of byKind('summary')) expect(hot).toContain(leagueOf(p));
    const summaries = new Set(byKind('summary').map(eventOf));
    for (const p of byKind('plays')) expect(summaries.has(eventOf(p)), p).toBe(true);
    // A match whose record moved had its summary asked.
    for (const [key, hash] of after)
      if (before.get(key) !== hash) expect(summaries.has(key.split('/')[1]!), key).toBe(true);
    // The catalogue's share: rosters the team lists named a minute ago, a few per run.
    expect(byKind('teams')).toEqual([]);
    expect(byKind('roster').length).toBeLessThanOrEqual(PLAN.catalogueBudget.firstAsks);
  });

  it('asks at most a few boards per league and no summaries but reschedule checks on a day without matches', async () => {
    const { db } = tempStore();
    now = T0;
    await sync(db, espn, { at: T0 });
    const days = db.prepare('SELECT DISTINCT scoreboard_date FROM matches').pluck().all() as string[];
    const quiet = [1, 2, 3, 4, 5, 6].map((d) => ymd(addDays(new Date(T0), d))).find((d) => !days.includes(d));
    expect(quiet, 'a day without matches in the week after').toBeDefined();
    const noon = Date.parse(`${quiet!.slice(0, 4)}-${quiet!.slice(4, 6)}-${quiet!.slice(6)}T12:00:00Z`);
    // Catching up on the days since (what ended meanwhile is settled), then a routine sync an hour on.
    now = noon;
    await sync(db, espn, { at: noon });
    const at = noon + HOUR + 5 * MINUTE;
    espn.reset();
    now = at;
    await sync(db, espn, { at });
    expect(espn.stats.perKind.get('board-month')).toBe(LEAGUE_SLUGS.length);
    const boards = espn.log.filter((l) => l.kind.startsWith('board'));
    for (const league of LEAGUE_SLUGS)
      expect(boards.filter((l) => l.path.includes(`/${league}/`)).length, league).toBeLessThanOrEqual(3);
    const window = ymd(addDays(new Date(at), -3));
    const start = `${window.slice(0, 4)}-${window.slice(4, 6)}-${window.slice(6)}T00:00:00Z`;
    for (const l of espn.log.filter((x) => x.kind === 'summary')) {
      const id = /event=(\w+)/.exec(l.path)![1];
      const m = db.prepare('SELECT kickoff, state FROM matches WHERE id = ?').get(id) as {
        kickoff: string;
        state: string;
      };
      expect(m.kickoff < start && m.state !== 'post', `summary of ${id}`).toBe(true);
    }
    expect(espn.log.filter((l) => l.kind === 'plays')).toEqual([]);
  });
});
