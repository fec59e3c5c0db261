/**
 * The goals the benchmarks are held to (issue 9's table, docs/performance.md), each with the figure
 * this run measured and whether it met it. Each benchmark records its own; `npm run bench` (run.ts)
 * gathers them through a file it names in the environment and prints them together at the end. A
 * benchmark run alone records nothing to a file; it may print what it recorded (`recordedGoals`).
 */
import fs from 'node:fs';
import { textTable } from './table.js';

export interface Goal {
  figure: string;
  /** What this run measured, as printed. */
  measured: string;
  goal: string;
  met: boolean;
}

/** The environment variable run.ts names its goals file in. */
export const GOALS_FILE_ENV = 'FDS_BENCH_GOALS';

/** Every goal this process recorded, in order. */
const recorded: Goal[] = [];

export function recordGoals(...goals: Goal[]): void {
  recorded.push(...goals);
  const file = process.env[GOALS_FILE_ENV];
  if (!file) return;
  fs.appendFileSync(file, goals.map((g) => `${JSON.stringify(g)}\n`).join(''));
}

/** The goals this process recorded, for a benchmark to print its own met / NOT met. */
export function recordedGoals(): readonly Goal[] {
  return recorded;
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
  const met = goals.filter((g) => g.met).length;
  const verdict = met === goals.length ? `every goal met (${met})` : `${met} of ${goals.length} goals met`;
  return `${textTable(['figure', 'this run', 'goal', ''], rows, 4)}\n${verdict}`;
}
