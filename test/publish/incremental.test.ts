/**
 * Incremental builds: a rebuild with no change writes nothing (same release, same inodes and
 * mtimes, a summary of zeros); after one match changes only the files whose bytes changed are
 * written, and the files of a vanished match are deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { isGroup } from '../../src/api/route.js';
import { ROUTES } from '../../src/app/routes.js';
import { currentRelease } from '../../src/release/layout.js';
import { buildInto, demoStore, treeState } from './helpers.js';
import { deleteMatch, editStore } from '../helpers/store.js';
import type { FileState } from './helpers.js';

let db: string;
let out: string;

beforeAll(async () => {
  db = await demoStore();
  ({ out } = await buildInto(db));
});

function pickMatch(state = 'post'): { league: string; id: string } {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare('SELECT league_slug AS league, id FROM matches WHERE state = ? ORDER BY kickoff, id LIMIT 1')
      .get(state) as { league: string; id: string };
  } finally {
    conn.close();
  }
}

function dayOf(league: string, id: string): string {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare('SELECT scoreboard_date FROM matches WHERE league_slug = ? AND id = ?')
      .pluck()
      .get(league, id) as string;
  } finally {
    conn.close();
  }
}

/** Files present in both trees: equal bytes must mean the very same inode and mtime, and vice versa. */
function expectUntouchedIffEqual(before: Map<string, FileState>, after: Map<string, FileState>): string[] {
  const changed: string[] = [];
  for (const [file, a] of after) {
    const b = before.get(file);
    if (!b || ['manifest.ndjson', '_headers', '_redirects', 'build.json'].includes(file)) continue;
    if (a.sha === b.sha) expect({ ino: a.ino, mtimeMs: a.mtimeMs }, file).toEqual({ ino: b.ino, mtimeMs: b.mtimeMs });
    else {
      expect(a.ino, file).not.toBe(b.ino);
      changed.push(file);
    }
  }
  return changed;
}

describe('incremental build', () => {
  it('writes nothing when nothing changed', async () => {
    const release = currentRelease(out);
    const before = treeState(out);
    const { summary } = await buildInto(db, out);
    expect(summary).toMatchObject({
      published: false,
      added: 0,
      changed: 0,
      deleted: 0,
      failed: 0,
      unchanged: summary.files,
    });
    expect(currentRelease(out)).toBe(release);
    expect(treeState(out)).toEqual(before);
  });

  it('after one match changes, writes only the files whose bytes changed', async () => {
    const before = treeState(out);
    const { league, id } = pickMatch();
    editStore(
      db,
      (w) =>
        w
          .prepare(
            `UPDATE matches SET record = packed_record(json_set(record_text(record), '$.name', 'Renamed Derby')), hash = 'changed'
             WHERE league_slug = ? AND id = ?`,
          )
          .run(league, id),
      [
        ['match', league, id],
        ['day', league, dayOf(league, id)],
      ],
    );
    const { summary } = await buildInto(db, out);
    const after = treeState(out);
    const changed = expectUntouchedIffEqual(before, after);
    expect(summary).toMatchObject({ published: true, added: 0, deleted: 0, changed: changed.length });
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(before.size / 10);
    const release = currentRelease(out)!;
    // The change feed changes with every snapshot and names the match; every other changed file shows the edit.
    const feed = '_s/get/soccer/changes/index.json';
    expect(changed).toContain(feed);
    const latest = JSON.parse(fs.readFileSync(path.join(release, feed), 'utf8')).snapshots[0];
    expect(latest.matches.map((m: { id: string }) => m.id)).toEqual([id]);
    for (const f of changed.filter((f) => f !== feed)) {
      expect(fs.readFileSync(path.join(release, f), 'utf8'), f).toContain('Renamed Derby');
    }
    expect(changed.some((f) => f.startsWith(`_s/get/soccer/${league}/scoreboard/`))).toBe(true);
    expect(summary.unchanged).toBe(summary.files - changed.length);
  });

  it("renders a match's plays pages again for its progress, its plays and its key events only", async () => {
    const { league, id } = pickMatch();
    const manifestFiles = () =>
      fs
        .readFileSync(path.join(currentRelease(out)!, 'manifest.ndjson'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).file as string);
    const plays = manifestFiles().filter((f) => f.startsWith(`_s/get/soccer/${league}/events/${id}~plays~`));
    const important = plays.filter((f) => f.includes('important-true'));
    // The match's own other files: its summary (which counts its plays).
    const own = manifestFiles().filter(
      (f) => f.startsWith(`_s/get/soccer/${league}/events/${id}~`) && !plays.includes(f),
    );
    expect(own.length).toBeGreaterThan(0);
    expect(important.length).toBeGreaterThan(0);
    expect(important.length).toBeLessThan(plays.length);
    // Each build follows a snapshot whose log says only this (the data stays as it is): what it
    // renders beyond what any snapshot renders (the feed, /meta) is what reads the logged topic.
    const renderedAfter = async (kinds: string[]) => {
      editStore(
        db,
        () => {},
        kinds.map((k): [string, string, string] => [k, league, id]),
      );
      return (await buildInto(db, out)).summary.rendered;
    };
    const any = await renderedAfter([]);
    expect((await renderedAfter(['state'])) - any).toBe(plays.length);
    expect((await renderedAfter(['plays'])) - any).toBe(plays.length + own.length);
    expect((await renderedAfter(['key-events'])) - any).toBe(important.length);
    // The rest of its record or summary: its summary and the lists holding it, not its plays pages.
    expect((await renderedAfter(['match'])) - any).toBeGreaterThan(0);
    expect((await renderedAfter(['match', 'summary', 'state'])) - any).toBe(
      (await renderedAfter(['match', 'summary'])) - any + plays.length,
    );
  });

  it("enumerates the requests of the touched match's league only: every other league's match files are carried over whole", async () => {
    const { league, id } = pickMatch();
    // Which matches' requests the build asks each grouped route's enumerator for.
    const asked = new Map<string, string[]>();
    const spies = ROUTES.filter((r) => r.groupReads).map((route) => {
      const enumerate = route.prerender!;
      return vi.spyOn(route, 'prerender').mockImplementation(function* (store, r) {
        for (const p of enumerate(store, r)) {
          if (!isGroup(p)) yield p;
          else
            yield {
              params: p.params,
              requests: () => {
                asked.set(route.name, [...(asked.get(route.name) ?? []), `${p.params.league}/${p.params.eventId}`]);
                return p.requests();
              },
            };
        }
      });
    });
    try {
      editStore(db, () => {}, [['plays', league, id]]);
      const { summary } = await buildInto(db, out);
      expect(summary.mode).toBe('incremental');
      for (const route of ['event', 'plays']) {
        const leagues = new Set(asked.get(route)?.map((m) => m.split('/')[0]));
        expect([...leagues], route).toEqual([league]);
        expect(asked.get(route), route).toContain(`${league}/${id}`);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("renders the pages of all fixtures that list a changed day's matches, and all of them when the order moves", async () => {
    // A league with several pages of fixtures.
    const store = await demoStore({ leagues: ['eng.1'], scale: 0.8 });
    const dist = (await buildInto(store)).out;
    const conn = new Database(store, { readonly: true });
    const days = conn
      .prepare("SELECT scoreboard_date FROM matches WHERE league_slug = 'eng.1' ORDER BY kickoff, id")
      .pluck()
      .all() as string[];
    conn.close();
    const day = days[150]!;
    const files = fs
      .readFileSync(path.join(currentRelease(dist)!, 'manifest.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).file as string)
      .filter((f) => f.startsWith('_s/get/soccer/eng.1/fixtures/'));
    const allPages = files.filter((f) => f.includes('status-all'));
    const statusPages = files.length - allPages.length;
    // The pages of all matches (100 a page) that list one of the day's.
    const listing = new Set(days.flatMap((d, i) => (d === day ? [Math.floor(i / 100)] : []))).size;
    expect(allPages.length).toBeGreaterThan(listing + 1);
    expect(statusPages).toBeGreaterThan(0);
    const renderedAfter = async (rows: Array<[string, string, string]>) => {
      editStore(store, () => {}, rows);
      return (await buildInto(store, dist)).summary.rendered;
    };
    const any = await renderedAfter([]);
    // Beside the fixtures, what reads every match of the league: its club list (clubs seen in its matches).
    const clubList = 1;
    // The day's scoreboard, every page of each status, and the pages of all matches listing the day.
    expect((await renderedAfter([['day', 'eng.1', day]])) - any).toBe(1 + clubList + statusPages + listing);
    expect((await renderedAfter([['order', 'eng.1', '']])) - any).toBe(clubList + files.length);
  });

  it('deletes the files of a match that vanished from the store, and only those', async () => {
    const before = treeState(out);
    const { league, id } = pickMatch('pre');
    const day = dayOf(league, id);
    deleteMatch(db, league, id, day);
    const { summary } = await buildInto(db, out);
    const after = treeState(out);
    const gone = [...before.keys()].filter((f) => !after.has(f));
    const prefix = `${path.join('_s/get/soccer', league, 'events', id)}~`;
    // Its body file (the function's, netlify/function-package.ts) goes with them.
    const body = `${path.join('_b', league, id)}-`;
    const files = gone.filter((f) => !f.startsWith(body));
    expect(gone.length - files.length).toBe(1);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(f.startsWith(prefix), f).toBe(true);
    expect(summary.deleted).toBe(files.length);
    expect(summary.added).toBe(0);
    expectUntouchedIffEqual(before, after);
  });
});
