/**
 * Integration: the real ESPN responses in ../shared/fixtures/espn, served at ESPN's paths by the
 * stand-in (cleanly, then through a storm of faults), must store exactly what the files provider
 * stores from the same directory. Skipped when ../shared is absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAGUE_SLUGS } from '../../src/reference/leagues.js';
import type { DB } from '../../src/store/db.js';
import { runSync } from '../../src/sync/run-sync.js';
import { FilesProvider } from '../../src/sync/providers/files.js';
import { EspnProvider } from '../../src/sync/providers/espn.js';
import { HttpClient } from '../../src/sync/http/fetch-json.js';
import { fault, startStandIn } from '../helpers/espn-standin.js';
import type { Fault, FaultPlan, StandIn } from '../helpers/espn-standin.js';
import { FAST_HTTP } from '../helpers/espn-sync.js';
import { SHARED_ESPN, dumpContent, tempStore } from '../helpers/store.js';

const present = fs.existsSync(SHARED_ESPN);
const clock = () => new Date('2026-11-01T00:00:00Z');
const opts = { leagues: LEAGUE_SLUGS, concurrency: 6, clock };

const ids = (league: string, sub: string, re: RegExp) => {
  const dir = path.join(SHARED_ESPN, league, sub);
  return fs.existsSync(dir) ? fs.readdirSync(dir).flatMap((f) => re.exec(f)?.[1] ?? []) : [];
};

/**
 * ESPN is asked for what ESPN would be asked for, plus what only a recording can point at: its days
 * (the recorded seasons span years), and the summaries, plays and rosters it holds outside any board.
 */
class RecordedEspn extends EspnProvider {
  override async scoreboardDates(league: string) {
    return ids(league, 'scoreboard', /^(\d{8})\.json$/).sort();
  }
  async eventIds(league: string, board: string[]) {
    return [
      ...new Set([
        ...board,
        ...ids(league, 'summary', /^(\w+)\.json$/),
        ...ids(league, 'plays', /^(\w+?)(?:-\d+)?\.json$/),
      ]),
    ].sort();
  }
  override async matchPlan(league: string, listed: string[]) {
    const ids = await this.eventIds(league, listed);
    return { summaries: ids, plays: ids, reschedules: [] };
  }
  override async rosterTeamIds(league: string, known: string[]) {
    return [...new Set([...known, ...ids(league, 'roster', /^(\w+)\.json$/)])].sort();
  }
}

/** Content with the provider's name taken out: the two providers label what they stored. */
function comparable(db: DB) {
  const out: Record<string, unknown[]> = {};
  for (const [table, rows] of Object.entries(dumpContent(db))) {
    out[table] = rows.map((r) => {
      const row = JSON.parse(r as string) as Record<string, unknown>;
      delete row.hash;
      return JSON.stringify(row)
        .replaceAll('\\"provider\\":\\"files\\"', '\\"provider\\":\\"espn\\"')
        .replaceAll('"provider":"files"', '"provider":"espn"')
        .replace(/"value":"files"/, '"value":"espn"');
    });
  }
  return out;
}

/** Up to three faults on a path, the same ones every run: chosen by the path's hash. */
const storm: FaultPlan = ({ path: p, attempt }) => {
  let h = 2166136261; // FNV-1a
  for (const c of p) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  const kinds: Fault[] = [
    fault.status(500),
    fault.status(503),
    fault.status(429, '0'),
    fault.html,
    fault.truncate,
    fault.cut,
    fault.status(502),
    fault.stallBody,
  ];
  return attempt <= h % 4 ? kinds[((h >>> 4) >>> attempt) % kinds.length] : undefined;
};

describe.skipIf(!present)('ESPN over HTTP on the recorded ESPN responses in ../shared', () => {
  let standIn: StandIn;
  let expected: Record<string, unknown[]>;
  beforeAll(async () => {
    standIn = await startStandIn(SHARED_ESPN);
    const files = tempStore().db;
    expect((await runSync(files, new FilesProvider(SHARED_ESPN), opts)).failures).toEqual([]);
    expected = comparable(files);
  });
  afterAll(() => standIn?.close());

  const espn = (db: DB) =>
    new RecordedEspn({
      baseUrl: standIn.url,
      coreUrl: standIn.url,
      // Every recorded day is in the window, and --full asks every team list, roster and table.
      from: '19000101',
      to: '20991231',
      leagues: LEAGUE_SLUGS,
      store: () => db,
      clock,
      full: true,
      http: new HttpClient({ ...FAST_HTTP, concurrency: 6 }),
    });

  it('stores exactly what the files provider stores from the same responses', async () => {
    const { db } = tempStore();
    const report = await runSync(db, espn(db), opts);
    expect(report.failures).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM matches').pluck().get()).toBeGreaterThan(20);
    expect(comparable(db)).toEqual(expected);
  });

  it('stores the same through a storm of faults', async () => {
    standIn.reset();
    standIn.faults = storm;
    const { db } = tempStore();
    const report = await runSync(db, espn(db), opts);
    expect(report.failures).toEqual([]);
    expect(comparable(db)).toEqual(expected);
    // About one and a half faults per path on average were met and overcome.
    expect(standIn.stats.total).toBeGreaterThan(standIn.stats.perPath.size * 2);
  });
});
