/**
 * What the Netlify Function ships and reads besides its code, made by `fds build` (docs/deploying.md):
 * a slim copy of the store beside the release, and the per-match bodies as files in the release.
 *
 * - The slim store (`data/function.sqlite`, netlify.toml `included_files`): every table, row and index
 *   of the store, but the compressed per-match bodies — a summary's sections, a match's play streams —
 *   left NULL, each match's listed event left empty (the reader derives it from the record), and the
 *   sync's own bookkeeping left out. It holds what arbitrary query combinations need (lists, indexes,
 *   leagues, clubs, standings, match records, counts), so it grows with the number of matches by a
 *   match's record (docs/deploying.md), not by its bodies.
 * - The bodies, one file per match in the release (`_b/<league>/<id>-<tag>.bin`, match-body.ts),
 *   named by the hashes of the rows they come from: static files of the deploy, so Netlify uploads only
 *   those whose digest is new to the site, and the function fetches a match's from its own deploy when
 *   a request needs its body (deploy-bodies.ts).
 *
 * Both are of the snapshot the release was built from: the slim store is copied in the build's read
 * transaction's snapshot (checked), and the body files are the store's in the same transaction — a
 * name the tree a build starts from already holds is kept (its bytes are what the name says), one it
 * lacks is linked from the published release or written, one the store no longer names is removed.
 * `data/function.json` records the snapshot and the sizes, so a build that changes nothing measures
 * nothing again.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { StoreReader } from '../store/read/reader.js';
import { SCHEMA_VERSION } from '../store/migrations/index.js';
import type { Snapshot } from '../store/snapshots.js';
import { SnapshotQueries } from '../store/snapshots.js';
import { BODIES_IN_DEPLOY_FILES, META_BODIES } from './deploy-bodies.js';
import type { FunctionSize, SizeCache } from './function-size.js';
import { functionArchiveSize } from './function-size.js';
import { BODIES_DIR, FUNCTION_STATE, FUNCTION_STORE } from './function-store.js';
import type { MatchBody } from './match-body.js';
import { bodyFile, bodyTag, encodeMatchBody } from './match-body.js';

/** Bumped when what the package holds changes: a package of another version is made again. */
const PACKAGE_VERSION = 3;

/**
 * The columns left out of the slim store, each with what it holds there instead: the bodies the
 * function reads from the deploy's blobs (or never reads), NULL; and each match's listed event, which
 * the reader derives from the match's record when it is empty (store/read/matches.ts) — the event
 * would double what a match costs the slim store.
 */
export const SLIM_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  match_summaries: { sections: 'NULL', section_spans: 'NULL' },
  // `flags` feeds the sync's important counts; the render core reads the counts.
  play_streams: { flags: 'NULL', ends: 'NULL', plays: 'NULL', important_ends: 'NULL', important_plays: 'NULL' },
  matches: { event_json: "x''", event_holes: "'[]'" },
};
/** Tables only the sync reads: empty in the slim store. */
export const SLIM_EMPTY_TABLES: ReadonlySet<string> = new Set(['sync_state']);

export interface FunctionLayout {
  /** The project root the paths are relative to: the release's parent directory. */
  root: string;
  store: string;
  state: string;
}

export function functionLayout(out: string): FunctionLayout {
  const root = path.dirname(path.resolve(out));
  return {
    root,
    store: path.join(root, FUNCTION_STORE),
    state: path.join(root, FUNCTION_STATE),
  };
}

interface PackageState {
  version: number;
  schema: number;
  snapshot: Snapshot | null;
  /** The slim store's size when it was written: another size means another file. */
  storeBytes: number;
  sizes: SizeCache;
}

export interface BlobCounts {
  /** Body files written by this build (bodies no release of this output held), and their bytes. */
  written: number;
  bytes: number;
  /** Linked from the published release (the tree the build started from lacked them). */
  linked: number;
  removed: number;
  /** Every body file of the release, and their bytes. */
  count: number;
  totalBytes: number;
}

function readState(file: string): PackageState | null {
  try {
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as PackageState;
    return state.version === PACKAGE_VERSION && state.schema === SCHEMA_VERSION ? state : null;
  } catch {
    return null;
  }
}

const sameSnapshot = (a: Snapshot | null, b: Snapshot | null) => a?.id === b?.id && a?.at === b?.at;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Copy `source` (a store file) into `file`, a new store of the same schema without the per-match
 * bodies. The copy is one read of the source in SQLite (attached); it must show `expected`, the
 * snapshot the caller reads, else it throws (a sync committed meanwhile).
 */
export function writeSlimStore(source: string, file: string, expected: Snapshot | null): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const f of [file, `${file}-journal`]) fs.rmSync(f, { force: true });
  const out = new Database(file);
  try {
    out.pragma('journal_mode = OFF');
    out.pragma('synchronous = OFF');
    out.prepare('ATTACH DATABASE ? AS src').run(source);
    out.exec('BEGIN');
    type Entry = { type: string; name: string; sql: string };
    const schema = out
      .prepare(`SELECT type, name, sql FROM src.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
        ORDER BY type = 'table' DESC, rowid`)
      .all() as Entry[];
    const withoutRowid = new Set(
      out.prepare("SELECT name FROM pragma_table_list WHERE schema = 'src' AND wr = 1").pluck().all() as string[],
    );
    for (const t of schema) {
      if (t.type !== 'table') continue;
      out.exec(t.sql);
      if (SLIM_EMPTY_TABLES.has(t.name)) continue;
      const names = out.prepare('SELECT name FROM pragma_table_info(?, ?)').pluck().all(t.name, 'src') as string[];
      const slim = SLIM_COLUMNS[t.name] ?? {};
      const columns = names.map(quote);
      const values = names.map((n) => slim[n] ?? quote(n));
      // In the source's row order: a scan without ORDER BY gives rows as the source would.
      const order = withoutRowid.has(t.name) ? '' : ' ORDER BY rowid';
      out.exec(
        `INSERT INTO main.${quote(t.name)} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM src.${quote(t.name)}${order}`,
      );
    }
    for (const other of schema) if (other.type !== 'table') out.exec(other.sql);
    out.prepare('INSERT INTO main.store_meta (key, value) VALUES (?, ?)').run(META_BODIES, BODIES_IN_DEPLOY_FILES);
    out.pragma(`user_version = ${out.pragma('src.user_version', { simple: true }) as number}`);
    const copied = new SnapshotQueries(out).current();
    // The planner's statistics as the source has them: none, or its own of the same rows and indexes.
    const analyzed = out.prepare("SELECT 1 FROM src.sqlite_master WHERE name = 'sqlite_stat1'").get() !== undefined;
    out.exec('COMMIT');
    out.exec('DETACH DATABASE src');
    if (!sameSnapshot(copied, expected)) {
      throw new Error(
        `the store moved on while the build read it (snapshot ${copied?.id ?? 'none'} instead of ` +
          `${expected?.id ?? 'none'}): run the build again`,
      );
    }
    if (analyzed) out.exec('ANALYZE');
  } finally {
    out.close();
  }
}

/** Every match with a body, by league: its id and the tag of its bodies (match-body.ts). */
function bodyTags(store: StoreReader): Map<string, Map<string, string>> {
  const rows = store.db
    .prepare(`SELECT league_slug, match_id, max(s) AS s, max(p) AS p FROM (
        SELECT league_slug, match_id, hash AS s, NULL AS p FROM match_summaries
        UNION ALL SELECT league_slug, match_id, NULL, hash FROM play_streams)
      GROUP BY league_slug, match_id ORDER BY 1, 2`)
    .raw()
    .all() as Array<[string, string, string | null, string | null]>;
  const out = new Map<string, Map<string, string>>();
  for (const [league, id, s, p] of rows) {
    const ids = out.get(league) ?? new Map<string, string>();
    out.set(league, ids);
    ids.set(id, bodyTag(s, p));
  }
  return out;
}

/** A match's bodies as the store holds them, or null when it has none. */
function bodiesOf(store: StoreReader): (league: string, id: string) => MatchBody | null {
  const summary = store.db.prepare(
    'SELECT hash, sections, section_spans FROM match_summaries WHERE league_slug = ? AND match_id = ?',
  );
  const stream = store.db.prepare(`SELECT hash, plays, ends, important_plays, important_ends FROM play_streams
    WHERE league_slug = ? AND match_id = ?`);
  return (league, id) => {
    const s = summary.get(league, id) as
      | { hash: string; sections: Buffer | null; section_spans: string | null }
      | undefined;
    const p = stream.get(league, id) as
      | {
          hash: string;
          plays: Buffer | null;
          ends: Buffer | null;
          important_plays: Buffer | null;
          important_ends: Buffer | null;
        }
      | undefined;
    if (!s && !p) return null;
    return {
      summary: s ? { hash: s.hash, sections: s.sections, sectionSpans: s.section_spans } : null,
      plays: p
        ? {
            hash: p.hash,
            plays: p.plays,
            ends: p.ends,
            importantPlays: p.important_plays,
            importantEnds: p.important_ends,
          }
        : null,
    };
  };
}

/**
 * Make `release`'s body files (`_b/`) the store's: keep each file the store names that is there
 * already, link one the published release `from` has, write the others, and remove every file the
 * store does not name. Never writes into a file that is there (another release may share it).
 */
export function placeBodies(store: StoreReader, release: string, from: string | null): BlobCounts {
  const counts: BlobCounts = { written: 0, bytes: 0, linked: 0, removed: 0, count: 0, totalBytes: 0 };
  const root = path.join(release, BODIES_DIR);
  const wanted = bodyTags(store);
  const read = bodiesOf(store);
  fs.mkdirSync(root, { recursive: true });
  for (const league of fs.readdirSync(root)) {
    if (!wanted.has(league)) {
      counts.removed += fs.readdirSync(path.join(root, league)).length;
      fs.rmSync(path.join(root, league), { recursive: true, force: true });
    }
  }
  for (const [league, ids] of wanted) {
    const dir = path.join(root, league);
    fs.mkdirSync(dir, { recursive: true });
    const names = new Set([...ids].map(([id, tag]) => path.basename(bodyFile(league, id, tag))));
    const have = new Set<string>();
    for (const name of fs.readdirSync(dir)) {
      if (names.has(name)) have.add(name);
      else {
        fs.rmSync(path.join(dir, name), { force: true });
        counts.removed++;
      }
    }
    for (const [id, tag] of ids) {
      const file = bodyFile(league, id, tag);
      const at = path.join(release, file);
      counts.count++;
      if (have.has(path.basename(file))) {
        counts.totalBytes += fs.statSync(at).size;
        continue;
      }
      const published = from ? path.join(from, file) : null;
      if (published && fs.existsSync(published)) {
        fs.linkSync(published, at);
        counts.linked++;
        counts.totalBytes += fs.statSync(at).size;
        continue;
      }
      const body = read(league, id);
      if (!body) continue;
      const blob = encodeMatchBody(body);
      fs.writeFileSync(at, blob);
      counts.written++;
      counts.bytes += blob.length;
      counts.totalBytes += blob.length;
    }
  }
  return counts;
}

/**
 * The function's package for one build: made (or found current) before the build renders, measured,
 * and put in place by `commit` once the release is published; `discard` drops what was not committed.
 * Call `prepare` and `commit` inside the build's read transaction.
 */
export class FunctionPackage {
  private constructor(
    readonly layout: FunctionLayout,
    readonly size: FunctionSize,
    private readonly snapshot: Snapshot | null,
    /** A slim store written for this build, not yet in place. */
    private temp: string | null,
    private readonly sizes: SizeCache,
  ) {}

  /** What `placeBodies` did (null before it, and for a build that publishes nothing). */
  blobs: BlobCounts | null = null;

  static async prepare(store: StoreReader, out: string): Promise<FunctionPackage> {
    const layout = functionLayout(out);
    const previous = readState(layout.state);
    const snapshot = store.snapshots.current();
    const current =
      previous !== null &&
      sameSnapshot(previous.snapshot, snapshot) &&
      fs.statSync(layout.store, { throwIfNoEntry: false })?.size === previous.storeBytes;
    let temp: string | null = null;
    if (!current) {
      temp = `${layout.store}.${process.pid}.tmp`;
      try {
        writeSlimStore(store.db.name, temp, snapshot);
      } catch (err) {
        fs.rmSync(temp, { force: true });
        throw err;
      }
    }
    const sizes: SizeCache = previous?.sizes ?? { zipped: {} };
    const size = await functionArchiveSize(temp ?? layout.store, FUNCTION_STORE, sizes);
    return new FunctionPackage(layout, size, snapshot, temp, sizes);
  }

  /** Make the release's body files the store's (`placeBodies`), starting from what `release` holds. */
  placeBodies(store: StoreReader, release: string, published: string | null): BlobCounts {
    this.blobs = placeBodies(store, release, published);
    return this.blobs;
  }

  /** Put the slim store in place: the package now matches the release. */
  commit(): void {
    const { layout } = this;
    if (this.temp) {
      fs.renameSync(this.temp, layout.store);
      // Measured under its temporary name: the same file, now in place.
      const measured = this.sizes.zipped[this.temp];
      delete this.sizes.zipped[this.temp];
      if (measured) this.sizes.zipped[layout.store] = measured;
      this.temp = null;
    }
    const state: PackageState = {
      version: PACKAGE_VERSION,
      schema: SCHEMA_VERSION,
      snapshot: this.snapshot,
      storeBytes: fs.statSync(layout.store).size,
      sizes: this.sizes,
    };
    const tmp = `${layout.state}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(state)}\n`);
    fs.renameSync(tmp, layout.state);
  }

  discard(): void {
    if (this.temp) fs.rmSync(this.temp, { force: true });
    this.temp = null;
  }
}
