/**
 * The demo's payload weight (issue #50). `real` must take ESPN's sizes and proportions: each summary
 * section, the board entry and the play streams within ±25 % of the medians that
 * scripts/espn-weights.mjs derived from recorded ESPN responses (its committed output, so this test
 * never needs ../shared). `light` must stay byte for byte what it was before real weight existed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapScoreboard, mapSummary } from '../../src/espn/map-events.js';
import { mapPlays } from '../../src/espn/map-plays.js';
import { SUMMARY_SECTIONS } from '../../src/store/records.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import type { DemoWeight } from '../../src/sync/providers/demo/index.js';
import { matchdayNoon } from './helpers.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
interface Figures {
  median: number;
  min: number;
  max: number;
  n: number;
}
const REF = JSON.parse(fs.readFileSync(path.join(HERE, 'espn-weights.json'), 'utf8')) as {
  summary: {
    sections: Record<string, Figures>;
    total: Figures;
    commentary: { entries: Figures };
    rosters: { playersPerSide: Figures; playerStatsCount: Figures; playerSize: Figures };
  };
  board: { entrySize: Figures };
  plays: { touch: { count: Figures; playSize: Figures }; pruned: { count: Figures; playSize: Figures } };
};

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
};
const within = (actual: number, reference: number, tolerance = 0.25) =>
  Math.abs(actual - reference) <= tolerance * reference;

/** The clock and payloads the light hashes were taken with, before real weight existed. */
const LIGHT_LEAGUES = ['eng.1', 'bra.1'] as const;
const LIGHT_HASHES: Record<string, string> = {
  'eng.1': '45150d7533be616229995ec9c6b7ece18fd40fd138d40a281267af4814081d08',
  'bra.1': 'e77b60ee4cb7309aef3750d041cbb78bb9faa7a57c14ba02d2e5d12effc4b053',
};
/** The same payloads at real weight, as real weight first gave them (f52aa3e): a faster generator must not move a byte. */
const REAL_HASHES: Record<string, string> = {
  'eng.1': 'afadce0c5061ad9e18d01d2e34187e87f1856416eae1b12a8c85ca9b82114de9',
  'bra.1': '58927121a9801c01c282220506bd2c4025f13bd66b0775f675c3c5d701ccd8e5',
};

async function payloadHash(weight: DemoWeight | undefined, league: string): Promise<string> {
  const now = matchdayNoon([...LIGHT_LEAGUES]);
  const p = createDemoProvider({ seed: 1, now, scale: 1, ...(weight ? { weight } : {}) });
  const h = createHash('sha256');
  const days = await p.scoreboardDates(league);
  const today = now.toISOString().slice(0, 10).replaceAll('-', '');
  const i = days.indexOf(today);
  const ids: string[] = [];
  for (const d of [days[0]!, days[i - 1]!, today, days[i + 1]!]) {
    const b = (await p.scoreboard(league, d)) as { events: Array<{ id: string }> };
    h.update(JSON.stringify(b));
    ids.push(...b.events.map((e) => e.id));
  }
  for (const id of ids) {
    h.update(JSON.stringify(await p.summary(league, id)));
    h.update(JSON.stringify((await p.plays(league, id)) ?? null));
  }
  h.update(JSON.stringify(await p.teams(league)));
  h.update(JSON.stringify(await p.roster(league, (await p.rosterTeamIds(league, []))[0]!)));
  h.update(JSON.stringify(await p.standings(league, null)));
  return h.digest('hex');
}

describe('demo weight: light', () => {
  it('is byte for byte the payloads from before real weight, when asked for', async () => {
    for (const league of LIGHT_LEAGUES) expect(await payloadHash('light', league)).toBe(LIGHT_HASHES[league]);
  });

  it('real is the default, byte for byte the payloads real weight first gave', async () => {
    for (const league of LIGHT_LEAGUES) {
      expect(await payloadHash(undefined, league)).toBe(REAL_HASHES[league]);
      expect(await payloadHash('real', league)).toBe(REAL_HASHES[league]);
    }
  });

  it('rejects an unknown weight', () => {
    expect(() => createDemoProvider({ seed: 1, today: '20260321', scale: 1, weight: 'heavy' as DemoWeight })).toThrow(
      /weight/,
    );
  });
});

describe('demo weight: real, against the recorded ESPN medians (±25 %)', () => {
  const NOW = new Date('2026-03-21T12:00:00Z');
  const DAY = 86_400_000;
  const LEAGUES = ['eng.1', 'bra.1'];
  const sections: Record<string, number[]> = {};
  const totals: number[] = [];
  const commentary: number[] = [];
  const players: number[] = [];
  const playerSizes: number[] = [];
  const statCounts: number[] = [];
  const boards: number[] = [];
  const recent: Array<{ count: number; sizes: number[] }> = [];
  const old: Array<{ count: number; sizes: number[] }> = [];
  const samples: Array<{ summary: Record<string, unknown>; pages: unknown[]; board: unknown }> = [];

  beforeAll(async () => {
    const p = createDemoProvider({ seed: 1, now: NOW, scale: 1, weight: 'real' });
    for (const league of LEAGUES) {
      const days = (await p.scoreboardDates(league)).filter((d) => d < '20260321');
      // The last few matchdays (touch-level streams) and a few a month or more back (pruned ones).
      for (const d of [...days.slice(-3), ...days.slice(-12, -9)]) {
        const board = (await p.scoreboard(league, d)) as { events: Array<{ id: string; date: string }> };
        for (const e of board.events) {
          boards.push(size(e));
          const summary = (await p.summary(league, e.id)) as Record<string, unknown>;
          const pages = (await p.plays(league, e.id)) as Array<{ items: unknown[]; count: number }>;
          const state = (summary.header as { competitions: Array<{ status: { type: { state: string } } }> })
            .competitions[0]!.status.type.state;
          if (state !== 'post') continue;
          totals.push(size(summary));
          for (const [k, v] of Object.entries(summary)) {
            sections[k] = [...(sections[k] ?? []), size(v)];
          }
          commentary.push((summary.commentary as unknown[]).length);
          for (const side of summary.rosters as Array<{ roster: Array<{ stats: unknown[] }> }>) {
            players.push(side.roster.length);
            for (const pl of side.roster) {
              playerSizes.push(size(pl));
              statCounts.push(pl.stats.length);
            }
          }
          const items = pages.flatMap((pg) => pg.items);
          const stream = { count: pages[0]!.count, sizes: items.map(size) };
          (NOW.getTime() - Date.parse(e.date) <= 14 * DAY ? recent : old).push(stream);
          if (samples.length < 3) samples.push({ summary, pages, board: e });
        }
      }
    }
  }, 120_000);

  // Sections the store keeps and those it drops (which still weigh on the sync); ESPN's
  // `lastFiveGames` is left out: one recorded summary of three has it.
  const SECTIONS = [...SUMMARY_SECTIONS, 'article', 'pickcenter', 'headToHeadGames', 'standings', 'meta'];

  it('has a sample of finished matches, recent and older', () => {
    expect(totals.length).toBeGreaterThanOrEqual(30);
    expect(recent.length).toBeGreaterThanOrEqual(10);
    expect(old.length).toBeGreaterThanOrEqual(10);
  });

  it.each(SECTIONS)('summary section %s', (name) => {
    const ref = REF.summary.sections[name]!;
    expect(ref, `reference for ${name}`).toBeDefined();
    const got = median(sections[name] ?? [0]);
    expect(within(got, ref.median), `${name}: demo median ${got} B, ESPN ${ref.median} B`).toBe(true);
  });

  it('the whole summary', () => {
    expect(within(median(totals), REF.summary.total.median)).toBe(true);
  });

  it('commentary at ESPN counts; rosters of whole matchday squads with ESPN per-player statistics', () => {
    const c = REF.summary.commentary.entries;
    expect(Math.min(...commentary)).toBeGreaterThanOrEqual(c.min * 0.9);
    expect(Math.max(...commentary)).toBeLessThanOrEqual(c.max * 1.1);
    expect(within(median(players), REF.summary.rosters.playersPerSide.median, 0.15)).toBe(true);
    expect(new Set(statCounts)).toEqual(new Set([REF.summary.rosters.playerStatsCount.median]));
    expect(within(median(playerSizes), REF.summary.rosters.playerSize.median)).toBe(true);
  });

  it('board entries', () => {
    expect(within(median(boards), REF.board.entrySize.median)).toBe(true);
  });

  it('touch-level streams for the last two weeks, pruned ones before', () => {
    for (const s of recent) {
      expect(s.count).toBeGreaterThanOrEqual(1000);
      expect(s.count).toBeLessThanOrEqual(1600);
    }
    for (const s of old) {
      expect(s.count).toBeGreaterThanOrEqual(150);
      expect(s.count).toBeLessThanOrEqual(250);
    }
    expect(within(median(recent.flatMap((s) => s.sizes)), REF.plays.touch.playSize.median)).toBe(true);
    expect(within(median(old.flatMap((s) => s.sizes)), REF.plays.pruned.playSize.median)).toBe(true);
  });

  it('goes through the same mapping as real data; key events stay in the stream, with coordinates around them', () => {
    for (const { summary, pages, board } of samples) {
      const mapped = mapSummary(summary, 'demo');
      mapScoreboard({ events: [board] }, 'demo');
      const { plays, complete } = mapPlays(pages, { team: () => undefined, athlete: () => undefined });
      expect(complete).toBe(true);
      const ids = new Set(plays.map((p) => p.id));
      expect(ids.size).toBe(plays.length);
      for (const id of mapped.keyEventIds) expect(ids.has(id), `key event ${id} in the stream`).toBe(true);
      const items = pages.flatMap((p) => (p as { items: Array<Record<string, unknown>> }).items);
      expect(items.filter((i) => typeof i.fieldPositionX === 'number').length).toBeGreaterThan(items.length / 2);
      // The score never goes backwards along the stream.
      let last = 0;
      for (const p of plays) {
        const total = (p.homeScore ?? 0) + (p.awayScore ?? 0);
        expect(total).toBeGreaterThanOrEqual(last);
        last = total;
      }
    }
  });

  it('is deterministic', async () => {
    const a = createDemoProvider({ seed: 1, now: NOW, scale: 1, weight: 'real' });
    const b = createDemoProvider({ seed: 1, now: NOW, scale: 1, weight: 'real' });
    const days = await a.scoreboardDates('eng.1');
    const day = days.filter((d) => d < '20260321').at(-1)!;
    const board = (await a.scoreboard('eng.1', day)) as { events: Array<{ id: string }> };
    expect(JSON.stringify(await b.scoreboard('eng.1', day))).toBe(JSON.stringify(board));
    const id = board.events[0]!.id;
    expect(JSON.stringify(await b.summary('eng.1', id))).toBe(JSON.stringify(await a.summary('eng.1', id)));
    expect(JSON.stringify(await b.plays('eng.1', id))).toBe(JSON.stringify(await a.plays('eng.1', id)));
  });
});
