/**
 * Recycled releases (publish/recycle.ts): an incremental build brings the release pruning would
 * delete up to date instead of linking every file into a new directory. Whatever it starts from,
 * what it publishes is byte for byte a full build of the same store, a file whose bytes did not
 * change is the published file itself (same inode and mtime), and one that did is a new file.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/db.js';
import { BuildError } from '../../src/publish/build.js';
import { currentRelease, releaseLayout, spareDir } from '../../src/release/layout.js';
import { Recycler, lineageLines } from '../../src/publish/reuse/recycle.js';
import { tempReleasePath } from '../../src/publish/atomic/releases.js';
import { createDemoProvider } from '../../src/sync/providers/demo/index.js';
import { storeRoutine } from '../../src/sync/providers/demo/routine.js';
import { runSync } from '../../src/sync/run-sync.js';
import { addDays, ymd } from '../../src/util/time.js';
import { deleteMatch, editStore, tempDir } from '../helpers/store.js';
import { matchdayNoon } from '../demo/helpers.js';
import { buildInto, treeState } from './helpers.js';
import type { FileState } from './helpers.js';
import type { NetlifyBuildOptions as BuildOptions } from '../../src/netlify/build.js';
import { EDGE_FILE } from '../../src/netlify/edge/bundle.js';

const SCALE = 0.5;
const LEAGUES = ['eng.1'];
const MINUTE = 60_000;
const AUX = new Set(['manifest.ndjson', '_headers', '_redirects', 'build.json']);

/** A routine demo sync at `now`, as a cycle of `fds live` makes one. */
async function syncAt(file: string, now: Date, routine = true): Promise<void> {
  const db = openStore(file);
  try {
    const clock = () => now;
    const window = { from: ymd(addDays(now, -1)), to: ymd(addDays(now, 1)) };
    const provider = createDemoProvider({
      seed: 1,
      now,
      scale: SCALE,
      weight: 'light',
      routine: routine ? storeRoutine(() => db, clock, window) : undefined,
    });
    const report = await runSync(db, provider, { leagues: LEAGUES, concurrency: 4, clock });
    expect(report.failures).toEqual([]);
  } finally {
    db.close();
  }
}

const shas = (tree: Map<string, FileState>) => new Map([...tree].map(([file, s]) => [file, s.sha]));

/** What the published tree must be: a full build of the same store, made elsewhere. */
async function expectSameAsFullBuild(db: string, out: string): Promise<void> {
  const { out: fresh } = await buildInto(db, undefined, { full: true });
  expect(shas(treeState(out))).toEqual(shas(treeState(fresh)));
}

/** Unchanged bytes: the very same file. Changed bytes: a new one. Returns the files that changed. */
function expectUntouchedIffEqual(before: Map<string, FileState>, after: Map<string, FileState>): string[] {
  const changed: string[] = [];
  for (const [file, a] of after) {
    const b = before.get(file);
    if (!b || AUX.has(file)) continue;
    if (a.sha === b.sha) expect({ ino: a.ino, mtimeMs: a.mtimeMs }, file).toEqual({ ino: b.ino, mtimeMs: b.mtimeMs });
    else {
      expect(a.ino, file).not.toBe(b.ino);
      changed.push(file);
    }
  }
  return changed;
}

const inode = (dir: string) => fs.statSync(dir).ino;

/** A finished match of the store, and its scoreboard day. */
const finishedMatch = (conn: Database.Database) =>
  conn.prepare("SELECT id, scoreboard_date AS day FROM matches WHERE state = 'post' LIMIT 1").get() as {
    id: string;
    day: string;
  };

/** A match's files in a tree. */
const matchFiles = (id: string) => (tree: Map<string, FileState>) =>
  [...tree.keys()].filter((f) => f.includes(`/events/${id}~`));

function releasesOf(out: string): string[] {
  return fs
    .readdirSync(releaseLayout(out).root)
    .filter((n) => /^r-\d+$/.test(n))
    .sort();
}

describe('recycled releases', { timeout: 240_000 }, () => {
  let noon: Date;
  beforeAll(() => {
    noon = matchdayNoon(LEAGUES, undefined, 1, SCALE);
  });

  /**
   * A full build and `minutes` minutes of incremental ones, every build with `options`: with two,
   * three releases, so the next build recycles the oldest.
   */
  async function releases(minutes: number, options: Partial<BuildOptions> = {}): Promise<{ db: string; out: string }> {
    const db = path.join(tempDir('fds-recycle-'), 'store.sqlite');
    await syncAt(db, noon, false);
    const { out } = await buildInto(db, undefined, options);
    for (let minute = 1; minute <= minutes; minute++) {
      await syncAt(db, new Date(noon.getTime() + minute * MINUTE));
      await buildInto(db, out, options);
    }
    return { db, out };
  }

  it('publish a live matchday minute by minute as full builds would, touching only what changed', async () => {
    const db = path.join(tempDir('fds-recycle-'), 'store.sqlite');
    await syncAt(db, noon, false);
    const { out } = await buildInto(db);
    let recycled = 0;
    for (let minute = 1; minute <= 5; minute++) {
      await syncAt(db, new Date(noon.getTime() + minute * MINUTE));
      const before = treeState(out);
      const releases = releasesOf(out);
      const oldest = releases.length >= 3 ? inode(path.join(releaseLayout(out).root, releases[0]!)) : null;
      const { summary } = await buildInto(db, out);
      expect(summary.published, `minute ${minute}`).toBe(true);
      const after = treeState(out);
      const changed = expectUntouchedIffEqual(before, after);
      expect(changed.length).toBe(summary.changed);
      expect(changed.length).toBeLessThan(after.size / 10);
      await expectSameAsFullBuild(db, out);
      // The published release, two kept beside it, nothing temporary left over.
      const now = releasesOf(out);
      expect(now.length).toBe(Math.min(3, releases.length + 1));
      expect(fs.readdirSync(releaseLayout(out).root).filter((n) => n.startsWith('tmp-'))).toEqual([]);
      if (oldest !== null) {
        // The oldest release became the new one: same directory, renamed, not deleted and made anew.
        expect(inode(currentRelease(out)!)).toBe(oldest);
        recycled++;
      }
    }
    expect(recycled).toBe(3);
  });

  it('take over the full build’s spare right after it: the same files, nothing linked anew, no spare left', async () => {
    const { db, out } = await releases(0);
    const full = currentRelease(out)!;
    const spare = spareDir(full);
    expect(fs.existsSync(spare)).toBe(true);
    const spareInode = inode(spare);
    await syncAt(db, new Date(noon.getTime() + MINUTE));
    const before = treeState(out);
    const { summary } = await buildInto(db, out);
    expect(summary.published).toBe(true);
    // The spare became the new release: same directory, renamed.
    expect(inode(currentRelease(out)!)).toBe(spareInode);
    const changed = expectUntouchedIffEqual(before, treeState(out));
    expect(changed.length).toBe(summary.changed);
    await expectSameAsFullBuild(db, out);
    expect(fs.existsSync(spare)).toBe(false);
    expect(fs.readdirSync(releaseLayout(out).root).filter((n) => n.endsWith('.spare'))).toEqual([]);
  });

  it('leave the spare where it is when the switch that measures it is off (FDS_WITHOUT=spare)', async () => {
    const { out } = await releases(0);
    const full = currentRelease(out)!;
    const layout = releaseLayout(out);
    const temp = tempReleasePath(layout);
    // Nothing older than the full build to recycle either: the build would start from an empty tree.
    expect(Recycler.take(layout, full, 2, temp, [], false)).toBeNull();
    expect(fs.existsSync(spareDir(full))).toBe(true);
    expect(Recycler.take(layout, full, 2, temp, [], true)?.dir).toBe(temp);
    expect(fs.existsSync(spareDir(full))).toBe(false);
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('make no spare for an incremental build, and drop a full build’s spare a later build did not take', async () => {
    const { db, out } = await releases(1, { workers: 0 });
    expect(fs.existsSync(spareDir(currentRelease(out)!))).toBe(false);
    await buildInto(db, out, { full: true });
    const full = currentRelease(out)!;
    expect(fs.existsSync(spareDir(full))).toBe(true);
    await syncAt(db, new Date(noon.getTime() + 2 * MINUTE));
    await buildInto(db, out, { full: true });
    expect(fs.existsSync(spareDir(full))).toBe(false);
    expect(fs.existsSync(spareDir(currentRelease(out)!))).toBe(true);
  });

  it('do not take a file that changed back for the published one', async () => {
    const db = path.join(tempDir('fds-recycle-'), 'store.sqlite');
    await syncAt(db, noon, false);
    const { out } = await buildInto(db);
    const conn = new Database(db, { readonly: true });
    // Two finished matches on different days: a day's scoreboard lists only its own matches.
    const finished = "SELECT id, scoreboard_date AS day FROM matches WHERE state = 'post' ORDER BY kickoff";
    const a = conn.prepare(`${finished}, id LIMIT 1`).get() as { id: string; day: string };
    const b = conn.prepare(`${finished} DESC, id LIMIT 1`).get() as { id: string; day: string };
    conn.close();
    expect(a.day).not.toBe(b.day);
    const board = `_s/get/soccer/eng.1/scoreboard/dates-${a.day}.json`;
    const boards: string[] = [];
    const rename = (m: { id: string; day: string }, name: string) =>
      editStore(
        db,
        (w) =>
          w
            .prepare(
              "UPDATE matches SET record = packed_record(json_set(record_text(record), '$.name', ?)), hash = ? WHERE id = ?",
            )
            .run(name, name, m.id),
        [
          ['match', 'eng.1', m.id],
          ['day', 'eng.1', m.day],
        ],
      );
    // A's scoreboard goes X → Y → X while later builds recycle the releases that hold the older copies.
    for (const [match, name] of [
      [a, 'Name X'],
      [a, 'Name Y'],
      [a, 'Name X'],
      [b, 'Other name'],
      [b, 'Another name'],
    ] as const) {
      rename(match, name);
      const before = treeState(out);
      await buildInto(db, out);
      const after = treeState(out);
      expectUntouchedIffEqual(before, after);
      await expectSameAsFullBuild(db, out);
      boards.push(after.get(board)!.sha);
    }
    // X, Y, X, and X kept twice: the releases recycled at the end hold copies of X that are not the published one.
    expect(new Set(boards).size).toBe(2);
    expect(boards[0]).toBe(boards[2]);
    expect(boards.slice(2)).toEqual([boards[2], boards[2], boards[2]]);
  });

  it('leave none of the edge router behind when a build with literal rules recycles an edge release', async () => {
    const { db, out } = await releases(2, { router: 'edge', fallback: 'https://origin.example' });
    expect(treeState(out).has(EDGE_FILE)).toBe(true);
    await syncAt(db, new Date(noon.getTime() + 3 * MINUTE));
    const { summary } = await buildInto(db, out, { router: 'rules', fallback: 'https://origin.example' });
    expect(summary.published).toBe(true);
    expect(treeState(out).has(EDGE_FILE)).toBe(false);
  });

  it('delete what a release between the recycled one and the new build removed', async () => {
    const { db, out } = await releases(2);
    // The next build recycles the oldest release, which still has the match's files.
    const conn = new Database(db, { readonly: true });
    const { id, day } = finishedMatch(conn);
    conn.close();
    const files = matchFiles(id);
    expect(files(treeState(out)).length).toBeGreaterThan(0);
    deleteMatch(db, 'eng.1', id, day);
    const removedIn = (await buildInto(db, out)).summary;
    expect(removedIn.deleted).toBeGreaterThan(0);
    expect(files(treeState(out))).toEqual([]);
    // Two more builds, each recycling a release made before the match went: neither may bring its files back.
    for (let minute = 3; minute <= 4; minute++) {
      await syncAt(db, new Date(noon.getTime() + minute * MINUTE));
      const { summary } = await buildInto(db, out);
      expect(summary.published).toBe(true);
      expect(files(treeState(out))).toEqual([]);
      await expectSameAsFullBuild(db, out);
    }
  });

  it('keep the files of a match that a release in between removed and the next one brought back', async () => {
    const { db, out } = await releases(0);
    const conn = new Database(db, { readonly: true });
    const { id, day } = finishedMatch(conn);
    const saved = ['matches', 'play_streams', 'match_summaries'].map((table) => ({
      table,
      rows: conn
        .prepare(`SELECT * FROM ${table} WHERE league_slug = ? AND ${table === 'matches' ? 'id' : 'match_id'} = ?`)
        .all('eng.1', id) as Array<Record<string, unknown>>,
    }));
    conn.close();
    const files = matchFiles(id);
    const had = files(treeState(out));
    expect(had.length).toBeGreaterThan(0);
    // The second release removes the match's files, the third brings them back.
    deleteMatch(db, 'eng.1', id, day);
    await buildInto(db, out);
    expect(files(treeState(out))).toEqual([]);
    const changes: Array<[string, string, string]> = [
      ['match', 'eng.1', id],
      ['day', 'eng.1', day],
      ['order', 'eng.1', ''],
    ];
    editStore(
      db,
      (w) => {
        for (const { table, rows } of saved) {
          for (const row of rows) {
            const keys = Object.keys(row);
            w.prepare(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((k) => `@${k}`).join(', ')})`).run(
              row,
            );
          }
        }
      },
      changes,
    );
    await buildInto(db, out);
    expect(files(treeState(out)).sort()).toEqual(had.sort());
    // The fourth recycles the first, which has them: the releases since removed them, and brought them back.
    await syncAt(db, new Date(noon.getTime() + MINUTE));
    const { summary } = await buildInto(db, out);
    expect(summary.mode).toBe('incremental');
    expect(files(treeState(out)).sort()).toEqual(had.sort());
    await expectSameAsFullBuild(db, out);
  });

  it('record how each release was made: what it wrote and removed, and only its origin when made from nothing', async () => {
    const db = path.join(tempDir('fds-recycle-'), 'store.sqlite');
    await syncAt(db, noon, false);
    const { out } = await buildInto(db);
    const first = currentRelease(out)!;
    expect(lineageLines(first)).toEqual(['from -']);
    await syncAt(db, new Date(noon.getTime() + MINUTE));
    const { summary } = await buildInto(db, out);
    const lines = lineageLines(currentRelease(out)!);
    expect(lines[0]).toBe(`from ${path.basename(first)}`);
    expect(lines.slice(1).every((l) => /^[+-]_s\//.test(l) || /^[+-]index\.html$/.test(l))).toBe(true);
    expect(lines.filter((l) => l.startsWith('+')).length).toBe(summary.added + summary.changed);
  });

  it('leave the published release as it was when a recycled build fails', async () => {
    const { db, out } = await releases(2);
    const release = currentRelease(out);
    const before = treeState(out);
    const conn = new Database(db, { readonly: true });
    const id = conn.prepare('SELECT match_id FROM match_summaries LIMIT 1').pluck().get() as string;
    conn.close();
    // A summary that cannot be inflated: its answers fail to render.
    editStore(db, (w) => w.prepare("UPDATE match_summaries SET sections = x'ff' WHERE match_id = ?").run(id), [
      ['summary', 'eng.1', id],
    ]);
    const err = await buildInto(db, out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildError);
    expect(currentRelease(out)).toBe(release);
    expect(treeState(out)).toEqual(before);
    expect(fs.readdirSync(releaseLayout(out).root).filter((n) => n.startsWith('tmp-'))).toEqual([]);
  });
});
