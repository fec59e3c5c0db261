/**
 * `fds start` end to end at real weight (what `npm start` runs, on one league at a tenth of a
 * season): it prints its address once the boards and the matches around the clock are stored, answers
 * the front page, the leagues, meta and the day's board from the store at once, then syncs the rest
 * of the season, publishes a build and serves the same bytes from its files, and exits 0 on SIGINT.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { addDays, parseYmd, ymd } from '../../src/util/time.js';
import { ROOT, tempDir } from '../helpers/store.js';

describe('fds start', { timeout: 180_000 }, () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves from the store once the boards and today are in, then syncs the rest and publishes a build', async () => {
    const dir = tempDir('fds-start-');
    const db = path.join(dir, 'store.sqlite');
    const out = path.join(dir, 'dist');
    // An older build in --out is unpublished first: it was built from another store.
    const old = path.join(dir, '.dist.releases', 'r-1');
    fs.mkdirSync(old, { recursive: true });
    fs.writeFileSync(path.join(old, 'manifest.ndjson'), '');
    fs.symlinkSync(old, out);
    // A day of the tenth of a season with eng.1 matches on it, in spring.
    const days = await createDemoProvider({ seed: 1, today: '20260321', scale: 0.1 }).scoreboardDates('eng.1');
    const day = days.filter((d) => d <= '20260321').at(-1)!;
    // Late that day: its matches are over, their summaries whole.
    const now = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T23:00:00Z`;
    const args = ['--leagues', 'eng.1', '--scale', '0.1', '--now', now, '--port', '0'];
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'start', ...args, '--db', db, '--out', out],
      { cwd: ROOT, env: { ...process.env, CI: 'true' } },
    );
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const waitFor = async (re: RegExp): Promise<RegExpExecArray> => {
      const deadline = Date.now() + 150_000;
      for (;;) {
        const m = re.exec(stdout);
        if (m) return m;
        if (proc.exitCode !== null) throw new Error(`fds start exited (${proc.exitCode}): ${stderr}\n${stdout}`);
        if (Date.now() > deadline) throw new Error(`no ${re} in time; stdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const get = async (origin: string, url: string) => {
      const r = await fetch(origin + url);
      return { status: r.status, body: await r.text() };
    };

    const origin = (await waitFor(/is up: open (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
    const window = [-1, 1].map((n) => ymd(addDays(parseYmd(day)!, n)));
    expect(stdout).toContain(`start: synced boards, clubs and tables, and the matches of ${window.join('–')} (`);
    expect(stdout).toMatch(/^start: unpublished the build in /m);
    const urls = ['/', '/get/soccer/leagues', '/get/soccer/meta', `/get/soccer/eng.1/scoreboard?dates=${day}`];
    const early = await Promise.all(urls.map((u) => get(origin, u)));
    expect(early.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const board = JSON.parse(early[3]!.body) as { events: Array<{ id: string }> };
    expect(board.events.length).toBeGreaterThan(0);
    // A match of the day has its summary already, at real weight (whole squads with statistics).
    const summary = await get(origin, `/get/soccer/eng.1/summary?event=${board.events[0]!.id}`);
    expect(summary.status).toBe(200);
    expect(summary.body.length).toBeGreaterThan(100_000);

    await waitFor(/^start: the first build is published after [\d.]+ s/m);
    expect(stdout).toMatch(/^start: synced the rest of the season \(\d+ units, [1-9]\d* records\)/m);
    expect(fs.realpathSync(out)).not.toBe(fs.realpathSync(old));
    const late = await get(origin, urls[3]!);
    expect(late).toEqual(early[3]);

    // Every match of the season has its summary by now.
    const store = openStore(db);
    try {
      const missing = store
        .prepare(
          `SELECT count(*) FROM matches m WHERE NOT EXISTS
             (SELECT 1 FROM match_summaries s WHERE s.league_slug = m.league_slug AND s.match_id = m.id)`,
        )
        .pluck()
        .get();
      expect(missing).toBe(0);
    } finally {
      store.close();
    }

    proc.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
