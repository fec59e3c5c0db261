/**
 * What a build is for: the host that serves its release. The core build (plan, render, place,
 * publish) names no platform. It writes the rendered files, the manifest and build.json, and plans
 * the rules that reach the files (rules/rules.ts); a target says how those rules are written, and
 * adds the files of its own that its host needs beside them. The targets are adapters above this
 * room: src/netlify/ (`_redirects`, `_headers`, the function's package, the edge router) and
 * src/nginx/ (one configuration). docs/architecture.md says how to add one.
 */
import type { StoreReader } from '../store/read/reader.js';
import type { OutputFs } from '../util/lines.js';
import type { PlannedFile } from './plan/plan.js';
import type { RuleDialect } from './rules/dialect.js';
import type { BuildSettings, SettingsTarget } from './rules/rule-settings.js';

/** What a target is told of every file the build plans, in plan order (the edge router's index). */
export interface FileIndex {
  add(file: PlannedFile): void;
}

/**
 * A target: its name (`fds build --target`; build.json records it when it is not the default one),
 * its default fallback and the checks of its settings (rule-settings.ts `SettingsTarget`), and what
 * it adds to a build.
 */
export interface BuildTarget<Report extends object = object> extends SettingsTarget {
  /** How it writes the rules; null: it writes none (it reaches the files another way). */
  readonly rules: RuleDialect | null;
  /**
   * The files beside the rendered ones that a build with these settings writes for it in `finish`:
   * compared with the published release's to tell whether the build changed anything.
   */
  files(settings: BuildSettings): readonly string[];
  /** Every file it may write beside the rendered ones, whatever the settings (a tree taken over must not hold them). */
  readonly anyFiles: readonly string[];
  /** One build's part, started once the scope is known and before any work: it may refuse the build by throwing. */
  start(store: StoreReader, settings: BuildSettings, out: string): Promise<TargetBuild<Report>>;
}

export interface TargetBuild<Report extends object> {
  /** Told every planned file (null: it needs no index). */
  readonly index: FileIndex | null;
  /** Whether its host reaches every pre-rendered request from its file (the rules reach those they hold). */
  readonly reachesAll: boolean;
  /** The temporary release before its files are planned: what the target places there first. */
  place?(temp: string, previous: string | null): void;
  /** The temporary release, its files, manifest and rules written: the target's own files. */
  finish?(temp: string, fs: OutputFs): Promise<void>;
  /**
   * The release under its final name, complete, just before it is published: for a file that names
   * the release's own path (nginx's root). Not called when the build publishes nothing.
   */
  seal?(release: string): void;
  /**
   * The build succeeded: the target keeps what it prepared (Netlify's function package) and says what
   * it did. `published`: the release the build published, null when none.
   */
  report(published: string | null): Report;
  /** Whatever happened, last: what it prepared and did not keep goes. */
  end?(): void;
}
