/**
 * The two ways a command fails, each printed as one line on stderr without a stack trace:
 * the command line was wrong (exit 2, like commander's own usage errors), or the work was done
 * and failed — a build that could not render, a check that found mismatches (exit 1).
 */
export class UsageError extends Error {
  readonly exitCode = 2;
}

export class CommandFailed extends Error {
  readonly exitCode = 1;
}

export function parsePositiveInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
    return Number(value);
  };
}

export function parseCount(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value))
      throw new UsageError(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
    return Number(value);
  };
}
