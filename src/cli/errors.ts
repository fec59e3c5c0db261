import { parseInstant } from '../util/time.js';
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

/** A commander parser for an ISO-8601 instant with an explicit zone (`--now`, `--start`). */
export function parseInstantOption(name: string) {
  return (value: string): Date => {
    const instant = parseInstant(value);
    if (!instant) {
      const example = 'such as 2026-03-21T15:30:00Z';
      throw new UsageError(`${name} must be an ISO-8601 instant with a zone, ${example}, got ${JSON.stringify(value)}`);
    }
    return instant;
  };
}
