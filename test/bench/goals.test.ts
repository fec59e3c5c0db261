/** The goals ledger `npm run bench` ends with (bench/goals.ts). */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GOALS_FILE_ENV, goalsTable, readGoals, recordGoals, recordedGoals } from '../../bench/goals.js';
import { tempDir } from '../helpers/store.js';

const saved = process.env[GOALS_FILE_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[GOALS_FILE_ENV];
  else process.env[GOALS_FILE_ENV] = saved;
});

const goal = (figure: string, met: boolean) => ({ figure, measured: '1', goal: '≤ 2', met });

describe('bench goals', () => {
  it('gathers the goals several benchmarks record into the file the runner names, in order', () => {
    const file = path.join(tempDir('fds-goals-'), 'goals.ndjson');
    process.env[GOALS_FILE_ENV] = file;
    recordGoals(goal('build', true), goal('store', true));
    recordGoals(goal('server', false));
    expect(readGoals(file).map((g) => [g.figure, g.met])).toEqual([
      ['build', true],
      ['store', true],
      ['server', false],
    ]);
  });

  it('says how many goals were missed, and marks each missed one', () => {
    const table = goalsTable([goal('build ÷ cp', true), goal('dynamic ÷ nginx', false)]);
    expect(table.split('\n').find((l) => l.startsWith('dynamic'))).toMatch(/NOT met$/);
    expect(table.split('\n').find((l) => l.startsWith('build'))).toMatch(/ met$/);
    expect(table.split('\n').at(-1)).toBe('1 of 2 goals met');
    expect(
      goalsTable([goal('a', true)])
        .split('\n')
        .at(-1),
    ).toBe('every goal met (1)');
  });

  it('keeps what this process recorded, file or not, for a benchmark run alone to print', () => {
    delete process.env[GOALS_FILE_ENV];
    const before = recordedGoals().length;
    recordGoals(goal('alone', false));
    expect(
      recordedGoals()
        .slice(before)
        .map((g) => [g.figure, g.met]),
    ).toEqual([['alone', false]]);
  });
});
