/**
 * Which plays are important: flagged when stored (goals, cards, substitutions, penalties, own goals)
 * or listed among the summary's key events. One definition for the pages that list them and for the
 * count the store keeps beside each stream (the build counts every match's without reading its plays).
 */

/** Positions of the important plays, in match order. `flagsJson`: the stream's `[[id, flagged], …]`. */
export function importantPlays(flagsJson: string, keyEventIds: string | null): number[] {
  const keyEvents = new Set(JSON.parse(keyEventIds ?? '[]') as string[]);
  const flags = JSON.parse(flagsJson) as Array<[string, number]>;
  return flags.flatMap(([id, flagged], i) => (flagged === 1 || keyEvents.has(id) ? [i] : []));
}

/** How many plays `importantPlays` gives, without listing them. */
export function importantCount(flagsJson: string, keyEventIds: string | null): number {
  const keyEvents = keyEventIds === null ? null : new Set(JSON.parse(keyEventIds) as string[]);
  const flags = JSON.parse(flagsJson) as Array<[string, number]>;
  let n = 0;
  for (const [id, flagged] of flags) if (flagged === 1 || keyEvents?.has(id)) n++;
  return n;
}
