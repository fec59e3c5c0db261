/** The CLI as a user runs it: a child process, exit codes, one-line summaries and errors. */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { RECORDED, ROOT, tempDir } from '../helpers/store.js';

function fds(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('fds command line', () => {
  it('prints help for the program and for sync', () => {
    const top = fds('--help');
    expect(top.code).toBe(0);
    // Commands load only when they run; help still lists every one of them.
    for (const command of ['sync', 'serve', 'build', 'check', 'live'])
      expect(top.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    const sync = fds('sync', '--help');
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/--provider <name>/);
    expect(sync.stdout).toMatch(/--db <path>/);
  });

  it('stops quietly when the reader of its output goes away early (`fds sync --help | head -1`)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'sync', '--help'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the help is written.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('prints the package version for --version and -V', async () => {
    const fs = await import('node:fs');
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = fds(flag);
      expect(r.code, flag).toBe(0);
      expect(r.stdout, flag).toBe(`${version}\n`);
    }
  });

  it('syncs recorded files and prints a one-line summary', () => {
    const db = path.join(tempDir(), 'x.sqlite');
    const r = fds('sync', '--provider', 'files', '--source', RECORDED, '--db', db);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^sync files: 16 leagues, \d+ units ok, 0 failed, .* records written in [\d.]+s$/m);
  });

  it('exits non-zero with a one-line reason on bad input', () => {
    const missing = fds('sync', '--provider', 'files', '--db', path.join(tempDir(), 'x.sqlite'));
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trim()).toBe('fds: --provider files needs --source DIR');
    const badLeague = fds(
      'sync',
      '--provider',
      'files',
      '--source',
      RECORDED,
      '--leagues',
      'xxx.9',
      '--db',
      path.join(tempDir(), 'x.sqlite'),
    );
    expect(badLeague.code).not.toBe(0);
    expect(badLeague.stderr).toMatch(/unknown league\(s\): xxx\.9/);
    const badProvider = fds('sync', '--provider', 'nope');
    expect(badProvider.code).not.toBe(0);
    expect(badProvider.stderr).toMatch(/--provider/);
  });

  it('exits non-zero after keeping the good units when one file is corrupt', async () => {
    const { copyRecorded } = await import('../helpers/store.js');
    const dir = copyRecorded();
    fs.writeFileSync(path.join(dir, 'eng.1/standings/2025.json'), '{"children": [');
    const db = path.join(tempDir(), 'x.sqlite');
    const r = fds('sync', '--provider', 'files', '--source', dir, '--db', db);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/failed: eng\.1 standings 2025: .*not valid JSON/);
    expect(r.stderr).toMatch(/1 failed/);
    const store = new Database(db, { readonly: true });
    expect(store.prepare("SELECT count(*) FROM matches WHERE league_slug = 'eng.1'").pluck().get()).toBe(4);
    store.close();
  });

  describe('the demo clock', () => {
    const stamps = (db: string) => {
      const store = new Database(db, { readonly: true });
      try {
        return {
          snapshot: store.prepare("SELECT value FROM store_meta WHERE key = 'snapshot_at'").pluck().get(),
          attempts: store.prepare('SELECT DISTINCT last_attempt_at FROM sync_state').pluck().all(),
          leagues: store
            .prepare('SELECT DISTINCT last_synced_at FROM leagues WHERE last_synced_at IS NOT NULL')
            .pluck()
            .all(),
          live: store.prepare("SELECT count(*) FROM matches WHERE state = 'in'").pluck().get(),
        };
      } finally {
        store.close();
      }
    };
    const demo = (...args: string[]) => {
      const db = path.join(tempDir(), 'demo.sqlite');
      return {
        db,
        ...fds('sync', '--provider', 'demo', '--weight', 'light', '--leagues', 'sco.1', '--db', db, ...args),
      };
    };

    it('runs at the instant --now gives and stamps everything it writes with it', () => {
      const r = demo('--now', '2026-03-21T12:10:00+01:00');
      expect([r.code, r.stderr]).toEqual([0, '']);
      const at = '2026-03-21T11:10:00Z';
      expect(stamps(r.db)).toEqual({ snapshot: at, attempts: [at], leagues: [at], live: 2 });
    });

    it('reads --today as 12:00 UTC that day', () => {
      const r = demo('--today', '20260321');
      expect(r.code).toBe(0);
      const at = '2026-03-21T12:00:00Z';
      expect(stamps(r.db)).toEqual({ snapshot: at, attempts: [at], leagues: [at], live: 3 });
    });

    it('refuses both, a zone-less or unreal instant and an unreal date, before creating a store', () => {
      const both = demo('--today', '20260321', '--now', '2026-03-21T12:00:00Z');
      expect([both.code, both.stderr]).toEqual([
        2,
        'fds: --now and --today both set the demo clock: give one of them\n',
      ]);
      for (const bad of ['2026-03-21T12:00:00', '2026-02-30T12:00:00Z', 'yesterday', '2026-03-21']) {
        const r = demo('--now', bad);
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain(
          `--now must be an ISO-8601 instant with a zone, such as 2026-03-21T15:30:00Z, got "${bad}"`,
        );
        expect(fs.existsSync(r.db)).toBe(false);
      }
      const day = demo('--today', '20260230');
      expect(day.code).not.toBe(0);
      expect(day.stderr).toContain('--today must be a valid YYYYMMDD date');
      expect(fs.existsSync(both.db) || fs.existsSync(day.db)).toBe(false);
    });
  });
});
