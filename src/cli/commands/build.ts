import { DEFAULT_OUT } from '../../release/layout.js';
import { Command, Option } from 'commander';
import { build, BuildError } from '../../publish/build.js';
import type { BuildTarget } from '../../publish/build.js';
import { endWithStarter, needsBoundedHeap, runBounded, tuneBuildProcess } from '../build-heap.js';
import type { BuildSummary } from '../../publish/build.js';
import type { DeployUpload } from '../../netlify/deploy-upload.js';
import { DEFAULT_RULE_BUDGET, ROUTERS, RuleError } from '../../publish/rules/rule-settings.js';
import { netlifyTarget } from '../../netlify/target.js';
import type { NetlifyReport } from '../../netlify/target.js';
import { nginxTarget } from '../../nginx/target.js';
import type { NginxReport } from '../../nginx/target.js';

/** What the targets report beside the core's summary: each its own part. */
type Reports = Partial<NetlifyReport & NginxReport>;
import type { Router } from '../../publish/rules/rule-settings.js';
import { EDGE_LIMIT_BYTES, EdgeError } from '../../netlify/edge/bundle.js';
import { FunctionTooLarge, describeFunctionSize } from '../../netlify/function-size.js';
import { Progress } from '../progress.js';
import { CommandFailed, parseCount, parsePositiveInt } from '../errors.js';
import { StoreReader } from '../../store/read/reader.js';
import path from 'node:path';
import { mb, thousands } from '../../util/thousands.js';
import { purgeOnce, purgeOption } from '../purge-options.js';
import { fallbackOption, workersOption } from '../build-options.js';
import type { PurgeTarget } from '../../purge/target.js';
import { formatPurgeReport, purgeIncomplete } from '../../purge/report.js';
import { WITHOUT_ENV } from '../../util/switches.js';

/** Thrown from the build's scope hook: the build stops, and the command starts again with the bounded heap. */
class StartAgainBounded extends Error {}

/** The hosts a build can be for (publish/target.ts), the default first. */
const TARGETS = {
  netlify: () => netlifyTarget(),
  nginx: () => nginxTarget(),
} satisfies Record<string, () => BuildTarget<Reports>>;
type TargetName = keyof typeof TARGETS;
const TARGET_NAMES = Object.keys(TARGETS) as TargetName[];

interface BuildFlags {
  target: TargetName;
  db: string;
  out: string;
  full: boolean;
  workers: number;
  ruleBudget: number;
  fallback: string;
  origin?: string;
  router: Router;
  keep: number;
  purge: PurgeTarget[];
}

const n = thousands;

export function summaryLine(s: BuildSummary & Reports, out: string): string {
  const kb = (bytes: number) => `${(bytes / 1e3).toFixed(1)} kB`;
  const secs = `${s.seconds.toFixed(1)}s`;
  // `function: 3.1 MB zipped of 50, 12.0 MB of 250 unzipped, 5,312 body files (12 written)`
  const fn = s.functionSize
    ? `; ${describeFunctionSize(s.functionSize)}` +
      (s.functionBlobs ? `, ${n(s.functionBlobs.count)} body files (${n(s.functionBlobs.written)} written)` : '')
    : '';
  if (s.mode === 'unchanged' || !s.reach) {
    const stays = `${out} stays ${path.basename(s.release)}`;
    const size = `${n(s.files)} files, ${mb(s.bytes)}`;
    return `build: nothing changed since the published build, ${stays} (${size})${fn} in ${secs}`;
  }
  const r = s.rules;
  const rules = !r
    ? 'no rules'
    : `${n(r.total)} rules of ${n(r.budget)} (${n(r.literals)} literal of ${n(r.candidates)} candidate spellings, ` +
      `${n(r.escapes)} escape, ${n(r.pages)} page, 1 catch-all` +
      `${r.toOrigin ? `; ${n(r.toOrigin)} send volatile requests to the origin` : ''}); ` +
      `_headers ${kb(r.headersBytes)} (${n(r.headerExceptions)} files with their own block)`;
  const edge =
    s.edge != null
      ? `; edge router ${mb(s.edge.bytes)}, ${mb(s.edge.gzipBytes)} compressed (limit ${mb(EDGE_LIMIT_BYTES)})`
      : '';
  const nginx = s.nginx
    ? `; nginx.conf ${mb(s.nginx.bytes)} (${n(s.nginx.spellings)} spellings of ${n(s.nginx.answers)} answers to files)`
    : '';
  const reach =
    `CDN reaches ${n(s.reach.reached)} of ${n(s.reach.requests)} pre-rendered requests ` +
    `(hot set: ${n(s.reach.hotReached)} of ${n(s.reach.hot)})`;
  const where = s.published
    ? `published ${out} -> ${path.basename(s.release)}`
    : `nothing changed, ${out} stays ${path.basename(s.release)}`;
  const how = s.mode === 'full' ? `full build (${s.reason})` : `incremental: ${n(s.rendered)} rendered`;
  return (
    `build: ${n(s.files)} files, ${mb(s.bytes)}, ${how}: ${n(s.added + s.changed)} written ` +
    `(${n(s.added)} new, ${n(s.changed)} changed), ` +
    `${n(s.unchanged)} unchanged, ${n(s.deleted)} deleted, ${n(s.failed)} failed; ${rules}${edge}${nginx}; ${reach}${fn}; ` +
    `${where} in ${secs}`
  );
}

const pct = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(1) : '0.0'} %`;

/**
 * What deploying the published release uploads (netlify/deploy-upload.ts), against the release the
 * site last received:
 * `deploy against r-000041: 812 files / 3.2 MB new to the site of 35,120 files / 712.0 MB (0.4 %),
 * bodies 12 / 0.5 MB new of 5,414 / 45.1 MB, function archive 7.9 MB (changed): uploads 11.1 MB,
 * 1.5 % of a first deploy's 720.0 MB`.
 */
export function deployLine(d: DeployUpload): string {
  const amount = (a: { files: number; bytes: number }) => `${n(a.files)} files / ${mb(a.bytes)}`;
  const against = d.against
    ? `deploy against ${path.basename(d.against)}`
    : `deploy: first deploy${d.missing ? ` (${path.basename(d.missing)}, the release the site last received, is gone)` : ''}`;
  const archive = d.archive
    ? `, function archive ${mb(d.archive.bytes)} (${d.archive.changed ? 'changed' : 'unchanged, not uploaded'})`
    : '';
  return (
    `${against}: ${amount(d.newFiles)} new to the site of ${amount(d.files)} ` +
    `(${pct(d.newFiles.bytes, d.files.bytes)}), bodies ${n(d.newBodies.files)} / ${mb(d.newBodies.bytes)} new ` +
    `of ${n(d.bodies.files)} / ${mb(d.bodies.bytes)}${archive}: uploads ${mb(d.upload)}, ` +
    `${pct(d.upload, d.firstUpload)} of a first deploy's ${mb(d.firstUpload)}`
  );
}

export function buildCommand(): Command {
  return new Command('build')
    .description(
      'pre-render every enumerable response into --out with Netlify rules and headers ' +
        '(or an nginx configuration, --target nginx), published atomically (incremental unless --full)',
    )
    .addOption(
      new Option(
        '--target <host>',
        'what serves the release: netlify (_redirects, _headers, the function) or nginx (an nginx.conf ' +
          'sending what has no file to the --fallback origin)',
      )
        .choices(TARGET_NAMES)
        .default('netlify'),
    )
    .option(
      '--out <dir>',
      'output: a symlink to the published release (releases live in .<name>.releases/ beside it)',
      DEFAULT_OUT,
    )
    .option('--full', 'render and write every file instead of reusing unchanged ones from the published release', false)
    .addOption(workersOption())
    .option(
      '--rule-budget <n>',
      'most rules in _redirects; literal rules beyond it are left to the fallback (Netlify advises ≤ 10,000)',
      parsePositiveInt('--rule-budget'),
      DEFAULT_RULE_BUDGET,
    )
    .addOption(
      fallbackOption(
        'where requests without a file go: a Netlify Function path or an origin URL (--target nginx: an origin, by default http://127.0.0.1:8080)',
      ),
    )
    .option(
      '--origin <url>',
      'hybrid: send the volatile requests (live matches, the days around today, the change feed) to this ' +
        'origin running `fds live`, the rest to files (env FDS_ORIGIN; needs --router rules)',
      process.env.FDS_ORIGIN || undefined,
    )
    .addOption(
      new Option(
        '--router <router>',
        'how the CDN reaches the files: rules (literal rules, spent by expected traffic) or edge ' +
          '(an edge function that reaches every file)',
      )
        .choices(ROUTERS)
        .default('rules'),
    )
    .option('--keep <n>', 'older releases kept beside the published one', parseCount('--keep'), 2)
    .addOption(purgeOption('once the build is published (the tags of the answers it changed)'))
    .action(async function (this: Command) {
      const f = this.opts<BuildFlags>();
      endWithStarter();
      const store = StoreReader.open(f.db);
      const progress = new Progress('build');
      try {
        const { out, full, ruleBudget, origin, router, keep } = f;
        // Left to the target unless given: its default is its own (Netlify's function, nginx's origin).
        const fallback = this.getOptionValueSource('fallback') === 'default' ? undefined : f.fallback;
        const target: BuildTarget<Reports> = TARGETS[f.target]();
        const summary = await build({
          ...{ store, target, out, full, ruleBudget, fallback, origin, router, keep },
          workers: f.workers,
          // A build that renders much starts again with the bounded heap; a small one runs here, tuned for it.
          onScope: (scope) => {
            if (needsBoundedHeap(scope)) throw new StartAgainBounded();
            tuneBuildProcess();
          },
          // Asked for only when shown: planning the progress costs the build a read of the published manifest.
          onPlanned: progress.enabled ? (k) => progress.plan(k) : undefined,
          onFile: (failed) => progress.tick(failed),
        });
        progress.finish();
        process.stdout.write(`${summaryLine(summary, f.out)}\n`);
        if (summary.deploy) process.stdout.write(`${deployLine(summary.deploy)}\n`);
        // The switches' account (util/switches.ts), for whoever measures or tests them.
        if (process.env[WITHOUT_ENV] !== undefined)
          process.stdout.write(`mechanisms: ${summary.engaged.join(', ') || 'none'}\n`);
        if (f.purge.length) await purgeAfterBuild(f.purge, summary.changedTags);
      } catch (err) {
        progress.finish();
        if (err instanceof StartAgainBounded) {
          process.exitCode = await runBounded();
          return;
        }
        if (err instanceof FunctionTooLarge || err instanceof EdgeError || err instanceof RuleError)
          throw new CommandFailed(err.message);
        if (!(err instanceof BuildError)) throw err;
        for (const line of err.failures) process.stderr.write(`failed: ${line}\n`);
        throw new CommandFailed(err.message);
      } finally {
        store.close();
      }
    });
}

/**
 * The published build's changed answers purged from shared caches, within BUILD_PURGE_MS. A purge
 * that fails does not fail the build, which is published: the failure goes to stderr, the exit
 * code stays 0, and the answers' shared-cache lifetimes bound how long caches keep the old ones.
 */
async function purgeAfterBuild(targets: PurgeTarget[], tags: string[]): Promise<void> {
  const report = await purgeOnce(targets, tags);
  const line = formatPurgeReport(report);
  if (purgeIncomplete(report)) process.stderr.write(`fds build: published, but the purge did not finish: ${line}\n`);
  else process.stdout.write(`${line}\n`);
}
