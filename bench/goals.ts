/**
 * The goals the benchmarks are held to (issue 9's table, CONTRACT §8), each with the figure this run
 * measured and whether it met it. Each benchmark records its own; `npm run bench` (run.ts) gathers
 * them through a file it names in the environment and prints them together at the end. A benchmark
 * run alone prints its own figures and records nothing.
 */
import fs from 'node:fs';

export interface Goal {
  figure: string;
  /** What this run measured, as printed. */
  measured: string;
  goal: string;
  met: boolean;
}

/** The environment variable run.ts names its goals file in. */
export const GOALS_FILE_ENV = 'FDS_BENCH_GOALS';

export function recordGoals(...goals: Goal[]): void {
  const file = process.env[GOALS_FILE_ENV];
  if (!file) return;
  fs.appendFileSync(file, goals.map((g) => `${JSON.stringify(g)}\n`).join(''));
}

export function readGoals(file: string): Goal[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Goal);
}

export function goalsTable(goals: readonly Goal[]): string {
  const rows = goals.map((g) => [g.figure, g.measured, g.goal, g.met ? 'met' : 'NOT met']);
  const head = ['figure', 'this run', 'goal', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const met = goals.filter((g) => g.met).length;
  const verdict = met === goals.length ? `every goal met (${met})` : `${met} of ${goals.length} goals met`;
  return [line(head), ...rows.map(line), verdict].join('\n');
}
