/** Medians, as every benchmark here reports them: of an even count, the lower middle one. */

/** The item with the median of a figure. */
export function medianBy<T>(items: readonly T[], figure: (x: T) => number): T {
  const sorted = [...items].sort((a, b) => figure(a) - figure(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export const median = (xs: readonly number[]): number => medianBy(xs, (x) => x);
