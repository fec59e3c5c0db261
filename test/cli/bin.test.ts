/**
 * `bin/fds.js`, the installed command: it runs the compiled tree. `fds build` starts itself again
 * with the build's heap flags (src/cli/build-heap.ts) when the build renders much, passing the exit
 * code and signals on; a small incremental build runs in the command's own process.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { SpawnSyncReturns } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_HEAP_FLAGS, BUILD_MALLOC_ENV } from '../../src/cli/build-heap.js';
import { ROOT, editStore, tempDir } from '../helpers/store.js';
import { demoStore } from '../publish/helpers.js';

const BIN = path.join(ROOT, 'bin/fds.js');
const compiled = fs.existsSync(path.join(ROOT, 'build/bundle/main.js'));

/**
 * What a process `fds build` started had: its V8 flags and glibc's mmap threshold from its environment,
 * and the size of libuv's pool it ended with (bin/fds.js sets it after the probe has run).
 */
interface Started {
  pid: number;
  flags: string[];
  malloc: string | null;
  pool: string | null;
}

/**
 * The process that builds into `out`, once it holds the build's lock: the one `fds build` (`starter`)
 * started with the bounded heap, which the lock names, not the starter.
 */
async function builderOf(out: string, starter: number): Promise<number> {
  const lock = path.join(path.dirname(out), '.dist.releases', 'build.lock');
  let builder = 0;
  for (let i = 0; i < 500 && !(builder && builder !== starter); i++) {
    await new Promise((r) => setTimeout(r, 10));
    builder = fs.existsSync(lock) ? Number(fs.readFileSync(lock, 'utf8')) || 0 : 0;
  }
  expect(builder).toBeGreaterThan(0);
  expect(builder).not.toBe(starter);
  return builder;
}

describe.skipIf(!compiled)('bin/fds.js build', () => {
  /**
   * Run `fds build` through bin/fds.js; every process it starts records its V8 flags and its malloc
   * setting through a probe module (workers aside).
   */
  function buildWithProbe(
    db: string,
    out: string,
    env: NodeJS.ProcessEnv = {},
  ): { res: SpawnSyncReturns<string>; starts: Started[] } {
    const probe = path.join(tempDir('fds-bin-'), 'probe.mjs');
    const seen = `${probe}.ndjson`;
    fs.writeFileSync(
      probe,
      `import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';
const started = { pid: process.pid, flags: process.execArgv, malloc: process.env.MALLOC_MMAP_THRESHOLD_ ?? null };
const pool = () => ({ pid: process.pid, pool: process.env.UV_THREADPOOL_SIZE ?? 'default' });
if (isMainThread) {
  fs.appendFileSync(${JSON.stringify(seen)}, JSON.stringify(started) + '\\n');
  process.on('exit', () => fs.appendFileSync(${JSON.stringify(seen)}, JSON.stringify(pool()) + '\\n'));
}`,
    );
    const res = spawnSync(process.execPath, ['--import', probe, BIN, 'build', '--db', db, '--out', out], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    const lines = fs
      .readFileSync(seen, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Partial<Started>);
    const pools = new Map(lines.filter((l) => 'pool' in l).map((l) => [l.pid, l.pool!]));
    // A process that left no pool line ended without its exit handler: `null` says so.
    const starts = lines.filter((l) => 'flags' in l).map((l) => ({ ...l, pool: pools.get(l.pid) ?? null }) as Started);
    return { res, starts };
  }

  it('makes a full build with the heap flags and exits 0, printing the summary', async () => {
    const db = await demoStore({ leagues: ['eng.1'], scale: 0.05 });
    const out = path.join(tempDir('fds-bin-'), 'dist');
    const { res, starts } = buildWithProbe(db, out);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).toMatch(/^build: .* full build .* published /m);
    expect(fs.existsSync(path.join(out, 'manifest.ndjson'))).toBe(true);
    // The command, then the build started again with the flags.
    expect(starts).toHaveLength(2);
    expect(starts[1]!.flags).toEqual(expect.arrayContaining(BUILD_HEAP_FLAGS));
    expect(starts.map((s) => s.malloc)).toEqual([null, BUILD_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_]);
  });

  it('makes a small incremental build in its own process, without starting again', async () => {
    const db = await demoStore({ leagues: ['eng.1'], scale: 0.05 });
    const out = path.join(tempDir('fds-bin-'), 'dist');
    expect(buildWithProbe(db, out).res.status).toBe(0);
    const conn = new Database(db, { readonly: true });
    const { id, day } = conn.prepare('SELECT id, scoreboard_date AS day FROM matches LIMIT 1').get() as {
      id: string;
      day: string;
    };
    conn.close();
    editStore(
      db,
      (w) =>
        w
          .prepare(
            "UPDATE matches SET record = packed_record(json_set(record_text(record), '$.name', 'Renamed')) WHERE id = ?",
          )
          .run(id),
      [
        ['match', 'eng.1', id],
        ['day', 'eng.1', day],
      ],
    );
    const { res, starts } = buildWithProbe(db, out);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^build: .* incremental: \d+ rendered.* published /m);
    expect(starts).toHaveLength(1);
    expect(starts[0]!.flags).not.toEqual(expect.arrayContaining(BUILD_HEAP_FLAGS));
  });

  it("passes the build's exit code on: 2 for a usage error, 1 for a failed build", () => {
    const usage = spawnSync(process.execPath, [BIN, 'build', '--no-such-option'], { encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/unknown option/);
    const missing = path.join(tempDir('fds-bin-'), 'none.sqlite');
    const failed = spawnSync(process.execPath, [BIN, 'build', '--db', missing, '--out', tempDir('fds-bin-')], {
      encoding: 'utf8',
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/no store at/);
  });

  it('ends the build it started again when it is itself killed outright', async () => {
    const db = await demoStore({ leagues: ['eng.1', 'esp.1', 'ger.1'], scale: 0.3 });
    const out = path.join(tempDir('fds-bin-'), 'dist');
    const child = spawn(process.execPath, [BIN, 'build', '--db', db, '--out', out], { stdio: 'ignore' });
    const builder = await builderOf(out, child.pid!);
    child.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(builder, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 300 && alive(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(alive()).toBe(false);
    expect(fs.existsSync(path.join(out, 'manifest.ndjson'))).toBe(false);
  });

  it('stops the build when it is told to stop', async () => {
    const db = await demoStore({ leagues: ['eng.1', 'esp.1', 'ger.1'], scale: 0.3 });
    const out = path.join(tempDir('fds-bin-'), 'dist');
    const child = spawn(process.execPath, [BIN, 'build', '--db', db, '--out', out], { stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    // Told to stop once the build has begun: a fixed wait could outlast a fast build.
    await builderOf(out, child.pid!);
    child.kill('SIGTERM');
    expect(await exited).not.toBe(0);
    // The build itself stopped too: a build left running would publish within this wait.
    await new Promise((r) => setTimeout(r, 4000));
    expect(fs.existsSync(path.join(out, 'manifest.ndjson'))).toBe(false);
  });
});

/** The bundle's files `file` loads before it runs: its static imports, followed through the chunks. */
function loadedWith(file: string, seen = new Map<string, string>()): Map<string, string> {
  const text = fs.readFileSync(file, 'utf8');
  seen.set(file, text);
  for (const [, from, bare] of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|^import\s*"([^"]+)"/gm)) {
    const specifier = (from ?? bare)!;
    if (!specifier.startsWith('.')) seen.set(specifier, '');
    else {
      const next = path.join(path.dirname(file), specifier);
      if (!seen.has(next)) loadedWith(next, seen);
    }
  }
  return seen;
}

describe.skipIf(!compiled)('the command line entry (build/bundle/main.js)', () => {
  it('loads neither commander nor the store before it knows whether a build starts again at once', () => {
    const loaded = loadedWith(path.join(ROOT, 'build/bundle/main.js'));
    expect(loaded.size).toBeGreaterThan(1);
    expect([...loaded.keys()].filter((f) => f === 'better-sqlite3' || f === 'commander')).toEqual([]);
    expect([...loaded].filter(([, text]) => text.includes('CommanderError')).map(([f]) => f)).toEqual([]);
  });
});
