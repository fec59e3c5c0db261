/**
 * Build benchmark (CONTRACT §8, build part), per demo scale: sync time, full build time and files/s,
 * the full build against a plain `cp -r` of the same tree in the same run, a no-change rebuild, an
 * incremental rebuild after one matchday changed, and each build's peak RSS — measured in a child
 * process per build, so the numbers are the build's own.
 *
 * "One matchday changed" is applied to the store directly: every match of one league's busiest
 * finished day gets a new short name, summary attendance and first play text — what re-syncing a
 * corrected matchday does. (Re-syncing the demo one day later would not do: it lays the whole
 * season out around its reference date, so every date in the store moves.)
 *
 *   npx tsx bench/build.ts [--scales 1,4] [--dir .tmp/bench]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from '../src/publish/build.js';
import type { BuildSummary } from '../src/publish/build.js';
import { currentRelease } from '../src/publish/release.js';
import { StoreReader } from '../src/store/read/reader.js';
import { openStore } from '../src/store/db.js';
import { beginSnapshot, endSnapshot } from '../src/store/snapshots.js';
import { BENCH_TODAY, syncDemo } from './demo.js';

const { values } = parseArgs({
  options: {
    scales: { type: 'string', default: '1,4' },
    dir: { type: 'string', default: '.tmp/bench' },
    today: { type: 'string', default: BENCH_TODAY },
    child: { type: 'boolean', default: false },
    db: { type: 'string' },
    out: { type: 'string' },
    full: { type: 'boolean', default: false },
  },
});

// Child mode: one build, its summary and the process's peak RSS on stdout.
if (values.child) {
  const store = StoreReader.open(values.db!);
  const summary = await build({ store, out: values.out!, full: values.full });
  store.close();
  process.stdout.write(JSON.stringify({ summary, maxRssKiB: process.resourceUsage().maxRSS }));
  process.exit(0);
}

interface Measured {
  summary: BuildSummary;
  seconds: number;
  rssMiB: number;
}

const self = fileURLToPath(import.meta.url);

function buildInChild(db: string, out: string, full = false, heapMiB?: number): Measured {
  const started = performance.now();
  const heap = heapMiB ? [`--max-old-space-size=${heapMiB}`] : [];
  const args = [...heap, '--import', 'tsx', self, '--child', '--db', db, '--out', out, ...(full ? ['--full'] : [])];
  const res = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (res.status !== 0) throw new Error(`build failed: ${res.stderr}`);
  const { summary, maxRssKiB } = JSON.parse(res.stdout) as { summary: BuildSummary; maxRssKiB: number };
  return { summary, seconds: (performance.now() - started) / 1000, rssMiB: maxRssKiB / 1024 };
}

function changeOneMatchday(db: string): number {
  const store = openStore(db);
  try {
    const [league, date] = store
      .prepare(
        "SELECT league_slug, scoreboard_date FROM matches WHERE state = 'post' GROUP BY 1, 2 ORDER BY COUNT(*) DESC, 1, 2 LIMIT 1",
      )
      .raw()
      .get() as [string, string];
    const ids = store
      .prepare('SELECT id FROM matches WHERE league_slug = ? AND scoreboard_date = ?')
      .pluck()
      .all(league, date) as string[];
    // One matchday's records change, logged as a sync logs them, so the incremental build sees them.
    const snapshot = beginSnapshot(store);
    store.transaction(() => {
      for (const id of ids) {
        store
          .prepare(
            "UPDATE matches SET record_json = json_set(record_json, '$.shortName', json_extract(record_json, '$.shortName') || ' (r)'), hash = hash || 'r' WHERE league_slug = ? AND id = ?",
          )
          .run(league, id);
        store.prepare("INSERT INTO changes VALUES (?, 'match', ?, ?)").run(snapshot, league, id);
      }
      store.prepare("INSERT INTO changes VALUES (?, 'day', ?, ?)").run(snapshot, league, date);
      endSnapshot(store, snapshot, `${new Date().toISOString().slice(0, 19)}Z`, true);
    })();
    return ids.length;
  } finally {
    store.close();
  }
}

function time(fn: () => void): number {
  const started = performance.now();
  fn();
  return (performance.now() - started) / 1000;
}

const HEAP_CAP_MIB = 48;
const s = (x: number) => x.toFixed(1);
const rows: string[][] = [];
const header = [
  'scale',
  'matches',
  'sync s',
  'records/s',
  'files',
  'MB',
  'rules',
  'full build s',
  'files/s',
  'cp -r s',
  'build ÷ cp',
  'no-change s',
  'matchday s',
  'written',
  'peak RSS MiB',
  `RSS, ${HEAP_CAP_MIB} MiB heap`,
];

for (const scale of values.scales!.split(',').map(Number)) {
  const dir = path.resolve(values.dir!, `scale-${scale}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const db = path.join(dir, 'demo.sqlite');
  const out = path.join(dir, 'dist');
  process.stderr.write(`scale ${scale}: syncing the demo…\n`);
  const synced = await syncDemo(db, values.today!, scale);
  const counter = openStore(db);
  const matches = counter.prepare('SELECT COUNT(*) FROM matches').pluck().get() as number;
  counter.close();

  process.stderr.write(`scale ${scale}: full build…\n`);
  const full = buildInChild(db, out);
  const copy = path.join(dir, 'copy');
  const cp = time(() => execFileSync('cp', ['-r', currentRelease(out)!, copy]));
  fs.rmSync(copy, { recursive: true, force: true });
  const again = buildInChild(db, out);
  const changedMatches = changeOneMatchday(db);
  const next = buildInChild(db, out);
  // V8 grows its heap lazily, so uncapped RSS overstates what a build needs; a full build under a
  // small fixed heap cap shows the live memory does not grow with the store.
  const capped = buildInChild(db, path.join(dir, 'dist-capped'), true, HEAP_CAP_MIB);
  rows.push([
    String(scale),
    String(matches),
    s(synced.seconds),
    String(Math.round(synced.written / synced.seconds)),
    String(full.summary.files),
    s(full.summary.bytes / 1e6),
    String(full.summary.rules?.total ?? 0),
    s(full.seconds),
    String(Math.round(full.summary.files / full.seconds)),
    s(cp),
    s(full.seconds / cp),
    s(again.seconds),
    s(next.seconds),
    `${next.summary.added + next.summary.changed} (${changedMatches} matches)`,
    [full, again, next].map((m) => m.rssMiB.toFixed(0)).join('/'),
    capped.rssMiB.toFixed(0),
  ]);
}

const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
console.log('\nbuild (demo provider; times include process start; peak RSS of the full / no-change / matchday builds)');
console.log(line(header));
for (const r of rows) console.log(line(r));
