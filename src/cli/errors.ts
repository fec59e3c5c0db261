/** An error the user can act on: printed as one line on stderr, exit code 1, no stack trace. */
export class UsageError extends Error {}

export function parsePositiveInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
    return Number(value);
  };
}
