/**
 * Cost follows change (docs/json-api.md): when the demo clock moves on a day, only the
 * matches whose progress changed, their days and the lists and aggregates that hold them are
 * rendered and written again; every other day's scoreboard and every other match's files stay
 * byte-identical, hard-linked from the release before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { StoreReader } from '../../src/store/read/reader.js';
import { build } from '../../src/netlify/build.js';
import { currentRelease } from '../../src/release/layout.js';
import { tempDir } from '../helpers/store.js';
import { matchdayNoon, syncAt } from '../demo/helpers.js';
import { treeState } from '../publish/helpers.js';

const LEAGUE = 'eng.1';
const dir = tempDir('fds-oneday-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function buildOnce(file: string, out: string, full = false) {
  const store = StoreReader.open(file);
  try {
    return await build({ store, out, full, workers: 0 });
  } finally {
    store.close();
  }
}

describe('a day of the demo clock', { timeout: 300_000 }, () => {
  it('rewrites only the files of matches that progressed, their days, and what aggregates them', async () => {
    const file = path.join(dir, 'store.sqlite');
    const out = path.join(dir, 'dist');
    const noon = matchdayNoon([LEAGUE], '20260321', 1, 0.5);
    const db = openStore(file);
    await syncAt(db, [LEAGUE], noon, 1, 0.5);
    await buildOnce(file, out);
    const before = treeState(out);
    await syncAt(db, [LEAGUE], new Date(noon.getTime() + 86_400_000), 1, 0.5);
    const days = new Map(
      (db.prepare('SELECT id, scoreboard_date AS day FROM matches').all() as Array<{ id: string; day: string }>).map(
        (r) => [r.id, r.day],
      ),
    );
    db.close();
    const summary = await buildOnce(file, out);
    expect(summary.mode).toBe('incremental');
    const after = treeState(out);
    // What the store now says, rendered from scratch: the bytes a day of play leaves alone must not move.
    const fresh = treeState((await buildOnce(file, path.join(dir, 'full'), true)).release);

    const feed = JSON.parse(
      fs.readFileSync(path.join(currentRelease(out)!, '_s/get/soccer/changes/index.json'), 'utf8'),
    ) as { snapshots: Array<{ matches: Array<{ id: string }> }> };
    const moved = new Set(feed.snapshots[0]!.matches.map((m) => m.id));
    const movedDays = new Set([...moved].map((id) => days.get(id)!));
    expect(moved.size).toBeGreaterThan(0);
    expect(moved.size).toBeLessThan(days.size / 5);

    let same = 0;
    for (const [f, a] of after) {
      const b = before.get(f);
      const match = /\/events\/([^/~]+)~/.exec(f)?.[1];
      const day = /\/scoreboard\/dates-(\d{8})\.json$/.exec(f)?.[1];
      if (!b || (match && moved.has(match)) || (day && movedDays.has(day))) continue;
      if (!match && !day) continue; // lists and aggregates: fixtures, standings, leagues, meta, the feed
      expect(fresh.get(f)?.sha, f).toBe(b.sha);
      // …and the incremental build carried the very file over.
      expect({ sha: a.sha, ino: a.ino }, f).toEqual({ sha: b.sha, ino: b.ino });
      same++;
    }
    expect(same).toBeGreaterThan(after.size / 2);
    // And the build rendered about what changed, not the store.
    expect(summary.rendered).toBeLessThan(summary.files / 4);
  });
});
