/**
 * `fds build`: pre-render every enumerable response into a new release, generate the CDN rules
 * and headers, and publish atomically (release.ts). Incremental: files whose bytes did not change
 * are hard-linked from the published release, and a build that changes nothing publishes nothing.
 * Memory stays flat: the plan streams from the store, bodies are held only while in flight, and
 * rule candidates are spooled to disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { formatQuery } from '../api/query.js';
import { render } from '../api/render.js';
import { ROUTES } from '../api/routes.js';
import { StoreReader } from '../store/read/reader.js';
import { LineWriter, countManifest, manifestLine } from './manifest.js';
import { FilePlacer } from './place.js';
import { PreviousManifest } from './previous.js';
import { buildPlan, formUrl } from './plan.js';
import type { PlannedFile } from './plan.js';
import {
  MANIFEST_FILE,
  acquireLock,
  cleanStale,
  createTempRelease,
  currentRelease,
  publish,
  pruneReleases,
  releaseLayout,
} from './release.js';
import { DEFAULT_FALLBACK, DEFAULT_RULE_BUDGET, RulePlanner, checkBudget, checkFallback } from './rules.js';
import type { RuleStats } from './rules.js';
import { assetReleasePaths, copyAssets } from '../frontdoor/assets.js';
import { ASSET_DIR, ASSET_HEADERS } from '../frontdoor/paths.js';

export interface BuildOptions {
  db: string;
  out: string;
  /** Render and write every file, reusing nothing from the published release. */
  full?: boolean;
  /** Files being compared and written at once. */
  concurrency?: number;
  ruleBudget?: number;
  fallback?: string;
  /** Older releases kept next to the published one. */
  keepReleases?: number;
  onPlanned?: (n: number) => void;
  onFile?: (failed: boolean) => void;
}

export interface BuildSummary {
  /** The published release (the previous one when nothing changed). */
  release: string;
  published: boolean;
  files: number;
  bytes: number;
  added: number;
  changed: number;
  unchanged: number;
  deleted: number;
  failed: number;
  failures: string[];
  rules: RuleStats;
  seconds: number;
}

export class BuildError extends Error {
  constructor(
    message: string,
    readonly failures: string[] = [],
  ) {
    super(message);
  }
}

/** Files beside the rendered ones; the front door's assets are copies of installed files. */
const AUX_FILES = ['_redirects', '_headers', MANIFEST_FILE, ...assetReleasePaths()];
const MAX_REPORTED_FAILURES = 20;

/** Responses rendered for files must not depend on the time of the build: the clock is the store's. */
function snapshotClock(store: StoreReader): () => Date {
  const at = new Date(store.meta().snapshotAt ?? 0);
  return () => at;
}

export async function build(opts: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const fallback = checkFallback(opts.fallback ?? DEFAULT_FALLBACK);
  const budget = checkBudget(opts.ruleBudget ?? DEFAULT_RULE_BUDGET, ROUTES, assetReleasePaths().length);
  const concurrency = opts.concurrency ?? 16;
  const layout = releaseLayout(opts.out);
  const unlock = acquireLock(layout);
  let temp: string | null = null;
  try {
    cleanStale(layout);
    const previous = currentRelease(layout.out);
    const previousFiles = previous ? await countManifest(path.join(previous, MANIFEST_FILE)) : 0;
    temp = createTempRelease(layout);
    const placer = new FilePlacer(temp, previous, !opts.full);
    const known = new PreviousManifest(previous && path.join(previous, MANIFEST_FILE));
    const rules = new RulePlanner(`${temp}-rules`, budget, fallback, [
      { dir: ASSET_DIR, files: assetReleasePaths(), headers: ASSET_HEADERS },
    ]);
    const manifest = new LineWriter(path.join(temp, MANIFEST_FILE));
    const counts = { files: 0, bytes: 0, added: 0, changed: 0, unchanged: 0, failed: 0 };
    const failures: string[] = [];
    const fail = (message: string) => {
      counts.failed++;
      if (failures.length < MAX_REPORTED_FAILURES) failures.push(message);
      opts.onFile?.(true);
    };

    const store = StoreReader.open(opts.db);
    try {
      // One read transaction for the whole enumeration: every file comes from one state of the
      // store even if a sync commits meanwhile (and the render core joins this transaction).
      store.db.exec('BEGIN');
      const clock = snapshotClock(store);
      const limit = pLimit(concurrency);
      const inflight = new Set<Promise<void>>();
      let planned = 0;
      opts.onPlanned?.(previousFiles);
      try {
        for (const file of buildPlan(store)) {
          if (++planned > previousFiles) opts.onPlanned?.(1);
          const body = renderFile(file, store, clock, fail);
          if (!body) continue;
          counts.files++;
          counts.bytes += body.body.length;
          manifest.write(
            manifestLine({
              file: file.file,
              request: formUrl(file.request),
              aliases: file.aliases.map(formUrl),
              keys: file.keys,
              status: body.status,
              etag: body.etag,
              cacheControl: body.cacheControl,
              contentType: body.contentType,
              bytes: body.body.length,
            }),
          );
          rules.add(file, body);
          const before = known.find(file.file);
          const task: Promise<void> = limit(() => placer.place(file.file, body.body, body.etag, before)).then(
            (placed) => {
              counts[placed]++;
              opts.onFile?.(false);
            },
            (err: unknown) => fail(`${file.file}: ${err instanceof Error ? err.message : String(err)}`),
          );
          inflight.add(task);
          void task.finally(() => inflight.delete(task));
          // Backpressure: never hold more than a couple of windows of bodies in memory.
          while (inflight.size >= concurrency * 2) await Promise.race(inflight);
        }
      } finally {
        // Whatever happened, no write may still be running when the temporary release is removed.
        await Promise.allSettled(inflight);
      }
      store.db.exec('COMMIT');
    } finally {
      store.close();
      manifest.close();
      rules.close();
      known.close();
    }
    const ruleStats = rules.finish(temp);
    copyAssets(temp);
    if (counts.failed) {
      throw new BuildError(
        `${counts.failed} of ${counts.files + counts.failed} pre-rendered responses failed; nothing was published`,
        failures,
      );
    }

    const deleted = previous ? Math.max(0, previousFiles - counts.unchanged - counts.changed) : 0;
    const auxSame = AUX_FILES.map((f) => placer.keepIfSame(f)).every(Boolean);
    const nothingChanged = !!previous && !opts.full && counts.added + counts.changed + deleted === 0 && auxSame;
    let release: string;
    if (nothingChanged) {
      fs.rmSync(temp, { recursive: true, force: true });
      release = previous;
    } else {
      release = publish(layout, temp);
      pruneReleases(layout, opts.keepReleases ?? 2);
    }
    temp = null;
    return {
      release,
      published: !nothingChanged,
      ...counts,
      deleted,
      failures,
      rules: ruleStats,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (temp) {
      fs.rmSync(temp, { recursive: true, force: true });
      fs.rmSync(`${temp}-rules`, { recursive: true, force: true });
    }
    unlock();
  }
}

interface Rendered {
  status: number;
  body: Buffer;
  etag: string;
  cacheControl: string;
  contentType: string;
}

function renderFile(
  file: PlannedFile,
  store: StoreReader,
  clock: () => Date,
  fail: (m: string) => void,
): Rendered | null {
  const url = formUrl(file.request);
  const res = render(
    {
      method: 'GET',
      path: file.request.path,
      rawQuery: formatQuery(Object.fromEntries(file.request.query)).slice(1),
      headers: {},
    },
    { store, clock },
  );
  const { ETag: etag, 'Cache-Control': cacheControl, 'Content-Type': contentType } = res.headers;
  if (res.status !== 200 || !etag || !cacheControl || !contentType) {
    fail(`${url}: rendered ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
    return null;
  }
  return { status: res.status, body: res.body, etag, cacheControl, contentType };
}
