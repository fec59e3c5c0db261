/**
 * Reach on every day (docs/publishing.md, "Reach and the rule budget"): on a matchday and on a day
 * without matches, the hot set — the league-level defaults (the date-less scoreboard included), the
 * scoreboards of yesterday, today and tomorrow even when they are empty, and every match on them
 * (its summary both ways, its first plays page, its first page of important plays) — reaches files:
 * through the literal rules, as Netlify's rule engine (@netlify/redirects) matches them, and through
 * the edge router run on Deno at the snapshot's time. Each file reached holds the dynamic answer.
 *
 * The one exception, by the contract (§4.3): with literal rules the date-less scoreboard is the
 * fallback's. A rule cannot know the day at request time, and a rule to the snapshot day's file
 * would answer yesterday's scoreboard after midnight until the next build.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../src/app/render.js';
import { currentRelease } from '../../src/release/layout.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { demoKickoffs } from '../../src/sync/providers/demo/index.js';
import { addDays, parseYmd, ymd } from '../../src/util/time.js';
import { denoBinary, runOnDeno } from '../helpers/deno-edge.js';
import { NetlifyCdn, ORIGIN, webRequest } from '../helpers/netlify-cdn.js';
import { DEMO_TODAY, buildInto, demoStore } from './helpers.js';

const LEAGUES = ['eng.1', 'esp.1'];
const SCALE = 0.1;
const DAY_MS = 86_400_000;
const deno = denoBinary();

const kickoffsOn = (day: Date) => demoKickoffs(1, SCALE, day.getTime(), day.getTime() + DAY_MS, LEAGUES).length;

/** The first day from DEMO_TODAY on which `wanted` holds for both leagues' kickoffs. */
function firstDay(wanted: (day: Date) => boolean): string {
  for (let day = parseYmd(DEMO_TODAY)!, n = 0; n < 366; day = addDays(day, 1), n++) if (wanted(day)) return ymd(day);
  throw new Error('no such day within a year');
}

const MATCHDAY = firstDay((d) =>
  LEAGUES.every((l) => demoKickoffs(1, SCALE, d.getTime(), d.getTime() + DAY_MS, [l]).length > 0),
);
const EMPTY_DAY = firstDay((d) => kickoffsOn(d) === 0);

interface Hot {
  path: string;
  query: string;
  /** Answered by the date-less form's file of the day: literal rules leave it to the fallback. */
  dateless?: boolean;
}

/** The hot set of a store synced at noon of `today`, from the contract's words and the store's matches. */
function hotSet(db: string, today: string): Hot[] {
  const raw = new Database(db, { readonly: true });
  const ids = raw.prepare('SELECT id FROM matches WHERE league_slug = ? AND scoreboard_date = ? ORDER BY id');
  const matchesOn = (league: string, day: string) => (ids.all(league, day) as Array<{ id: string }>).map((r) => r.id);
  const t = parseYmd(today)!;
  const days = [-1, 0, 1].map((d) => ymd(addDays(t, d)));
  const hot: Hot[] = [
    { path: '/get/soccer/leagues', query: '' },
    { path: '/get/soccer/meta', query: '' },
    { path: '/get/soccer/changes', query: '' },
    { path: '/openapi.json', query: '' },
  ];
  for (const league of LEAGUES) {
    const base = `/get/soccer/${league}`;
    hot.push({ path: `${base}/fixtures`, query: '' }, { path: `${base}/clubs`, query: '' });
    hot.push({ path: `${base}/standings`, query: '' }, { path: `${base}/scoreboard`, query: '', dateless: true });
    for (const day of days) {
      hot.push({ path: `${base}/scoreboard`, query: `dates=${day}` });
      for (const id of matchesOn(league, day)) {
        hot.push({ path: `${base}/summary`, query: `event=${id}` }, { path: `${base}/events/${id}`, query: '' });
        hot.push({ path: `${base}/events/${id}/plays`, query: '' });
        hot.push({ path: `${base}/events/${id}/plays`, query: 'important=true' });
      }
    }
  }
  raw.close();
  return hot;
}

describe.each([
  ['a matchday', MATCHDAY],
  ['a day without matches', EMPTY_DAY],
])('the hot set on %s', (what, today) => {
  let db: string;
  let store: StoreReader;
  let hot: Hot[];
  let at: Date;

  beforeAll(async () => {
    db = await demoStore({ today, scale: SCALE, leagues: LEAGUES });
    store = StoreReader.open(db);
    at = new Date(store.meta().snapshotAt!);
    hot = hotSet(db, today);
  }, 120_000);
  afterAll(() => store?.close());

  /** The file must hold exactly the dynamic answer at the snapshot's time. */
  const expectAnswer = (h: Hot, served: Awaited<ReturnType<NetlifyCdn['rules']>>) => {
    const label = `${h.path}?${h.query}`;
    expect(served.kind, label).toBe('file');
    if (served.kind !== 'file') return;
    const dynamic = render({ method: 'GET', path: h.path, rawQuery: h.query, headers: {} }, { store, clock: () => at });
    expect(served.response.status, label).toBe(200);
    expect(served.response.body.equals(dynamic.body), `${label}: body`).toBe(true);
    expect(served.response.headers['Cache-Control'], `${label}: Cache-Control`).toBe(dynamic.headers['Cache-Control']);
  };

  it(`is what the test says it is (${what}: ${today})`, () => {
    const dates = new Set(LEAGUES.flatMap((l) => store.matches.dates(l)));
    expect(dates.has(today)).toBe(what === 'a matchday');
    const perMatch = hot.filter((h) => h.path.includes('/events/') || h.path.endsWith('/summary'));
    if (what === 'a matchday') expect(perMatch.length).toBeGreaterThanOrEqual(8);
    // The league-level part alone: 4 requests, and 7 per league (3 of them days' scoreboards).
    expect(hot.length).toBeGreaterThanOrEqual(4 + 7 * LEAGUES.length);
  });

  it('reaches files through the literal rules, as Netlify matches them (the date-less scoreboard: the fallback)', async () => {
    const { out, summary } = await buildInto(db);
    const cdn = await NetlifyCdn.open(currentRelease(out)!);
    const missed: string[] = [];
    for (const h of hot) {
      const served = await cdn.rules(webRequest('GET', h.path, h.query)!);
      if (h.dateless) {
        expect(served.kind, `${h.path}: today at request time is the fallback's`).toBe('function');
        continue;
      }
      if (served.kind !== 'file') missed.push(`${h.path}?${h.query} → ${served.kind}`);
      else expectAnswer(h, served);
    }
    expect(missed).toEqual([]);
    expect(summary.reach!.hotReached).toBe(summary.reach!.hot);
  });

  it.skipIf(!deno)('reaches files through the edge router on Deno, the date-less scoreboard included', async () => {
    const { out } = await buildInto(db, undefined, { router: 'edge' });
    const release = currentRelease(out)!;
    const cdn = await NetlifyCdn.open(release);
    const { answers } = runOnDeno(
      deno!,
      release,
      hot.map((h) => ({ url: `${ORIGIN}${h.path}${h.query ? `?${h.query}` : ''}`, now: at.getTime() })),
    );
    const missed: string[] = [];
    for (const [i, h] of hot.entries()) {
      const a = answers[i]!;
      if (a.kind !== 'rewrite') {
        missed.push(`${h.path}?${h.query} → ${a.kind}`);
        continue;
      }
      const served = await cdn.rules(new Request(a.url), 'edge');
      if (served.kind !== 'file') missed.push(`${h.path}?${h.query} → ${a.url} → ${served.kind}`);
      else expectAnswer(h, served);
      if (h.dateless) expect(new URL(a.url).pathname, h.path).toMatch(new RegExp(`dates-${today}\\.json$`));
    }
    expect(missed).toEqual([]);
  });
});
