/**
 * The cycles of `fds live` share one store connection and one reader for their whole run. Whatever
 * that reader saw before, each cycle publishes exactly what a fresh full build of the store gives,
 * and writes no Netlify Function package (the loop answers from its own server).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCycle } from '../../src/live/cycle.js';
import { functionLayout } from '../../src/netlify/function-package.js';
import type { CycleDeps } from '../../src/live/cycle.js';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { storeRoutine } from '../../src/sync/providers/demo/routine.js';
import { addDays, ymd } from '../../src/util/time.js';
import { tempDir } from '../helpers/store.js';
import { matchdayNoon } from '../demo/helpers.js';
import { buildInto, treeState } from '../publish/helpers.js';

const LEAGUES = ['eng.1'];
const SCALE = 0.5;
const MINUTE = 60_000;

const shas = (out: string) => new Map([...treeState(out)].map(([file, s]) => [file, s.sha]));

describe('fds live cycles', { timeout: 180_000 }, () => {
  const dir = tempDir('fds-cycle-');
  const file = path.join(dir, 'store.sqlite');
  const db = openStore(file);
  const deps: CycleDeps = {
    db,
    reader: StoreReader.open(file),
    out: path.join(dir, 'dist'),
    workers: 0,
    leagues: LEAGUES,
    concurrency: 4,
  };
  afterAll(() => {
    deps.reader.close();
    db.close();
  });

  it('publish what a fresh full build of the store gives, cycle after cycle', async () => {
    const noon = matchdayNoon(LEAGUES, undefined, 1, SCALE);
    const steps = [0, 1, 2, 24 * 60].map((m) => new Date(noon.getTime() + m * MINUTE));
    for (const [i, at] of steps.entries()) {
      const clock = () => at;
      const window = { from: ymd(addDays(at, -1)), to: ymd(addDays(at, 1)) };
      const routine = i === 0 ? undefined : storeRoutine(() => db, clock, window);
      const report = await runCycle(
        deps,
        createDemoProvider({ seed: 1, now: at, scale: SCALE, routine, weight: 'light' }),
        at,
      );
      expect(report.sync.failures).toEqual([]);
      expect(report.build?.published, `cycle ${i + 1}`).toBe(true);
      // The default fallback is the Netlify Function, but the loop deploys nothing to Netlify.
      expect(report.build?.functionSize).toBeNull();
      expect(fs.existsSync(functionLayout(deps.out).store)).toBe(false);
      // A fresh build as the loop makes it: without the function's package (nor its body files, _b/).
      const { out: fresh } = await buildInto(file, undefined, { full: true, functionPackage: false });
      expect(shas(deps.out)).toEqual(shas(fresh));
    }
  });
});
