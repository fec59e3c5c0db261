/**
 * `fds build`: pre-render every enumerable response into a new release, generate the CDN rules
 * and headers, and publish atomically (atomic/releases.ts). Incremental (scope.ts): only the responses
 * that read something the store's change log says changed since the published build are rendered;
 * every other file is hard-linked from the published release, and a build with nothing to do
 * returns at once. Memory stays flat: the plan streams from the store, bodies are held only while
 * in flight, and rule candidates are spooled to disk.
 * The target (target.ts) writes the rules in its dialect and adds its own files: Netlify's
 * function package, measured before any work so that a build whose function could not deploy fails
 * first, and its edge router (src/netlify/); nginx's configuration (src/nginx/).
 */
import nodeFs from 'node:fs';
import path from 'node:path';
import { assetReleasePaths } from '../frontdoor/assets.js';
import type { BuildInfo } from '../release/build-info.js';
import { BUILD_INFO_FILE, codeVersion, readBuildInfo } from '../release/build-info.js';
import type { ReleaseLayout } from '../release/layout.js';
import { MANIFEST_FILE, carryDir, currentRelease, releaseLayout } from '../release/layout.js';
import { countManifest } from '../release/manifest.js';
import { smallPageCache } from '../store/db.js';
import type { StoreReader } from '../store/read/reader.js';
import { engaged, takeEngaged, uses } from '../util/switches.js';
import {
  acquireLock,
  cleanStale,
  createTempRelease,
  publish,
  pruneReleases,
  tempReleasePath,
} from './atomic/releases.js';
import type { BuildContext, BuildOptions, BuildSummary } from './options.js';
import { Recycler, discardedFiles, lineageBase, writeLineage } from './reuse/recycle.js';
import { makeSpare } from './reuse/spare.js';
import { DEFAULT_TARGET, settingsOf } from './rules/rule-settings.js';
import type { BuildSettings } from './rules/rule-settings.js';
import type { BuildTarget, TargetBuild } from './target.js';
import { buildScope } from './plan/scope.js';
import { writeRelease } from './write-release.js';

export type { BuildOptions, BuildSummary } from './options.js';
export type { BuildTarget } from './target.js';
export { BuildError } from './write-release.js';
export { snapshotClock } from './snapshot-clock.js';

/** Files beside the rendered ones, the target's besides; the front door's assets are copies of installed files. */
const AUX_FILES = [MANIFEST_FILE, BUILD_INFO_FILE, ...assetReleasePaths()];
const auxFiles = (target: BuildTarget, settings: BuildSettings) => [...target.files(settings), ...AUX_FILES];
/**
 * What a tree a build starts from must not hold: the files a build writes anew, whatever settings
 * made the tree (a build with literal rules may take over a release the edge router made).
 */
const writtenAnew = (target: BuildTarget) => [...target.anyFiles, ...AUX_FILES];

/**
 * The tree a build that reuses the published release starts from: the full build's spare (spare.ts),
 * else the release pruning would delete next, taken over and brought up to date (recycle.ts); else an
 * empty one.
 */
function takeTree(
  layout: ReleaseLayout,
  previous: string,
  before: BuildInfo | null,
  keep: number,
  target: BuildTarget,
): Recycler | null {
  if (!uses('recycle')) return null;
  // Another target's release holds files this one knows nothing of: a tree is taken for the same target only.
  if ((before?.settings.target ?? DEFAULT_TARGET) !== target.name) return null;
  const tree = Recycler.take(layout, previous, keep, tempReleasePath(layout), writtenAnew(target), uses('spare'));
  if (tree) engaged(tree.spare ? 'spare' : 'recycle');
  return tree;
}

function scopeFor(store: StoreReader, previous: string | null, settings: BuildInfo['settings'], full: boolean) {
  const info: BuildInfo = { code: codeVersion(), snapshot: store.snapshots.current(), settings };
  const before = readBuildInfo(previous);
  const same = JSON.stringify(before?.settings) === JSON.stringify(settings);
  return { info, before, scope: buildScope(store, before, info, full, same) };
}

/**
 * Steps: check the settings; lock; decide the scope and tell it (`onScope`, which may stop the build
 * here); start the target's part (which may refuse: a function too large to deploy); answer at once
 * when nothing changed; take a tree to start from and fill it (write-release.ts); publish it (the
 * target sealing it under its final name), or give it back when it equals the published release;
 * clean up whatever happened.
 */
export async function build<Report extends object>(opts: BuildOptions<Report>): Promise<BuildSummary & Report> {
  const started = performance.now();
  const settings = settingsOf(opts, opts.target);
  const { router } = settings;
  const fs = opts.fs ?? nodeFs;
  const layout = releaseLayout(opts.out, fs);
  const unlock = acquireLock(layout);
  let temp: string | null = null;
  let target: TargetBuild<Report> | null = null;
  const seconds = () => (performance.now() - started) / 1000;
  try {
    cleanStale(layout);
    const previous = currentRelease(layout.out, fs);
    const { store } = opts;
    // One read transaction for the whole build: every file comes from one state of the store even
    // if a sync commits meanwhile (and the render core joins this transaction).
    store.begin();
    // Its own reads are a build's too (render-worker.ts).
    const restoreCache = smallPageCache(store.db);
    try {
      const { info, before, scope } = scopeFor(store, previous, settings, !!opts.full);
      opts.onScope?.(scope);
      // Before any work: the target may refuse (a function that cannot deploy makes the build pointless).
      target = await opts.target.start(store, settings, opts.out);
      if (scope.kind === 'none' && previous)
        return { ...unchanged(previous, router, seconds()), ...target.report(null) };
      const keep = opts.keep ?? 2;
      const recycler = previous && !opts.full ? takeTree(layout, previous, before, keep, opts.target) : null;
      temp = recycler?.dir ?? createTempRelease(layout);
      target.place?.(temp, previous);
      const ctx: BuildContext = { store, opts, target, temp, previous, scope, info, fs, recycler, settings };
      const written = await writeRelease(ctx);
      const aux = auxFiles(opts.target, settings);
      const auxSame = aux.map((f) => written.placer.linkIfSame(f)).every(Boolean);
      const { counts } = written;
      const nothingChanged =
        !!previous && !opts.full && counts.added + counts.changed + written.deleted === 0 && auxSame;
      let release: string;
      if (nothingChanged) {
        // Equal to the published release: the taken tree goes back (or away), nothing is published.
        if (recycler) recycler.giveBack();
        else fs.rmSync(temp, { recursive: true, force: true });
        fs.rmSync(carryDir(temp), { recursive: true, force: true });
        release = previous;
      } else {
        release = publish(layout, temp, target.seal?.bind(target));
        fs.rmSync(carryDir(release), { recursive: true, force: true });
        fs.renameSync(carryDir(temp), carryDir(release));
        const base = lineageBase(previous, opts.full);
        writeLineage(release, { base, written: written.rewritten, removed: base ? written.removed : [] }, fs);
        recycler?.published();
        pruneReleases(layout, keep);
        if (scope.kind === 'full' && uses('spare')) {
          makeSpare(layout, release, writtenAnew(opts.target));
          engaged('spare');
        }
      }
      await recycler?.discarded;
      temp = null;
      return {
        release,
        published: !nothingChanged,
        mode: scope.kind === 'full' ? 'full' : 'incremental',
        reason: scope.kind === 'full' ? scope.reason : null,
        ...counts,
        workers: written.workers,
        deleted: written.deleted,
        failures: written.failures,
        rules: opts.target.rules ? written.rules : null,
        router,
        // A target whose host reaches every pre-rendered request (the edge router, nginx) reaches them all; the rules, those they hold.
        reach: target.reachesAll
          ? { ...written.rules.reach, reached: written.rules.reach.requests, hotReached: written.rules.reach.hot }
          : written.rules.reach,
        changedTags: nothingChanged ? [] : written.changedTags,
        engaged: takeEngaged(),
        seconds: seconds(),
        ...target.report(nothingChanged ? null : release),
      };
    } finally {
      if (store.db.inTransaction) store.db.exec('ROLLBACK');
      restoreCache();
    }
  } finally {
    target?.end?.();
    if (temp) removeTemp(fs, temp);
    unlock();
  }
}

/** Nothing to do: the published release answers, as its manifest counts it. */
function unchanged(previous: string, router: BuildSummary['router'], seconds: number): BuildSummary {
  const { files, bytes } = countManifest(path.join(previous, MANIFEST_FILE));
  return {
    release: previous,
    published: false,
    mode: 'unchanged',
    reason: null,
    rendered: 0,
    workers: 0,
    files,
    bytes,
    ...{ added: 0, changed: 0, unchanged: files, deleted: 0, failed: 0, failures: [], rules: null },
    ...{ router, reach: null, changedTags: [] },
    engaged: takeEngaged(),
    seconds,
  };
}

/** A build that failed leaves nothing behind: its release, rule spool and the files it set aside. */
function removeTemp(fs: typeof nodeFs | NonNullable<BuildOptions['fs']>, temp: string): void {
  fs.rmSync(temp, { recursive: true, force: true });
  fs.rmSync(`${temp}-rules`, { recursive: true, force: true });
  for (const file of Object.values(discardedFiles(temp))) fs.rmSync(file, { force: true });
  fs.rmSync(carryDir(temp), { recursive: true, force: true });
}
