#!/usr/bin/env node
/**
 * Reference weights of real ESPN responses, for the demo's real weight (issue #50).
 *
 * Reads the recorded responses in ../shared/fixtures/espn (never copied into the project) and writes
 * the figures the demo is held to: per summary section the minified byte size (median, min, max, n),
 * commentary counts and lengths, roster players per side and per-player sizes, the board entry size,
 * and the play streams (touch-level and pruned) with their per-play sizes. The output is committed
 * (test/demo/espn-weights.json) so the size test runs without the fixtures.
 *
 *   node scripts/espn-weights.mjs [--fixtures DIR] [--out FILE]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const fixtures = path.resolve(opt('--fixtures', path.join(root, '..', 'shared', 'fixtures', 'espn')));
const out = path.resolve(opt('--out', path.join(root, 'test', 'demo', 'espn-weights.json')));
if (!fs.existsSync(fixtures)) {
  console.error(`espn-weights: no fixtures at ${fixtures}`);
  process.exit(1);
}

const size = (v) => Buffer.byteLength(JSON.stringify(v));
const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const rel = (file) => path.relative(fixtures, file);

/** Median (mean of the middle two for an even count), min, max and n of a list of numbers. */
function figures(values) {
  const v = [...values].sort((a, b) => a - b);
  if (!v.length) return { median: null, min: null, max: null, n: 0 };
  const mid = v.length >> 1;
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median: Math.round(median * 10) / 10, min: v[0], max: v.at(-1), n: v.length };
}

/** Every file under `dir` whose path relative to the fixtures matches `re`. */
function files(re) {
  const found = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (re.test(rel(p))) found.push(p);
    }
  };
  walk(fixtures);
  return found.sort();
}

// --- Summaries ---------------------------------------------------------------------------------
const summaryFiles = files(/^[^/]+\/summary\/[^/]+\.json$/);
const summaries = summaryFiles.map(read);
const sectionNames = [...new Set(summaries.flatMap((s) => Object.keys(s)))].sort();
const sections = {};
for (const name of sectionNames) {
  // A section counts where ESPN sent it with content (not `[]`, `{}` or absent).
  const sizes = summaries.filter((s) => s[name] !== undefined && size(s[name]) > 2).map((s) => size(s[name]));
  sections[name] = figures(sizes);
}

const commentary = summaries.map((s) => s.commentary ?? []);
const entries = commentary.flat();
const rosterSides = summaries.flatMap((s) => s.rosters ?? []);
const players = rosterSides.flatMap((r) => r.roster ?? []);
const news = summaries.map((s) => s.news?.articles ?? []);
const videos = summaries.map((s) => s.videos ?? []).filter((v) => v.length);

const summary = {
  files: summaryFiles.map(rel),
  total: figures(summaries.map(size)),
  sections,
  commentary: {
    entries: figures(commentary.map((c) => c.length)),
    entrySize: figures(entries.map(size)),
    textLength: figures(entries.map((e) => (e.text ?? '').length)),
    withPlay: figures(commentary.map((c) => c.filter((e) => e.play).length)),
  },
  keyEvents: { entries: figures(summaries.map((s) => (s.keyEvents ?? []).length)) },
  rosters: {
    playersPerSide: figures(rosterSides.map((r) => (r.roster ?? []).length)),
    playerSize: figures(players.map(size)),
    playerStatsSize: figures(players.map((p) => size(p.stats ?? []))),
    playerStatsCount: figures(players.map((p) => (p.stats ?? []).length)),
  },
  news: {
    articles: figures(news.map((a) => a.length)),
    articleSize: figures(news.flat().map(size)),
  },
  videos: { entries: figures(videos.map((v) => v.length)), entrySize: figures(videos.flat().map(size)) },
};

// --- Boards ------------------------------------------------------------------------------------
const boardFiles = files(/(^[^/]+\/scoreboard\/[^/]+\.json$)|(^extra\/all-scoreboard-[^/]+\.json$)/);
const boardEvents = boardFiles.flatMap((f) => read(f).events ?? []);
const board = {
  files: boardFiles.length,
  entrySize: figures(boardEvents.map(size)),
  competitionSections: Object.fromEntries(
    [...new Set(boardEvents.flatMap((e) => Object.keys(e.competitions?.[0] ?? {})))].sort().map((k) => [
      k,
      figures(
        boardEvents
          .map((e) => e.competitions?.[0]?.[k])
          .filter((v) => v !== undefined)
          .map(size),
      ),
    ]),
  ),
};

// --- Play streams ------------------------------------------------------------------------------
/** One stream per event id: its pages together. */
const streams = new Map();
for (const f of files(/^[^/]+\/plays\/[^/]+\.json$/)) {
  const id = path.basename(f, '.json').replace(/-\d+$/, '');
  const page = read(f);
  const s = streams.get(id) ?? { file: rel(f), count: page.count, items: [] };
  s.items.push(...page.items);
  streams.set(id, s);
}
const describe = (s) => {
  const types = {};
  for (const p of s.items) types[p.type?.text ?? '?'] = (types[p.type?.text ?? '?'] ?? 0) + 1;
  return {
    file: s.file,
    count: s.count,
    itemsRecorded: s.items.length,
    playSize: figures(s.items.map(size)),
    withFieldPosition: s.items.filter((p) => p.fieldPositionX !== undefined).length,
    types,
  };
};
// Touch-level streams carry passes; pruned ones only the key plays (fouls, shots, set pieces, cards, goals).
const all = [...streams.values()].map(describe);
const touch = all.filter((s) => (s.types.Pass ?? 0) > 0);
const pruned = all.filter((s) => !(s.types.Pass ?? 0));
const plays = {
  touch: {
    count: figures(touch.map((s) => s.count)),
    playSize: figures(touch.flatMap((s) => [s.playSize.median])),
    streams: touch,
  },
  pruned: {
    count: figures(pruned.map((s) => s.count)),
    playSize: figures(pruned.flatMap((s) => [s.playSize.median])),
    streams: pruned,
  },
};

const result = {
  about:
    'Minified JSON byte sizes (JSON.stringify, UTF-8) of recorded ESPN responses in ../shared/fixtures/espn; written by scripts/espn-weights.mjs. The demo at real weight is held to these medians (test/demo/weight.test.ts).',
  summary,
  board,
  plays,
};
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `espn-weights: ${summaryFiles.length} summaries, ${boardEvents.length} board entries, ${streams.size} play streams -> ${path.relative(root, out)}`,
);
for (const [name, f] of Object.entries(sections))
  console.log(`  ${name.padEnd(20)} median ${f.median} (${f.min}-${f.max}, n=${f.n})`);
