/**
 * `fds live --purge`: each cycle starts purging what it published and is over without waiting for
 * it; a purge target that does not answer fails no cycle and delays none, its cycle line says so,
 * and the next cycle sends the tags it left pending along with its own.
 */
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cycleLine, runCycle } from '../../src/live/cycle.js';
import type { CycleDeps } from '../../src/live/cycle.js';
import { parsePurgeTarget } from '../../src/purge/parse.js';
import { Purger } from '../../src/purge/purger.js';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { storeRoutine } from '../../src/sync/providers/demo/routine.js';
import { addDays, ymd } from '../../src/util/time.js';
import { tempDir } from '../helpers/store.js';
import { matchdayNoon } from '../demo/helpers.js';
import type { Answer } from '../purge/stand-in.js';
import { startStandIn, stopStandIns } from '../purge/stand-in.js';

const LEAGUES = ['eng.1'];
const SCALE = 0.5;
const MINUTE = 60_000;
const TIMEOUT_MS = 1500;

afterEach(stopStandIns);

describe('fds live cycles with a purge target', { timeout: 180_000 }, () => {
  const dir = tempDir('fds-live-purge-');
  const file = path.join(dir, 'store.sqlite');
  const db = openStore(file);
  const reader = StoreReader.open(file);
  afterAll(() => {
    reader.close();
    db.close();
  });

  it('never wait for a purge that does not answer, and send its tags with the next one', async () => {
    const varnish = await startStandIn((): Answer => 'never');
    const purger = new Purger([parsePurgeTarget(`varnish:${varnish.url}/`, {})], { timeoutMs: TIMEOUT_MS });
    const deps: CycleDeps = {
      db,
      reader,
      out: path.join(dir, 'dist'),
      workers: 0,
      leagues: LEAGUES,
      concurrency: 4,
      purger,
    };
    const noon = matchdayNoon(LEAGUES, undefined, 1, SCALE);
    const cycle = (at: Date, first: boolean) => {
      const clock = () => at;
      const window = { from: ymd(addDays(at, -1)), to: ymd(addDays(at, 1)) };
      const routine = first ? undefined : storeRoutine(() => db, clock, window);
      return runCycle(deps, createDemoProvider({ seed: 1, now: at, scale: SCALE, routine, weight: 'light' }), at);
    };

    const one = await cycle(noon, true);
    expect(one.build?.published).toBe(true);
    const tags1 = one.build!.changedTags;
    expect(tags1.length).toBeGreaterThan(0);
    // The cycle is over while its purge request is still unanswered.
    let settled = false;
    void one.purge!.then(() => {
      settled = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);

    // Its report comes within the purger's wait, failed, with every tag still pending.
    const started = performance.now();
    const report1 = await one.purge!;
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 1000);
    expect(report1.targets[0]).toMatchObject({ purged: 0, pending: tags1.length });
    const line1 = cycleLine(1, one, report1);
    expect(line1).toMatch(/; \d+\.\ds in all; purge: varnish /);
    expect(line1).toMatch(new RegExp(`${tags1.length} tags pending`));

    // The target is back: the next cycle's purge sends the pending tags with its own.
    varnish.answer = () => ({});
    const two = await cycle(new Date(noon.getTime() + MINUTE), false);
    expect(two.build?.published).toBe(true);
    const report2 = await two.purge!;
    const all = new Set([...tags1, ...two.build!.changedTags]);
    expect(report2.targets[0]).toMatchObject({ purged: all.size, pending: 0 });
    expect(cycleLine(2, two, report2)).toMatch(new RegExp(`; purged ${all.size} tags in \\d+ ms$`));
    const answered = varnish.seen.slice(1).flatMap((s) => String(s.headers['xkey-purge']).split(' '));
    expect(new Set(answered)).toEqual(all);
  });
});

describe('the cycle line', () => {
  it('leaves the purge out when there was nothing to purge and nothing is pending', () => {
    const report = {
      at: new Date('2026-03-21T12:00:00Z'),
      sync: { units: { ok: 1, failed: 0, unavailable: 0 }, written: 0, failures: [], aborted: false },
      syncSeconds: 0.1,
      build: null,
      seconds: 0.2,
      purge: null,
    } as unknown as Parameters<typeof cycleLine>[1];
    const idle = { targets: [{ name: 'varnish', purged: 0, requests: 0, ms: 0, pending: 0, busy: false }] };
    expect(cycleLine(3, report, idle)).toMatch(/0\.2s in all$/);
  });
});
