/**
 * What a build is asked to do and what it answers (build.ts), and the context its steps share
 * (write-release.ts): a module of its own so the steps and the orchestrator do not import each other.
 */
import type { BuildInfo } from '../release/build-info.js';
import type { StoreReader } from '../store/read/reader.js';
import type { OutputFs } from '../util/lines.js';
import type { Mechanism } from '../util/switches.js';
import type { Clock } from '../util/time.js';
import type { ReachCount } from './plan/reach.js';
import type { Recycler } from './reuse/recycle.js';
import type { Router } from './rules/rule-settings.js';
import type { RuleStats } from './rules/rules.js';
import type { BuildSettings } from './rules/rule-settings.js';
import type { BuildScope } from './plan/scope.js';
import type { BuildTarget, TargetBuild } from './target.js';

export interface BuildOptions<Report extends object = object> {
  /** The store to render from; the build reads it in one transaction and leaves it open. */
  store: StoreReader;
  /** The host the release is for (target.ts): how its rules are written, and its own files. */
  target: BuildTarget<Report>;
  out: string;
  /** Where the release is written (node:fs unless a test injects another). */
  fs?: OutputFs;
  /** The clock responses are rendered with; by default the store's snapshot time, so builds are reproducible. */
  clock?: Clock;
  /** Render and write every file, reusing nothing from the published release. */
  full?: boolean;
  /** Render threads at most (default: one per core; 0 renders in the build's own thread). */
  workers?: number;
  /** Changes from which an incremental build renders in one worker beside its own thread (default WORKER_AFTER). */
  workerAfter?: number;
  ruleBudget?: number;
  fallback?: string;
  /** A hybrid build's origin: volatile requests go there instead of to their files (`--origin`). */
  origin?: string;
  /** How the CDN reaches the files: literal rules only (default), or an edge function first. */
  router?: Router;
  /** Older releases left beside the published one (`--keep`). */
  keep?: number;
  /**
   * Told the scope as soon as the build has decided it — under its lock, in its read transaction,
   * before any work — so the scope is computed once: `fds build` stops the build here by throwing when
   * it renders enough to start again in the bounded heap (cli/build-heap.ts); nothing is left behind.
   */
  onScope?: (scope: BuildScope) => void;
  onPlanned?: (n: number) => void;
  onFile?: (failed: boolean) => void;
}

/** What a build answers; `fds build` adds its target's report (target.ts `TargetBuild.report`). */
export interface BuildSummary {
  /** The published release (the previous one when nothing changed). */
  release: string;
  published: boolean;
  /** full: everything rendered (and why); incremental: only what changed; unchanged: nothing to do. */
  mode: 'full' | 'incremental' | 'unchanged';
  reason: string | null;
  /** Responses rendered (the rest of `files` was carried over from the published build). */
  rendered: number;
  /** Render workers used (0: rendered in the build's own thread). */
  workers: number;
  files: number;
  bytes: number;
  added: number;
  changed: number;
  unchanged: number;
  deleted: number;
  failed: number;
  failures: string[];
  rules: RuleStats | null;
  router: Router;
  /** Pre-rendered requests the CDN reaches from files, in their shortest spelling; and of the hot set. */
  reach: ReachCount | null;
  /**
   * What shared caches must purge now that it is published: the own cache tag of each answer whose
   * bytes it changed, added or removed (publish/place/changed-tags.ts); none when nothing was published.
   */
  changedTags: string[];
  /**
   * The speed mechanisms that acted in this build (util/switches.ts), those of the process around it
   * included (its heap, its V8 flags): what `fds build` prints with FDS_WITHOUT set.
   */
  engaged: Mechanism[];
  seconds: number;
}

/** What every step of one build shares: the options, the settings checked, where it writes, what it reuses. */
export interface BuildContext {
  store: StoreReader;
  opts: BuildOptions;
  /** The target's part of this build. */
  target: TargetBuild<object>;
  /** The build's settings, checked once (rule-settings.ts `settingsOf`): recorded in build.json, used by the rules. */
  settings: BuildSettings;
  /** The temporary release being filled. */
  temp: string;
  /** The published release (null: none). */
  previous: string | null;
  scope: BuildScope;
  info: BuildInfo;
  fs: OutputFs;
  /** The release taken over to start from (recycle.ts), if any. */
  recycler: Recycler | null;
}
