import { DEFAULT_OUT } from '../../release/layout.js';
import { Command } from 'commander';
import { check } from '../../check/check.js';
import type { CheckReport } from '../../check/check.js';
import { Progress } from '../progress.js';
import { CommandFailed, parsePositiveInt } from '../errors.js';
import { thousands } from '../../util/thousands.js';

interface CheckFlags {
  db: string;
  dir: string;
  sample: number;
  seed: number;
}

const n = thousands;

function reachLine({ reach, edge }: CheckReport): string {
  return (
    `CDN reaches ${n(reach.reached)} of ${n(reach.requests)} pre-rendered requests ` +
    `(hot set: ${n(reach.hotReached)} of ${n(reach.hot)})${edge ? ' through the edge router' : ''}`
  );
}

export function checkCommand(): Command {
  return new Command('check')
    .description(
      'verify the published build: every file equals its dynamic render, and sampled requests resolved ' +
        "through Netlify's matcher and the static-first server get the dynamic answer",
    )
    .option('--dir <dir>', 'the published build', DEFAULT_OUT)
    .option(
      '--sample <n>',
      'generated requests to resolve through the rules and the static lookup',
      parsePositiveInt('--sample'),
      1000,
    )
    .option('--seed <n>', 'seed of the generated requests', parsePositiveInt('--seed'), 1)
    .action(async function (this: Command) {
      const f = this.opts<CheckFlags>();
      const progress = new Progress('check');
      const report = await check({
        dir: f.dir,
        db: f.db,
        sample: f.sample,
        seed: f.seed,
        onPlanned: (k) => progress.plan(k),
        onItem: (failed) => progress.tick(failed),
      }).finally(() => progress.finish());
      const mismatches = report.fileMismatches + report.sampleMismatches;
      const line =
        `check: ${n(report.files)} files against their dynamic render ` +
        `(${report.fileMismatches} differ); ` +
        `${report.sampled} sampled requests (${report.cdnFiles} answered from files by the CDN, ` +
        `${report.localFiles} by the server's ` +
        `static lookup; ${report.sampleMismatches} wrong); ${reachLine(report)} in ${report.seconds.toFixed(1)}s`;
      if (!mismatches) {
        process.stdout.write(`${line}\n`);
        return;
      }
      for (const reason of report.reasons) process.stderr.write(`mismatch: ${reason}\n`);
      if (mismatches > report.reasons.length)
        process.stderr.write(`mismatch: … and ${mismatches - report.reasons.length} more\n`);
      throw new CommandFailed(line);
    });
}
