/**
 * The hybrid build (`fds build --origin URL`, docs/deploying.md): the volatile requests — a live
 * match's and every match's of the days around today, those days' scoreboards, the date-less
 * scoreboard, the change feed — go to the origin, asked exactly the request; everything else stays
 * on its file. Resolved by Netlify's own rule engine (@netlify/redirects) over the generated rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../../src/app/render.js';
import { check } from '../../src/check/check.js';
import { currentRelease } from '../../src/release/layout.js';
import { RuleError, checkOrigin } from '../../src/publish/rules/rule-settings.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { addDays, parseYmd, ymd } from '../../src/util/time.js';
import { demoKickoffs } from '../../src/sync/providers/demo/index.js';
import { NetlifyCdn, webRequest } from '../helpers/netlify-cdn.js';
import { DEMO_TODAY, buildInto, demoStore } from './helpers.js';

const ORIGIN = 'https://live.example.com';
const LEAGUE = 'eng.1';
const DAY_MS = 86_400_000;

/** The first day from DEMO_TODAY with an eng.1 kickoff in the demo at scale 0.1: the test's today. */
function matchday(): string {
  for (let day = parseYmd(DEMO_TODAY)!, n = 0; n < 366; day = addDays(day, 1), n++)
    if (demoKickoffs(1, 0.1, day.getTime(), day.getTime() + DAY_MS, [LEAGUE]).length) return ymd(day);
  throw new Error('no matchday within a year');
}
const TODAY = matchday();
const BASE = `/get/soccer/${LEAGUE}`;

describe('a hybrid build (--origin)', () => {
  let db: string;
  let store: StoreReader;
  let at: Date;
  let cdn: NetlifyCdn;
  let near: { day: string; id: string };
  let far: { day: string; id: string };

  beforeAll(async () => {
    db = await demoStore({ today: TODAY, leagues: [LEAGUE] });
    store = StoreReader.open(db);
    at = new Date(store.meta().snapshotAt!);
    const t = parseYmd(TODAY)!;
    const nearDays = new Set([-1, 0, 1].map((d) => ymd(addDays(t, d))));
    const dates = store.matches.dates(LEAGUE);
    const idOn = (day: string) => store.matches.onDate(LEAGUE, day)[0]!.record.id;
    const nearDay = dates.find((d) => nearDays.has(d));
    const farDay = dates.find((d) => Math.abs(parseYmd(d)!.getTime() - t.getTime()) > 5 * DAY_MS);
    if (!nearDay || !farDay) throw new Error(`the demo store has no ${LEAGUE} match near ${TODAY} or far from it`);
    near = { day: nearDay, id: idOn(nearDay) };
    far = { day: farDay, id: idOn(farDay) };
    const { out, summary } = await buildInto(db, undefined, { origin: `${ORIGIN}/` });
    expect(summary.rules!.toOrigin).toBeGreaterThan(0);
    cdn = await NetlifyCdn.open(currentRelease(out)!);
  }, 120_000);
  afterAll(() => store?.close());

  const where = async (path: string, query = '') => cdn.rules(webRequest('GET', path, query)!);

  /** The origin must be asked a request whose answer is the request's own. */
  async function expectOrigin(path: string, query = '') {
    const served = await where(path, query);
    const label = `${path}?${query}`;
    expect(served.kind, label).toBe('function');
    if (served.kind !== 'function') return;
    expect(served.to.startsWith(`${ORIGIN}/`), `${label} → ${served.to}`).toBe(true);
    const to = new URL(served.to);
    const ask = (p: string, q: string) =>
      render({ method: 'GET', path: p, rawQuery: q, headers: {} }, { store, clock: () => at });
    expect(ask(to.pathname, to.search.slice(1)).body.equals(ask(path, query).body), label).toBe(true);
  }

  it('sends the date-less scoreboard and the near days’ scoreboards to the origin', async () => {
    await expectOrigin(`${BASE}/scoreboard`);
    await expectOrigin(`${BASE}/scoreboard`, `dates=${near.day}`);
    // Another spelling of the same request: still the origin, asked the canonical one.
    await expectOrigin(`${BASE}/scoreboard`, `utm=x&dates=${near.day}`);
  });

  it('sends every answer about a match of the near days to the origin', async () => {
    await expectOrigin(`${BASE}/summary`, `event=${near.id}`);
    await expectOrigin(`${BASE}/events/${near.id}`);
    await expectOrigin(`${BASE}/events/${near.id}/plays`);
    await expectOrigin(`${BASE}/events/${near.id}/plays`, 'important=true');
  });

  it('sends the change feed to the origin', async () => {
    await expectOrigin('/get/soccer/changes');
  });

  it('keeps the rest on files: far days, their matches, league-level lists', async () => {
    for (const [path, query] of [
      [`${BASE}/scoreboard`, `dates=${far.day}`],
      [`${BASE}/events/${far.id}`, ''],
      [`${BASE}/summary`, `event=${far.id}`],
      [`${BASE}/standings`, ''],
      [`${BASE}/clubs`, ''],
      ['/get/soccer/leagues', ''],
    ] as const)
      expect((await where(path, query)).kind, `${path}?${query}`).toBe('file');
  });

  it('passes fds check: every file and every origin request the answer of the request', async () => {
    const { out } = await buildInto(db, undefined, { origin: ORIGIN });
    const report = await check({ dir: out, db, sample: 300 });
    expect(report.reasons).toEqual([]);
    expect(report.fileMismatches + report.sampleMismatches).toBe(0);
  });

  it('refuses an origin that is not an http(s) URL, and the edge router', () => {
    expect(() => checkOrigin('ftp://x', 'rules')).toThrow(RuleError);
    expect(() => checkOrigin('https://x/?a=1', 'rules')).toThrow(RuleError);
    expect(() => checkOrigin(ORIGIN, 'edge')).toThrow(/--router rules/);
    expect(checkOrigin(`${ORIGIN}/`, 'rules')).toBe(ORIGIN);
  });
});
