/**
 * `fds check` holds a build to the store: it passes on a fresh build, and fails — one line per
 * mismatch, non-zero exit — on a tampered file, a missing rule target, or a store that moved on.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { check } from '../../src/publish/check.js';
import { currentRelease } from '../../src/publish/release.js';
import { ROOT } from '../helpers/store.js';
import { buildInto, demoStore } from './helpers.js';

let db: string;
let out: string;
let release: string;

beforeEach(async () => {
  db = await demoStore({ leagues: ['eng.1'] });
  ({ out } = await buildInto(db));
  release = currentRelease(out)!;
});

/** Sample mismatches the render core's query reading explains are reported as such (see netlify-query.ts). */
const unexplained = (reasons: string[]) => reasons.filter((r) => !r.includes('reads this query differently'));

describe('fds check', () => {
  it('passes on a fresh build', async () => {
    const report = await check({ dir: out, db, sample: 300 });
    expect(report.fileMismatches).toBe(0);
    expect(unexplained(report.reasons)).toEqual([]);
    expect(report.files).toBeGreaterThan(50);
    expect(report.cdnFiles).toBeGreaterThan(0);
    expect(report.localFiles).toBeGreaterThan(0);
  });

  it('finds a file that does not hold its dynamic answer', async () => {
    const file = path.join(release, '_s/get/soccer/eng.1/clubs/index.json');
    fs.rmSync(file);
    fs.writeFileSync(file, '{"clubs":[]}');
    const report = await check({ dir: out, db, sample: 10 });
    expect(report.fileMismatches).toBeGreaterThanOrEqual(1);
    expect(report.reasons.join('\n')).toContain('_s/get/soccer/eng.1/clubs/index.json');
  });

  it('finds a rule pointing at a missing file', async () => {
    fs.rmSync(path.join(release, '_s/get/soccer/meta/index.json'));
    const report = await check({ dir: out, db, sample: 10 });
    expect(report.reasons.join('\n')).toContain('rule target /_s/get/soccer/meta/index.json does not exist');
  });

  it('finds files gone stale after the store changed', async () => {
    const w = new Database(db);
    w.prepare(
      "UPDATE matches SET record_json = json_set(record_json, '$.name', 'Stale?') WHERE id = (SELECT id FROM matches ORDER BY id LIMIT 1)",
    ).run();
    w.close();
    const report = await check({ dir: out, db, sample: 10 });
    expect(report.fileMismatches).toBeGreaterThan(0);
  });

  it('exits non-zero with one line per mismatch and a one-line summary', () => {
    fs.rmSync(path.join(release, '_s/get/soccer/meta/index.json'));
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'check', '--db', db, '--dir', out, '--sample', '5'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines.some((l) => l.startsWith('mismatch: '))).toBe(true);
    expect(lines.at(-1)).toMatch(/^fds: check: .* \(\d+ differ\)/);
  });
});
