/**
 * `fds check` holds a build to the store: it passes on a fresh build with no mismatch of any kind,
 * and fails — one line per mismatch, exit code 1 — on a tampered file, a manifest header that is
 * not the dynamic one, a rule pointing at a missing file, or a store that moved on.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { check } from '../../src/check/check.js';
import { readManifestSync } from '../../src/release/manifest.js';
import type { ManifestEntry } from '../../src/release/manifest.js';
import { currentRelease } from '../../src/release/layout.js';
import { ROOT, recordSql, storedRecord, tempDir } from '../helpers/store.js';
import { buildInto, demoStore } from '../publish/helpers.js';
import { eventText } from '../../src/store/shape/event.js';

/** Read-only: each test that changes the store works on its own copy. */
let db: string;
/** A fresh build per test, which the test may tamper with. */
let out: string;
let release: string;

beforeAll(async () => {
  db = await demoStore({ leagues: ['eng.1'] });
});
beforeEach(async () => {
  ({ out } = await buildInto(db));
  release = currentRelease(out)!;
});

const CLUBS = '_s/get/soccer/eng.1/clubs/index.json';
const META = '_s/get/soccer/meta/index.json';

function manifest(): ManifestEntry[] {
  return readManifestSync(path.join(release, 'manifest.ndjson'));
}

function entryOf(file: string): ManifestEntry {
  const entry = manifest().find((e) => e.file === file);
  if (!entry) throw new Error(`${file} is not in the manifest`);
  return entry;
}

/** `fds check` as a user runs it, from the sources. */
function runCli(checkDb = db) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'check', '--db', checkDb, '--dir', out, '--sample', '50'],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
}

describe('fds check', () => {
  it('passes on a fresh build with no mismatch of any kind', async () => {
    const report = await check({ dir: out, db, sample: 300 });
    expect(report).toMatchObject({ fileMismatches: 0, sampleMismatches: 0, reasons: [], sampled: 300 });
    expect(report.files).toBe(manifest().length);
    expect(report.files).toBeGreaterThan(50);
    // The sample reaches files both through the CDN rules and through the server's static lookup.
    expect(report.cdnFiles).toBeGreaterThan(50);
    expect(report.localFiles).toBeGreaterThan(50);
  });

  it('exits 0 on a fresh build and prints its one-line summary to stdout', () => {
    const res = runCli();
    expect(res.stderr).not.toContain('mismatch');
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(
      /^check: [\d,]+ files against their dynamic render \(0 differ\); 50 sampled .*0 wrong\)/,
    );
  });

  it('fails on a published file whose bytes are not its dynamic answer', async () => {
    const file = path.join(release, CLUBS);
    const bytes = fs.readFileSync(file);
    // Same length, one byte changed: only the comparison of bodies can notice.
    const i = bytes.indexOf('"displayName":"') + '"displayName":"'.length;
    bytes[i] = bytes[i] === 0x58 ? 0x59 : 0x58;
    fs.rmSync(file);
    fs.writeFileSync(file, bytes);
    const report = await check({ dir: out, db, sample: 10 });
    expect(report.fileMismatches).toBe(1);
    const n = bytes.length;
    expect(report.reasons[0]).toBe(
      `${CLUBS} (for /get/soccer/eng.1/clubs): body differs from the dynamic one (${n} vs ${n} bytes)`,
    );
  });

  it.each([
    ['etag', 'ETag', '"0000000000000000"'],
    ['cacheControl', 'Cache-Control', 'public, max-age=999'],
    ['contentType', 'Content-Type', 'text/plain'],
  ] as const)(
    'fails when the manifest gives a file another %s than the dynamic answer',
    async (field, header, value) => {
      const lines = manifest().map((e) => (e.file === CLUBS ? { ...e, [field]: value } : e));
      const dynamic = entryOf(CLUBS)[field];
      fs.rmSync(path.join(release, 'manifest.ndjson'));
      fs.writeFileSync(path.join(release, 'manifest.ndjson'), lines.map((e) => `${JSON.stringify(e)}\n`).join(''));
      const report = await check({ dir: out, db, sample: 10 });
      expect(report.fileMismatches).toBe(1);
      const [got, want] = [value, dynamic].map((v) => JSON.stringify(v));
      expect(report.reasons[0]).toBe(`${CLUBS} (for /get/soccer/eng.1/clubs): ${header} ${got}, dynamic ${want}`);
    },
  );

  it('fails when _headers gives a file another Cache-Control than the dynamic answer', async () => {
    const headers = path.join(release, '_headers');
    const text = fs.readFileSync(headers, 'utf8');
    const block = '/_s/get/soccer/:league/clubs/:file\n  Cache-Control: public, max-age=60\n';
    expect(text).toContain(block);
    fs.rmSync(headers);
    fs.writeFileSync(headers, text.replace(block, block.replace('max-age=60', 'max-age=61')));
    const report = await check({ dir: out, db, sample: 10 });
    expect(report.reasons).toContain(
      `${CLUBS}: _headers gives Cache-Control "public, max-age=61", dynamic "public, max-age=60"`,
    );
  });

  it('fails on a rule that points at a missing file', async () => {
    const redirects = path.join(release, '_redirects');
    const rules = fs.readFileSync(redirects, 'utf8');
    const rule = rules.split('\n').find((l) => l.includes(` /${CLUBS} `))!;
    expect(rule).toMatch(/^\/get\/soccer\/eng\.1\/clubs /);
    const broken = rule.replace(`/${CLUBS}`, '/_s/get/soccer/eng.1/clubs/missing.json');
    fs.rmSync(redirects);
    fs.writeFileSync(redirects, rules.replace(rule, broken));
    const report = await check({ dir: out, db, sample: 10 });
    expect(report.fileMismatches).toBe(1);
    expect(report.reasons[0]).toBe(`rule target /_s/get/soccer/eng.1/clubs/missing.json does not exist: ${broken}`);
  });

  it('fails on a published file gone missing: listed, counted and pointed at by a rule', async () => {
    fs.rmSync(path.join(release, META));
    const report = await check({ dir: out, db, sample: 10 });
    expect(report.reasons).toEqual(
      expect.arrayContaining([
        `${META}: listed in the manifest but missing`,
        // The front door's index.html is the one listed file outside _s/.
        `${report.files - 2} files under _s/, the manifest lists ${report.files - 1}`,
        `rule target /${META} does not exist: /get/soccer/meta /${META} 200!`,
      ]),
    );
    expect(report.fileMismatches).toBe(3);
  });

  it('fails on files gone stale after the store changed', async () => {
    const moved = path.join(tempDir('fds-check-'), 'moved.sqlite');
    fs.copyFileSync(db, moved);
    const w = recordSql(new Database(moved));
    const { league, id, day } = w
      .prepare('SELECT league_slug AS league, id, scoreboard_date AS day FROM matches ORDER BY id LIMIT 1')
      .get() as Record<string, string>;
    // As a sync would write it: the record and its stored event text.
    const record = storedRecord(w.prepare('SELECT record FROM matches WHERE id = ?').pluck().get(id) as Buffer);
    const event = eventText({ ...record, name: 'Stale?' });
    w.prepare(
      "UPDATE matches SET record = packed_record(json_set(record_text(record), '$.name', 'Stale?')), event_json = ?, event_holes = ? WHERE id = ?",
    ).run(event.json, event.holes, id);
    w.close();
    const report = await check({ dir: out, db: moved, sample: 10 });
    expect(report.fileMismatches).toBeGreaterThan(0);
    const board = `_s/get/soccer/${league}/scoreboard/dates-${day}.json (for /get/soccer/${league}/scoreboard?dates=`;
    expect(report.reasons.find((r) => r.startsWith(board))).toMatch(
      /: body differs from the dynamic one \(\d+ vs \d+ bytes\)$/,
    );
  });

  it('exits 1 with one line per mismatch on stderr and the summary as its last line', () => {
    fs.rmSync(path.join(release, META));
    const res = runCli();
    expect(res.status, res.stderr).toBe(1);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trim().split('\n');
    const mismatches = lines.filter((l) => l.startsWith('mismatch: '));
    expect(mismatches).toContain(`mismatch: ${META}: listed in the manifest but missing`);
    expect(lines.at(-1)).toMatch(/^fds: check: [\d,]+ files against their dynamic render \(3 differ\)/);
    const wrong = Number(/; (\d+) wrong\)/.exec(lines.at(-1)!)?.[1]);
    expect(mismatches).toHaveLength(3 + wrong);
  });
});
