/**
 * Which plays are important: flagged when stored (goals, cards, substitutions, penalties, own goals)
 * or listed among the summary's key events. One definition for the pages that list them and for the
 * count the store keeps beside each stream (the build counts every match's without reading its plays).
 */

type Flag = [id: string, flagged: number];

/** The stream's `[[id, flagged], …]`, and whether one of them is important given the summary's key events. */
function importance(flagsJson: string, keyEventIds: string | null) {
  const keyEvents = new Set(JSON.parse(keyEventIds ?? '[]') as string[]);
  const flags = JSON.parse(flagsJson) as Flag[];
  return { flags, important: ([id, flagged]: Flag) => flagged === 1 || keyEvents.has(id) };
}

/** Positions of the important plays, in match order. */
export function importantPlays(flagsJson: string, keyEventIds: string | null): number[] {
  const { flags, important } = importance(flagsJson, keyEventIds);
  return flags.flatMap((f, i) => (important(f) ? [i] : []));
}

/** How many plays `importantPlays` gives, without listing them. */
export function importantCount(flagsJson: string, keyEventIds: string | null): number {
  const { flags, important } = importance(flagsJson, keyEventIds);
  let n = 0;
  for (const f of flags) if (important(f)) n++;
  return n;
}
