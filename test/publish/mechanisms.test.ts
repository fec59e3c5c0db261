/**
 * The speed mechanisms (src/util/switches.ts) change how long a build takes, never what it writes.
 * The same four builds — a full one, a day on (the first build after a full one: the spare, the day
 * worker above its threshold), a later matchday (from an empty tree), a minute on (the loop recycles
 * the oldest kept release) — run as `fds build` processes with every mechanism on and with each one
 * switched off in turn (FDS_WITHOUT, read by the process where a mechanism is decided). The build's
 * own account (the `mechanisms:` line it prints with FDS_WITHOUT set) shows each mechanism acting
 * when on and never when off; every release is byte for byte the one built with all of them on,
 * rules and manifest included; and a build leaves the release it started from untouched, though the
 * spare and a recycled release share their files' inodes with it.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentRelease } from '../../src/release/layout.js';
import { openStore } from '../../src/store/db.js';
import { createDemoProvider, demoReferenceInstant } from '../../src/sync/providers/demo/index.js';
import { storeRoutine } from '../../src/sync/providers/demo/routine.js';
import { runSync } from '../../src/sync/run-sync.js';
import { MECHANISMS, WITHOUT_ENV } from '../../src/util/switches.js';
import type { Mechanism } from '../../src/util/switches.js';
import { addDays, ymd } from '../../src/util/time.js';
import { ROOT, tempDir } from '../helpers/store.js';
import { matchdayNoon } from '../demo/helpers.js';
import { DEMO_TODAY, demoStore } from './helpers.js';

const BIN = path.join(ROOT, 'bin/fds.js');
const compiled = fs.existsSync(path.join(ROOT, 'build/bundle/main.js'));
if (!compiled)
  console.warn('skipped: the speed mechanisms run in the compiled CLI (build/), missing: npm run build:ts');

/** Six leagues: a day on then changes more than the day worker's threshold (256 changes). */
const LEAGUES = ['eng.1', 'esp.1', 'ger.1', 'ita.1', 'fra.1', 'ned.1'];
const SCALE = 1;
const MINUTE = 60_000;
const DAY = 86_400_000;
const NOON = demoReferenceInstant(DEMO_TODAY).getTime();
/** A later noon with matches of every league in play, so a minute on changes what the loop publishes. */
const LIVE = matchdayNoon(LEAGUES, ymd(new Date(NOON + 2 * DAY)), 1, SCALE).getTime();
/** The store each build reads, one routine sync after another (the first is the season's sync at noon). */
const STEPS = [
  { name: 'full build', at: NOON },
  { name: 'a day on', at: NOON + DAY },
  { name: 'a later matchday', at: LIVE },
  { name: 'a minute on', at: LIVE + MINUTE },
] as const;

/** A file as found: its bytes' digest, and what an in-place write would move (inode, size, mtime). */
interface Found {
  sha: string;
  stat: string;
}

/**
 * Every file of a release by path. Digests are cached by inode and change time: a build carries
 * most files over as hard links, so a run of four builds reads each file's bytes about once.
 */
class Trees {
  private readonly digests = new Map<string, string>();

  of(release: string): Map<string, Found> {
    const found = new Map<string, Found>();
    const walk = (dir: string) => {
      for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, d.name);
        if (d.isDirectory()) {
          walk(p);
          continue;
        }
        const st = fs.statSync(p, { bigint: true });
        const stat = `${st.ino}:${st.size}:${st.mtimeNs}`;
        const key = `${stat}:${st.ctimeNs}`;
        let sha = this.digests.get(key);
        if (!sha) {
          sha = crypto.createHash('sha1').update(fs.readFileSync(p)).digest('hex');
          this.digests.set(key, sha);
        }
        found.set(path.relative(release, p), { sha, stat });
      }
    };
    walk(release);
    return found;
  }
}

const bytesOf = (tree: Map<string, Found>) => new Map([...tree].map(([file, f]) => [file, f.sha]));

interface Run {
  /** The mechanisms each build's account names. */
  engaged: Mechanism[][];
  /** Each build's published release, by path: its bytes. */
  releases: Array<Map<string, string>>;
  /** Files of the release a build started from that the build changed or removed. */
  touched: string[][];
}

/** The four builds into a fresh directory, with `without` switched off. */
function run(stores: string[], without: Mechanism | null): Run {
  const out = path.join(tempDir('fds-mech-'), 'dist');
  const trees = new Trees();
  const result: Run = { engaged: [], releases: [], touched: [] };
  for (const db of stores) {
    const before = currentRelease(out);
    const started = before ? trees.of(before) : new Map<string, Found>();
    const res = spawnSync(
      process.execPath,
      [BIN, 'build', '--db', db, '--out', out, '--fallback', 'https://origin.example'],
      {
        encoding: 'utf8',
        env: { ...process.env, [WITHOUT_ENV]: without ?? '' },
      },
    );
    if (res.status !== 0) throw new Error(`fds build (without ${without}) failed: ${res.stderr}`);
    const account = /^mechanisms: (.*)$/m.exec(res.stdout);
    if (!account) throw new Error(`fds build printed no account of its mechanisms:\n${res.stdout}`);
    result.engaged.push(account[1] === 'none' ? [] : (account[1]!.split(', ') as Mechanism[]));
    const after = before ? trees.of(before) : new Map<string, Found>();
    result.touched.push(
      [...started]
        .filter(([file, f]) => after.get(file)?.stat !== f.stat || after.get(file)?.sha !== f.sha)
        .map(([f]) => f),
    );
    result.releases.push(bytesOf(trees.of(currentRelease(out)!)));
  }
  return result;
}

/** What a set of releases differs in from another: files missing, extra or with other bytes, by step. */
function differences(a: Array<Map<string, string>>, b: Array<Map<string, string>>): string[] {
  const out: string[] = [];
  a.forEach((tree, step) => {
    const other = b[step]!;
    for (const [file, sha] of tree) if (other.get(file) !== sha) out.push(`${STEPS[step]!.name}: ${file}`);
    for (const file of other.keys()) if (!tree.has(file)) out.push(`${STEPS[step]!.name}: ${file} (extra)`);
  });
  return out;
}

describe.skipIf(!compiled)('the speed mechanisms, each switched off in turn', () => {
  const stores: string[] = [];
  let allOn: Run;

  beforeAll(async () => {
    const dir = tempDir('fds-mech-stores-');
    let file = await demoStore({ file: path.join(dir, 'step-0.sqlite'), scale: SCALE, leagues: LEAGUES });
    stores.push(file);
    for (const [i, step] of STEPS.entries()) {
      if (i === 0) continue;
      const next = path.join(dir, `step-${i}.sqlite`);
      fs.copyFileSync(file, next);
      const db = openStore(next);
      try {
        const now = new Date(step.at);
        const clock = () => now;
        const window = { from: ymd(addDays(now, -1)), to: ymd(addDays(now, 1)) };
        const routine = storeRoutine(() => db, clock, window);
        const provider = createDemoProvider({ seed: 1, now, scale: SCALE, weight: 'light', routine });
        const report = await runSync(db, provider, { leagues: LEAGUES, concurrency: 4, clock });
        expect(report.failures).toEqual([]);
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
      stores.push(next);
      file = next;
    }
    allOn = run(stores, null);
  }, 240_000);

  it('with every mechanism on, each acts where the bench measures it', () => {
    const [full, day, minute, recycled] = allOn.engaged;
    expect(full).toEqual(expect.arrayContaining(['bounded-heap', 'spare']));
    expect(day).toEqual(expect.arrayContaining(['short-build-v8', 'day-worker', 'spare', 'spool-segments']));
    expect(day).toContain('manifest-ranges');
    expect(minute).not.toContain('recycle');
    expect(recycled).toEqual(expect.arrayContaining(['recycle', 'spool-segments', 'manifest-ranges']));
    expect(new Set(allOn.engaged.flat())).toEqual(new Set(MECHANISMS));
  });

  it('leaves the release each build started from untouched', () => {
    expect(allOn.touched).toEqual(STEPS.map(() => []));
  });

  it.each(MECHANISMS.map((m) => [m]))(
    'without %s: it never acts, and every release is byte for byte the same',
    (mechanism) => {
      const off = run(stores, mechanism);
      expect(off.engaged.flat()).not.toContain(mechanism);
      expect(differences(allOn.releases, off.releases)).toEqual([]);
      expect(off.touched).toEqual(STEPS.map(() => []));
    },
    120_000,
  );
});
