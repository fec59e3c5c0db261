/**
 * Which plays are important: flagged when stored (goals, cards, substitutions, penalties, own goals)
 * or listed among the summary's key events. One definition for the important plays the store keeps
 * beside each stream, as a stream of their own, and for their count (the build counts every match's
 * without reading its plays).
 */

import { packJson, spanAt, streamOf, streamSize, unpackBytes, unpackJson } from './blob.js';

type Flag = [id: string, flagged: number];

/** What starts packed flags (`packFlags`); stored flags that start with `[` are the JSON itself. */
const PACKED_FLAGS = '~';

/**
 * A stream's flags as stored: `[[id, flagged], …]` packed (blob.ts) as base64 text. As JSON they
 * took ~24 bytes a play, a ninth of a real-weight store; packed, about a twentieth of that. A store
 * before schema 12 holds the JSON, which reads as well.
 */
export function packFlags(flagsJson: string): string {
  return PACKED_FLAGS + packJson(flagsJson).toString('base64');
}

/** The `[[id, flagged], …]` JSON of stored flags, packed or not. */
export function flagsJsonOf(stored: string): string {
  return stored.startsWith(PACKED_FLAGS) ? unpackJson(Buffer.from(stored.slice(1), 'base64')) : stored;
}

/**
 * The stream's `[[id, flagged], …]` (as JSON or as stored), and whether one of them is important
 * given the summary's key events.
 */
function importance(flagsJson: string, keyEventIds: string | null) {
  const keyEvents = new Set(JSON.parse(keyEventIds ?? '[]') as string[]);
  const flags = JSON.parse(flagsJsonOf(flagsJson)) as Flag[];
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

/**
 * A stream's important plays as a stream of their own, stored beside it: their records as the
 * stream holds them, in match order, one JSON array (packed), and where each ends (packEnds). An
 * important page is then one slice of it, and reading it inflates only the important plays.
 * `bytes` is the stream's JSON array, `ends` where each of its plays ends.
 */
export function importantStream(
  bytes: Buffer,
  ends: Buffer,
  flagsJson: string,
  keyEventIds: string | null,
): { count: number; plays: Buffer; ends: Buffer } {
  const records = importantPlays(flagsJson, keyEventIds).map((i) => {
    const [start, end] = spanAt(ends, i)!;
    return bytes.subarray(start, end);
  });
  const stream = streamOf(records);
  return { count: records.length, plays: packJson(stream.bytes), ends: stream.ends };
}

/** A stored stream's columns, as the writer and the migration to schema 10 read them. */
export interface StoredStream {
  flags: string | null;
  ends: Buffer | null;
  plays: Buffer | null;
}

/** `importantStream` of a stored stream (inflated first); null for a row without its stream. */
export function importantOfStored(
  row: StoredStream,
  keyEventIds: string | null,
): ReturnType<typeof importantStream> | null {
  if (!row.flags || !row.ends || !row.plays) return null;
  return importantStream(unpackBytes(row.plays, streamSize(row.ends)), row.ends, row.flags, keyEventIds);
}
