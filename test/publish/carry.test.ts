/**
 * Carrying untouched files over: a build keeps the rule candidates it spooled beside its release,
 * and the next build takes an untouched file's candidates from there instead of planning the file
 * again, computing anew only what the snapshot day moves (priorities, the hot set). Whether the carry
 * file is there, missing or cut off, the release is the one a full build of the same store gives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../src/app/routes.js';
import { carryDir, currentRelease } from '../../src/release/layout.js';
import { RANGES } from '../../src/publish/reuse/manifest-ranges.js';
import { fallbackRuleCount } from '../../src/publish/rules/rule-settings.js';
import { spooledFile } from '../../src/publish/rules/rule-spool.js';
import { openStore } from '../../src/store/db.js';
import { matchdayNoon, syncAt } from '../demo/helpers.js';
import { tempDir } from '../helpers/store.js';
import { buildInto, contentOf, copyOfState, fullBuildOf } from './helpers.js';
import type { NetlifyBuildOptions as BuildOptions } from '../../src/netlify/build.js';

const plans = vi.hoisted(() => ({ count: 0, files: new Set<string>() }));
vi.mock('../../src/publish/plan/plan.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/publish/plan/plan.js')>();
  return {
    ...original,
    planOf: (...args: Parameters<typeof original.planOf>) => {
      plans.count++;
      plans.files.add(args[0].file);
      return original.planOf(...args);
    },
  };
});

/** Segments carried over whole: their manifest lines taken as bytes (manifest-ranges.ts). */
const whole = vi.hoisted(() => ({ segments: 0 }));
vi.mock('../../src/publish/reuse/previous.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/publish/reuse/previous.js')>();
  return {
    ...original,
    PreviousManifest: class extends original.PreviousManifest {
      override skip(...args: Parameters<typeof original.PreviousManifest.prototype.skip>) {
        const lines = super.skip(...args);
        if (lines) whole.segments++;
        return lines;
      }
    },
  };
});

// Segments of a few matches, so that a day's changes leave some of them untouched at this scale.
vi.mock('../../src/publish/rules/spool-segments.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/publish/rules/spool-segments.js')>();
  return {
    ...original,
    SegmentKeys: class extends original.SegmentKeys {
      constructor() {
        super(4, 16);
      }
    },
  };
});

const LEAGUES = ['eng.1'];
const SCALE = 0.3;
const DAY = 86_400_000;
/** Tight enough that which literals are admitted depends on every candidate's priority. */
const BUDGET = fallbackRuleCount(ROUTES) + 60;

let dir: string;
/** The state before the day moved: a store synced at a matchday's noon, and its published build. */
let base: string;
let noon: Date;
/** The files the build with its carry directory intact planned, and those it published. */
let plannedIntact: ReadonlySet<string> = new Set();
let publishedIntact: ReadonlySet<string> = new Set();

function resetPlans(): void {
  plans.count = 0;
  plans.files = new Set();
  whole.segments = 0;
}

beforeAll(async () => {
  dir = tempDir('fds-carry-');
  base = path.join(dir, 'base');
  fs.mkdirSync(base);
  noon = matchdayNoon(LEAGUES, '20260321', 1, SCALE);
  const db = openStore(path.join(base, 'store.sqlite'));
  try {
    await syncAt(db, LEAGUES, noon, 1, SCALE);
  } finally {
    db.close();
  }
  await buildInto(path.join(base, 'store.sqlite'), path.join(base, 'dist'), { ruleBudget: BUDGET });
  // Two minutes of the matchday on: releases to recycle (recycle.ts), as a loop's steady state has them.
  for (const minutes of [1, 2]) {
    const db = openStore(path.join(base, 'store.sqlite'));
    try {
      await syncAt(db, LEAGUES, new Date(noon.getTime() + minutes * 60_000), 1, SCALE);
    } finally {
      db.close();
    }
    await buildInto(path.join(base, 'store.sqlite'), path.join(base, 'dist'), { ruleBudget: BUDGET });
  }
  // A day on: every match's distance to the snapshot day moves, and with it every priority.
  const later = openStore(path.join(base, 'store.sqlite'));
  try {
    await syncAt(later, LEAGUES, new Date(noon.getTime() + DAY), 1, SCALE);
  } finally {
    later.close();
  }
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of the state before the day moved. */
const copyOfBase = (name: string) => copyOfState(base, path.join(dir, name));

/** The segment files of a build's rule spool. */
const segmentFiles = (carry: string) =>
  fs
    .readdirSync(carry)
    .filter((n) => n.endsWith('.tsv'))
    .map((n) => path.join(carry, n));

const fullBuildWithBudget = (db: string, opts: Partial<BuildOptions> = {}) =>
  fullBuildOf(db, { ruleBudget: BUDGET, ...opts });

describe('carrying untouched files over', () => {
  it('keeps the rule candidates beside the published release, and drops them with it', async () => {
    const { db, out } = copyOfBase('kept');
    const first = currentRelease(out)!;
    expect(fs.existsSync(carryDir(first))).toBe(true);
    // Full builds: each publishes a release, whatever changed.
    for (let i = 0; i < 3; i++) await buildInto(db, out, { ruleBudget: BUDGET, keep: 1, full: true });
    const release = currentRelease(out)!;
    expect(release).not.toBe(first);
    expect(fs.existsSync(carryDir(release))).toBe(true);
    // Pruned releases take their carry directories with them.
    expect(fs.existsSync(first)).toBe(false);
    expect(fs.existsSync(carryDir(first))).toBe(false);
    const root = path.dirname(release);
    const carries = fs.readdirSync(root).filter((n) => n.endsWith('.carry'));
    const releases = fs.readdirSync(root).filter((n) => /^r-\d+$/.test(n));
    expect(carries.sort()).toEqual(releases.map((r) => `${r}.carry`).sort());
  });

  it('renders only the files a day of changes touched, and publishes what a full build gives', async () => {
    const { db, out } = copyOfBase('intact');
    const before = fs.readFileSync(path.join(out, '_redirects'), 'utf8');
    resetPlans();
    const { summary } = await buildInto(db, out, { ruleBudget: BUDGET });
    plannedIntact = new Set(plans.files);
    publishedIntact = new Set(contentOf(out).keys());
    expect(summary.mode).toBe('incremental');
    expect(summary.unchanged).toBeGreaterThan(summary.rendered);
    // Files are planned only in segments that could not be carried over whole; not every file.
    expect(plans.count).toBeGreaterThanOrEqual(summary.rendered);
    expect(plans.count).toBeLessThan(summary.files);
    // The day moved the priorities of files no change touched: the rules show it.
    expect(fs.readFileSync(path.join(out, '_redirects'), 'utf8')).not.toBe(before);
    // The spool's segments that hold only untouched files are the published ones, linked; those
    // with a file the day touched are written anew.
    const segments = segmentFiles(carryDir(currentRelease(out)!));
    expect(segments.filter((f) => fs.statSync(f).nlink > 1).length).toBeGreaterThan(0);
    expect(segments.filter((f) => fs.statSync(f).nlink === 1).length).toBeGreaterThan(0);
    // Of those, the ones of untouched match groups were carried over whole, without reading a line.
    expect(whole.segments).toBeGreaterThan(0);
    expect(contentOf(out)).toEqual(await fullBuildWithBudget(db));
  });

  it('carries segments over file by file when the manifest ranges are damaged, and publishes the same', async () => {
    const { db, out } = copyOfBase('ranges');
    const ranges = path.join(carryDir(currentRelease(out)!), RANGES);
    // Every range one line short: its bytes are not the lines the range says it has.
    const damaged = fs
      .readFileSync(ranges, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.stringify({ ...JSON.parse(l), files: JSON.parse(l).files - 1 }));
    fs.writeFileSync(ranges, `${damaged.join('\n')}\n`);
    resetPlans();
    const { summary } = await buildInto(db, out, { ruleBudget: BUDGET });
    expect(whole.segments).toBe(0);
    expect(summary.unchanged).toBeGreaterThan(summary.rendered);
    expect(contentOf(out)).toEqual(await fullBuildWithBudget(db));
  });

  it('carries files over under the edge router too, each with its own headers and index entry', async () => {
    const { db, out } = copyOfBase('edge');
    // The base was built with the rules router: this build changes settings, and carries all the same.
    resetPlans();
    const { summary } = await buildInto(db, out, { ruleBudget: BUDGET, router: 'edge' });
    expect(summary.mode).toBe('incremental');
    expect(summary.unchanged).toBeGreaterThan(summary.rendered);
    expect(contentOf(out)).toEqual(await fullBuildWithBudget(db, { router: 'edge' }));
  });

  it('plans every file again without the carry directory, and publishes the same', async () => {
    const { db, out } = copyOfBase('missing');
    fs.rmSync(carryDir(currentRelease(out)!), { recursive: true });
    resetPlans();
    const { summary } = await buildInto(db, out, { ruleBudget: BUDGET });
    expect(summary.mode).toBe('incremental');
    expect(plans.count).toBe(summary.files);
    expect(contentOf(out)).toEqual(await fullBuildWithBudget(db));
  });

  it('does not carry a cut-off segment whole, nor its cut-off last line, and publishes the same', async () => {
    expect(plannedIntact.size).toBeGreaterThan(0);
    const { db, out } = copyOfBase('cut');
    const carry = carryDir(currentRelease(out)!);
    // Cut inside the request (the last field) of a line of a file no change touched and the day did
    // not take away (yesterday's scoreboard of a day without matches goes): the cut line still names its file.
    const untouched = (l: string) =>
      l.startsWith('_s/') && !plannedIntact.has(spooledFile(l)) && publishedIntact.has(spooledFile(l));
    const segment = segmentFiles(carry).find((f) => fs.readFileSync(f, 'utf8').split('\n').some(untouched))!;
    const lines = fs.readFileSync(segment, 'utf8').split('\n');
    const at = lines.findIndex(untouched);
    const cutFile = spooledFile(lines[at]!);
    expect(cutFile.startsWith('_s/')).toBe(true);
    fs.writeFileSync(segment, [...lines.slice(0, at), lines[at]!.slice(0, -5)].join('\n'));
    resetPlans();
    await buildInto(db, out, { ruleBudget: BUDGET });
    expect(plans.files.has(cutFile)).toBe(true);
    expect(contentOf(out)).toEqual(await fullBuildWithBudget(db));
  });
});
