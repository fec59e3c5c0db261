/**
 * The Netlify target (publish/target.ts): the rules and headers as `_redirects` and `_headers`
 * (rules/dialect.ts); when the fallback is the Netlify Function, its package (function-package.ts: a
 * slim store and the deploy's per-match bodies), made and measured as Netlify counts it before any
 * work, so that a build whose function could not deploy fails first; with `--router edge`, the edge
 * function holding the index of what the build pre-rendered (edge/bundle.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { RuleError, originUrl } from '../publish/rules/rule-settings.js';
import type { BuildSettings } from '../publish/rules/rule-settings.js';
import type { BuildTarget, TargetBuild } from '../publish/target.js';
import type { StoreReader } from '../store/read/reader.js';
import type { OutputFs } from '../util/lines.js';
import { EDGE_FILE, EdgeIndex, writeRouter } from './edge/bundle.js';
import type { EdgeBundleStats } from './edge/bundle.js';
import { deployUpload } from './deploy-upload.js';
import type { DeployUpload } from './deploy-upload.js';
import { FunctionPackage } from './function-package.js';
import type { BlobCounts } from './function-package.js';
import { checkFunctionFits } from './function-size.js';
import type { FunctionSize } from './function-size.js';
import { BODIES_DIR } from './function-store.js';
import { NETLIFY_RULES, isFunction } from './rules/dialect.js';

export const DEFAULT_FALLBACK = '/.netlify/functions/fds';

/** What a build for Netlify reports beside the core's summary. */
export interface NetlifyReport {
  /** The edge function's module (`--router edge`). */
  edge: EdgeBundleStats | null;
  /** The fallback function's archive, as Netlify counts it, when the fallback is the Netlify Function. */
  functionSize: FunctionSize | null;
  /** The release's files of per-match bodies the function reads (`_b/`; what this build wrote of them). */
  functionBlobs: BlobCounts | null;
  /**
   * What deploying the published release uploads against the release the site last received
   * (deploy-upload.ts): with the function, for a build that published a release; else null.
   */
  deploy: DeployUpload | null;
}

export interface NetlifyOptions {
  /**
   * false: write no Netlify Function package, even when the fallback is the function — for a loop
   * that answers from its own server and deploys nothing to Netlify (`fds live`).
   */
  functionPackage?: false;
}

function fallbackOf(fallback: string): string {
  if (/^\/\.netlify\/functions\/[A-Za-z0-9_-]+$/.test(fallback)) return fallback;
  const origin = originUrl(fallback);
  if (origin) return origin;
  throw new RuleError(
    `--fallback must be /.netlify/functions/<name> or an http(s) origin URL, got ${JSON.stringify(fallback)}`,
  );
}

const RULE_FILES = [NETLIFY_RULES.rulesFile, NETLIFY_RULES.headersFile];

export function netlifyTarget(opts: NetlifyOptions = {}): BuildTarget<NetlifyReport> {
  return {
    name: 'netlify',
    rules: NETLIFY_RULES,
    defaultFallback: DEFAULT_FALLBACK,
    fallbackOf,
    check: () => {},
    files: (settings) => (settings.router === 'edge' ? [...RULE_FILES, EDGE_FILE] : RULE_FILES),
    anyFiles: [...RULE_FILES, EDGE_FILE],
    start: (store, settings, out) => NetlifyBuild.start(store, settings, out, opts),
  };
}

/** One build's Netlify part: the function's package, the edge router's index. */
class NetlifyBuild implements TargetBuild<NetlifyReport> {
  readonly index: EdgeIndex | null;
  private edge: EdgeBundleStats | null = null;
  private placed = false;

  private constructor(
    private readonly store: StoreReader,
    settings: BuildSettings,
    private readonly fn: FunctionPackage | null,
  ) {
    this.index = settings.router === 'edge' ? new EdgeIndex() : null;
  }

  static async start(store: StoreReader, settings: BuildSettings, out: string, opts: NetlifyOptions) {
    const { fallback } = settings;
    const fn =
      isFunction(fallback) && opts.functionPackage !== false ? await FunctionPackage.prepare(store, out) : null;
    if (fn) checkFunctionFits(fn.size, fallback);
    return new NetlifyBuild(store, settings, fn);
  }

  /** The edge router reaches every pre-rendered request; the rules, those they hold. */
  get reachesAll(): boolean {
    return this.index !== null;
  }

  /**
   * The per-match bodies the function reads are files of the release (before the rules, which keep
   * `/_b/*` on them); without the function, a tree taken over loses any it had.
   */
  place(temp: string, previous: string | null): void {
    this.placed = true;
    if (this.fn) this.fn.placeBodies(this.store, temp, previous);
    else fs.rmSync(path.join(temp, BODIES_DIR), { recursive: true, force: true });
  }

  async finish(temp: string, out: OutputFs): Promise<void> {
    if (this.index) this.edge = await writeRouter(temp, this.index, out);
  }

  report(published: string | null): NetlifyReport {
    const { fn } = this;
    fn?.commit();
    const deploy = fn && published ? deployUpload(published, fn.layout.root, fn.size.total.zipped) : null;
    const functionBlobs = this.placed ? (fn?.blobs ?? null) : null;
    return { edge: this.edge, functionSize: fn?.size ?? null, functionBlobs, deploy };
  }

  end(): void {
    this.fn?.discard();
  }
}
