import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapPlays } from '../../src/espn/map-plays.js';
import { easternYmd, playsPage, startEspnNow, userAgentAllowed } from '../helpers/espn-now.js';
import type { EspnNow } from '../helpers/espn-now.js';
import { fault, faultsByPath } from '../helpers/espn-standin.js';

const UA = 'football-data-service/2.0.0 (+https://example.org)';
const SITE = '/apis/site/v2/sports/soccer';
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** A Saturday afternoon (UTC): the servers with a fixed clock stand here. */
const T0 = Date.parse('2026-11-14T16:00:00Z');

async function get(espn: EspnNow, path: string, headers: Record<string, string> = {}) {
  const r = await fetch(espn.url + path, { headers: { 'user-agent': UA, ...headers } });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** A request with exactly these headers (fetch always sends a User-Agent of its own). */
function rawGet(espn: EspnNow, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((ok, fail) => {
    const req = http.get(espn.url + path, { headers }, (res) => {
      res.resume();
      res.on('end', () => ok(res.statusCode ?? 0));
    });
    req.on('error', fail);
  });
}

const ids = (board: any): string[] => board.events.map((e: any) => e.id);
const score = (e: any) =>
  ['home', 'away'].map((side) => Number(e.competitions[0].competitors.find((c: any) => c.homeAway === side).score));

describe('scoreboards as ESPN answers them now', () => {
  let espn: EspnNow;
  // Scale 4: four times the matchdays, so that one league's Eastern month holds more than 100 matches.
  beforeAll(async () => {
    espn = await startEspnNow({ scale: 4, matchdayAt: new Date(T0), clock: () => T0 });
  });
  afterAll(() => espn.close());
  const month = easternYmd(T0).slice(0, 6);

  it('answers a date range with 400 "Failed to get events endpoint.", whatever its length or limit', async () => {
    for (const q of ['dates=20261101-20261130', 'dates=20261114-20261114', 'dates=20261101-20261130&limit=500']) {
      const r = await get(espn, `${SITE}/eng.1/scoreboard?${q}`);
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ code: 400, message: 'Failed to get events endpoint.' });
    }
    expect(espn.log.at(-1)?.kind).toBe('board-range');
  });

  it('stops the month form at 100 events without a limit, and holds the whole Eastern month with limit=500', async () => {
    const capped = await get(espn, `${SITE}/eng.1/scoreboard?dates=${month}`);
    const whole = await get(espn, `${SITE}/eng.1/scoreboard?dates=${month}&limit=500`);
    expect(capped.status).toBe(200);
    expect(capped.json.events).toHaveLength(100);
    expect(whole.json.events.length).toBeGreaterThan(100);
    expect(ids(capped.json)).toEqual(ids(whole.json).slice(0, 100));
    // Every match of the month's Eastern days, and only those.
    const days: string[] = [];
    for (let d = 1; d <= 31; d++) {
      const ymd = `${month}${String(d).padStart(2, '0')}`;
      if (easternYmd(Date.UTC(+month.slice(0, 4), +month.slice(4) - 1, d, 12)) === ymd) days.push(ymd);
    }
    const byDay: string[] = [];
    for (const day of days) byDay.push(...ids((await get(espn, `${SITE}/eng.1/scoreboard?dates=${day}`)).json));
    expect(ids(whole.json).sort()).toEqual(byDay.sort());
    for (const e of whole.json.events) expect(easternYmd(Date.parse(e.date)).slice(0, 6)).toBe(month);
  });

  it('cuts silently: limit below 600 caps the board, any limit of 600 or more gives 25 events', async () => {
    const n = async (q: string) => (await get(espn, `${SITE}/eng.1/scoreboard?${q}`)).json.events.length;
    expect(await n(`dates=${month}&limit=50`)).toBe(50);
    expect(await n(`dates=${month}&limit=599`)).toBeGreaterThan(100);
    expect(await n(`dates=${month}&limit=600`)).toBe(25);
    expect(await n(`dates=${month}&limit=1000`)).toBe(25);
  });

  it("serves today's Eastern board without dates, with max-age=2 and ESPN's content type", async () => {
    const today = await get(espn, `${SITE}/eng.1/scoreboard`);
    const dated = await get(espn, `${SITE}/eng.1/scoreboard?dates=${easternYmd(T0)}`);
    expect(today.text).toBe(dated.text);
    expect(today.headers.get('cache-control')).toBe('max-age=2');
    expect(today.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(espn.log.at(-2)?.kind).toBe('board-today');
    expect(espn.log.at(-1)).toMatchObject({ kind: 'board-day', status: 200, userAgent: UA });
    expect(espn.log.at(-1)!.bytes).toBe(dated.text.length);
  });

  it('answers 400 to paths and query keys ESPN does not have, 404 to unknown leagues and events', async () => {
    for (const p of [
      `${SITE}/eng.1/scoreboard?date=20261114`,
      `${SITE}/eng.1/scoreboard?dates=2026-11-14`,
      `${SITE}/eng.1/scoreboard?dates=${month}&page=2`,
      `${SITE}/eng.1/summary?event=1&lang=en`,
      `${SITE}/eng.1/teams?limit=5`,
      '/apis/site/v2/sports/soccer/eng.1/standings',
      '/v2/sports/soccer/leagues/eng.1/events/1/competitions/1/plays?limit=1001&page=1',
      '/v2/sports/soccer/leagues/eng.1/events/1/competitions/2/plays?limit=1000&page=1',
    ])
      expect((await get(espn, p)).status, p).toBe(400);
    expect((await get(espn, `${SITE}/xyz.9/scoreboard?dates=20261114`)).status).toBe(404);
    expect((await get(espn, `${SITE}/eng.1/summary?event=999`)).status).toBe(404);
    expect((await get(espn, `${SITE}/eng.1/teams/999/roster`)).status).toBe(404);
    expect((await get(espn, '/apis/v2/sports/soccer/eng.1/standings?season=1990')).status).toBe(404);
  });

  it('empties day boards after tomorrow when asked to, leaving month boards whole', async () => {
    let later: string | undefined;
    for (let d = 2; d <= 10 && !later; d++) {
      const day = easternYmd(T0 + d * DAY);
      if ((await get(espn, `${SITE}/eng.1/scoreboard?dates=${day}`)).json.events.length) later = day;
    }
    expect(later).toBeDefined();
    const tomorrow = easternYmd(T0 + DAY);
    const before = (await get(espn, `${SITE}/eng.1/scoreboard?dates=${tomorrow}`)).json.events.length;
    espn.options.emptyBeyondTomorrow = true;
    try {
      const r = await get(espn, `${SITE}/eng.1/scoreboard?dates=${later}`);
      expect(r.status).toBe(200);
      expect(r.json.events).toEqual([]);
      expect((await get(espn, `${SITE}/eng.1/scoreboard?dates=${tomorrow}`)).json.events).toHaveLength(before);
      const whole = await get(espn, `${SITE}/eng.1/scoreboard?dates=${later!.slice(0, 6)}&limit=500`);
      expect(whole.json.events.some((e: any) => easternYmd(Date.parse(e.date)) === later)).toBe(true);
    } finally {
      espn.options.emptyBeyondTomorrow = false;
    }
  });

  it('forbids browser, runtime-default and missing User-Agents, and lets Name/1.0 (+URL) through', async () => {
    espn.options.blockUserAgents = true;
    try {
      const path = `${SITE}/eng.1/teams`;
      expect(await rawGet(espn, path, {})).toBe(403);
      expect(await rawGet(espn, path, { 'user-agent': '' })).toBe(403);
      expect(await rawGet(espn, path, { 'user-agent': 'node' })).toBe(403);
      expect(await rawGet(espn, path, { 'user-agent': 'fds' })).toBe(403);
      const browser =
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
      expect(await rawGet(espn, path, { 'user-agent': browser })).toBe(403);
      expect(await rawGet(espn, path, { 'user-agent': UA })).toBe(200);
      expect(espn.log.at(-2)).toMatchObject({ status: 403, userAgent: browser, kind: 'teams' });
    } finally {
      espn.options.blockUserAgents = false;
    }
    expect(userAgentAllowed('MyApp/1.0 (+https://example.org/bot)')).toBe(true);
    expect(userAgentAllowed('MyApp/1.0')).toBe(false);
  });

  it('sends an ETag and Last-Modified when asked to, and answers a matching conditional request with an empty 304', async () => {
    espn.options.etags = true;
    try {
      const path = `${SITE}/eng.1/scoreboard?dates=${easternYmd(T0)}`;
      const first = await get(espn, path);
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(Date.parse(lastModified)).toBeLessThanOrEqual(T0);
      const byTag = await get(espn, path, { 'if-none-match': etag });
      expect(byTag.status).toBe(304);
      expect(byTag.text).toBe('');
      expect(byTag.headers.get('etag')).toBe(etag);
      expect((await get(espn, path, { 'if-modified-since': lastModified })).status).toBe(304);
      expect((await get(espn, path, { 'if-none-match': '"other"' })).status).toBe(200);
      expect(espn.log.at(-2)).toMatchObject({ status: 304, bytes: 0 });
    } finally {
      espn.options.etags = false;
    }
    expect((await get(espn, `${SITE}/eng.1/teams`)).headers.get('etag')).toBeNull();
  });

  it('injects faults by path and attempt, as the files stand-in does', async () => {
    espn.options.faults = faultsByPath({ '/ger.1/teams': [fault.status(503)] });
    try {
      expect((await get(espn, `${SITE}/ger.1/teams`)).status).toBe(503);
      expect((await get(espn, `${SITE}/ger.1/teams`)).status).toBe(200);
      expect(espn.stats.perPath.get(`${SITE}/ger.1/teams`)).toBe(2);
    } finally {
      espn.options.faults = undefined;
    }
  });
});

describe('US-Eastern day boundaries', () => {
  it('reads dates in US-Eastern time, daylight saving included', () => {
    expect(easternYmd(Date.parse('2026-11-15T02:00:00Z'))).toBe('20261114');
    expect(easternYmd(Date.parse('2026-11-15T05:00:00Z'))).toBe('20261115');
    expect(easternYmd(Date.parse('2026-07-01T03:59:00Z'))).toBe('20260630');
    expect(easternYmd(Date.parse('2026-07-01T04:00:00Z'))).toBe('20260701');
  });

  it("puts a match kicking off at 02:00Z on the previous Eastern day's board", async () => {
    // demo = real − 5 h: the demo's evening kickoffs (20:00–21:00Z) land at 01:00–02:00Z the next day.
    const espn = await startEspnNow({ offsetMs: -5 * HOUR, clock: () => T0 });
    try {
      const whole = await get(espn, `${SITE}/esp.1/scoreboard?dates=202611&limit=500`);
      const late = whole.json.events.filter((e: any) => new Date(Date.parse(e.date)).getUTCHours() < 5);
      expect(late.length).toBeGreaterThan(0);
      for (const e of late.slice(0, 3)) {
        const utcDay = e.date.slice(0, 10).replace(/-/g, '');
        const eastern = easternYmd(Date.parse(e.date));
        expect(eastern < utcDay).toBe(true);
        expect(ids((await get(espn, `${SITE}/esp.1/scoreboard?dates=${eastern}`)).json)).toContain(e.id);
        expect(ids((await get(espn, `${SITE}/esp.1/scoreboard?dates=${utcDay}`)).json)).not.toContain(e.id);
      }
    } finally {
      await espn.close();
    }
  });
});

describe('core plays pages', () => {
  it('re-pages a stream of more than 1000 plays into pages of 1000 that map back complete', () => {
    const items = Array.from({ length: 1542 }, (_, i) => ({ id: String(100 + i), text: `play ${i}` }));
    const pages = [1, 2].map((page) => playsPage(items, page, 'mex.1', '401877018'));
    expect(pages.map((p) => [p.count, p.pageIndex, p.pageSize, p.pageCount, p.items.length])).toEqual([
      [1542, 1, 1000, 2, 1000],
      [1542, 2, 1000, 2, 542],
    ]);
    const mapped = mapPlays(pages, { team: () => undefined, athlete: () => undefined });
    expect(mapped.complete).toBe(true);
    expect(mapped.plays.map((p) => p.id)).toEqual(items.map((i) => i.id));
    expect(playsPage([], 1, 'mex.1', '1')).toMatchObject({ count: 0, pageIndex: 0, pageCount: 0, items: [] });
  });

  it("serves a match's stream at ESPN's core path, and an empty stream before kickoff", async () => {
    const espn = await startEspnNow({ matchdayAt: new Date(T0), clock: () => T0 });
    try {
      const month = await get(espn, `${SITE}/eng.1/scoreboard?dates=${easternYmd(T0).slice(0, 6)}&limit=500`);
      const done = month.json.events.find((e: any) => e.status.type.completed);
      const ahead = month.json.events.find((e: any) => e.status.type.state === 'pre');
      const plays = (id: string, page: number) =>
        get(espn, `/v2/sports/soccer/leagues/eng.1/events/${id}/competitions/${id}/plays?limit=1000&page=${page}`);
      const first = (await plays(done.id, 1)).json;
      expect(first.count).toBeGreaterThan(0);
      expect(first.pageCount).toBe(Math.ceil(first.count / 1000));
      expect(first).toMatchObject({ pageIndex: 1, pageSize: 1000 });
      const pages = [first];
      for (let p = 2; p <= first.pageCount; p++) pages.push((await plays(done.id, p)).json);
      expect(pages.flatMap((p) => p.items)).toHaveLength(first.count);
      expect(mapPlays(pages, { team: () => undefined, athlete: () => undefined }).complete).toBe(true);
      expect((await plays(ahead.id, 1)).json).toMatchObject({ count: 0, pageIndex: 0, pageCount: 0, items: [] });
      expect(espn.log.at(-1)?.kind).toBe('plays');
    } finally {
      await espn.close();
    }
  });
});

describe('real time', () => {
  it('shifts every instant so that the matches in play kicked off within the last two hours of real time', async () => {
    const espn = await startEspnNow();
    try {
      const now = Date.now();
      const live = await espn.inPlay(now);
      expect(live.length).toBeGreaterThan(0);
      const m = live[0]!;
      expect(now - m.kickoffMs).toBeGreaterThanOrEqual(0);
      expect(now - m.kickoffMs).toBeLessThan(2.5 * HOUR);
      const board = await get(espn, `${SITE}/${m.league}/scoreboard?dates=${easternYmd(m.kickoffMs)}`);
      const e = board.json.events.find((x: any) => x.id === m.eventId);
      expect(Date.parse(e.date)).toBe(m.kickoffMs);
      expect(e.status.type.state).toBe('in');
      const summary = await get(espn, `${SITE}/${m.league}/summary?event=${m.eventId}`);
      // Every instant but those that are years old at ESPN too (real weight): a logo's lastUpdated, the
      // head-to-head's past meetings (gameDate).
      for (const text of [board.text, summary.text])
        for (const [, key, iso] of text.matchAll(/(?:"(\w+)":")?(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z)/g))
          if (key !== 'lastUpdated' && key !== 'gameDate')
            expect(Math.abs(Date.parse(iso!) - now), iso).toBeLessThan(400 * DAY);
      // The last plays of the live match happened in the last few minutes of real time, not in the demo's.
      const wallclocks = [...summary.text.matchAll(/"wallclock":"([^"]+)"/g)].map((x) => Date.parse(x[1]!));
      expect(Math.max(...wallclocks)).toBeLessThanOrEqual(now + 1000);
      expect(Math.max(...wallclocks)).toBeGreaterThan(m.kickoffMs - 1000);
    } finally {
      await espn.close();
    }
  });

  it('finds the goals of a real-time interval, each at the instant the board first shows its score', async () => {
    let now = T0;
    const espn = await startEspnNow({ matchdayAt: new Date(T0), clock: () => now });
    try {
      const hot = await espn.hotLeagues(T0);
      const live = await espn.inPlay(T0);
      expect(hot.length).toBeGreaterThanOrEqual(3);
      expect(live.length).toBeGreaterThanOrEqual(5);
      const before = espn.stats.total;
      const goals = await espn.goals(T0 - HOUR, T0 + HOUR);
      expect(espn.stats.total).toBe(before);
      expect(goals.length).toBeGreaterThan(0);
      for (const g of goals) expect(g.atMs >= T0 - HOUR && g.atMs < T0 + HOUR).toBe(true);
      const g = goals.find((x) => x.atMs > T0) ?? goals[0]!;
      const boardScore = async (at: number) => {
        now = at;
        for (const day of [easternYmd(at), easternYmd(at - 3 * HOUR)]) {
          const b = await get(espn, `${SITE}/${g.league}/scoreboard?dates=${day}`);
          const e = b.json.events.find((x: any) => x.id === g.eventId);
          if (e) return score(e);
        }
        throw new Error(`event ${g.eventId} not on the board`);
      };
      expect(await boardScore(g.atMs)).toEqual([g.home, g.away]);
      const [h, a] = await boardScore(g.atMs - 1000);
      expect(h! + a!).toBe(g.home + g.away - 1);
    } finally {
      await espn.close();
    }
  });

  it('shows a goal added with scoreGoal from its instant on: board score and Goal detail, summary header and key event', async () => {
    let now = T0;
    const espn = await startEspnNow({ matchdayAt: new Date(T0), clock: () => now });
    try {
      const m = (await espn.inPlay(T0))[0]!;
      const boardPath = `${SITE}/${m.league}/scoreboard?dates=${easternYmd(m.kickoffMs)}`;
      const summaryPath = `${SITE}/${m.league}/summary?event=${m.eventId}`;
      const entry = async () => (await get(espn, boardPath)).json.events.find((x: any) => x.id === m.eventId);
      const header = async () => {
        const s = (await get(espn, summaryPath)).json;
        return { s, comp: s.header.competitions[0] };
      };
      const goalsIn = (comp: any) => comp.details.filter((d: any) => d.scoringPlay).length;
      // Asked at T0 (and so cached for that second) before the goal is added.
      const before = await entry();
      const summaryBefore = await header();
      expect(score(before)).toEqual([m.home, m.away]);
      const at = T0 + 500;
      const goal = await espn.scoreGoal(m.league, m.eventId, 'away', at);
      expect(goal).toEqual({ league: m.league, eventId: m.eventId, home: m.home, away: m.away + 1, atMs: at });
      // Still T0, before the goal's instant (same second, same cache entry): not shown yet.
      expect(score(await entry())).toEqual([m.home, m.away]);
      now = at;
      const after = await entry();
      expect(score(after)).toEqual([m.home, m.away + 1]);
      expect(after.status).toEqual(before.status);
      const comp = after.competitions[0];
      expect(goalsIn(comp)).toBe(goalsIn(before.competitions[0]) + 1);
      const added = comp.details.find(
        (d: any) =>
          d.type.id === '70' && !before.competitions[0].details.some((b: any) => b.clock.value === d.clock.value),
      );
      const awayTeam = comp.competitors.find((c: any) => c.homeAway === 'away').team.id;
      expect(added).toMatchObject({ type: { id: '70', text: 'Goal' }, team: { id: awayTeam }, scoringPlay: true });
      expect(added.athletesInvolved[0]).toMatchObject({ team: { id: awayTeam } });
      const summaryAfter = await header();
      expect(score({ competitions: [summaryBefore.comp] })).toEqual([m.home, m.away]);
      expect(score({ competitions: [summaryAfter.comp] })).toEqual([m.home, m.away + 1]);
      expect(goalsIn(summaryAfter.comp)).toBe(goalsIn(summaryBefore.comp) + 1);
      const keyGoals = (s: any) => s.keyEvents.filter((k: any) => k.scoringPlay).length;
      expect(keyGoals(summaryAfter.s)).toBe(keyGoals(summaryBefore.s) + 1);
      // The ground truth counts it.
      expect((await espn.inPlay(at)).find((x) => x.eventId === m.eventId)).toMatchObject({
        home: m.home,
        away: m.away + 1,
      });
      expect(await espn.goals(at, at + 1)).toContainEqual(goal);
      // A second one, for the home side, a minute on.
      now = at + 60_000;
      const second = await espn.scoreGoal(m.league, m.eventId, 'home');
      expect(second.atMs).toBe(now);
      expect(score(await entry())).toEqual([second.home, second.away]);
      expect(second.home).toBeGreaterThanOrEqual(m.home + 1);
      expect(second.away).toBeGreaterThanOrEqual(m.away + 1);
      await expect(espn.scoreGoal(m.league, '999', 'home')).rejects.toThrow(/no match 999/);
    } finally {
      await espn.close();
    }
  });
});
