/**
 * Play-by-play. A match's stream is stored as one compressed JSON array (store/blob.ts) with where
 * each play ends beside it; its important plays (goals, cards, substitutions, penalties, own goals,
 * and the summary's key events: important.ts) as a second, smaller stream of the same kind. A page
 * is one slice of either array's text, so play records are passed through without being parsed.
 */
import type { DB } from '../db.js';
import { spanAt, streamSize, unpackBytes } from '../blob.js';

interface Row {
  packed: Buffer | null;
  ends: Buffer | null;
  count: number;
}

const EMPTY = Buffer.alloc(0);

/** A stream decoded for one page, kept for the next page of it (`PlayQueries.decoded`): its stored bytes and what they decode to. */
interface Decoded {
  packed: Buffer;
  bytes: Buffer;
}

/**
 * A page of a stream of `count` plays whose ends are `ends`, as one slice of its inflated bytes
 * (`decode`, asked only when the page has plays), and the count: what the function's deploy bodies
 * (netlify/deploy-bodies.ts) read the same way.
 */
export function streamPage(
  count: number,
  ends: Buffer,
  limit: number,
  offset: number,
  decode: () => Buffer,
): { count: number; plays: Buffer } {
  const last = Math.min(count, offset + limit) - 1;
  if (offset > last) return { count, plays: EMPTY };
  return { count, plays: decode().subarray(spanAt(ends, offset)![0], spanAt(ends, last)![1]) };
}

/**
 * A build reads each stream for two pages in a row (a match's first page and its first
 * `limit=300`), so the stream decoded for one page is kept for the next read, and no longer:
 * whether that read takes it or decodes another stream, it is let go. Kept any longer, decoded
 * streams outlive the young generation, and once dropped their bytes wait in the render worker's
 * malloc arena for a full collection, which raises a full build's peak RSS (docs/performance.md).
 */
export class PlayQueries {
  private readonly s;
  private decodedLast: Decoded | null = null;

  constructor(db: DB) {
    this.s = {
      all: db.prepare('SELECT plays AS packed, ends, count FROM play_streams WHERE league_slug = ? AND match_id = ?'),
      important: db.prepare(`SELECT important_plays AS packed, important_ends AS ends, important AS count
        FROM play_streams WHERE league_slug = ? AND match_id = ?`),
      any: db.prepare('SELECT EXISTS (SELECT 1 FROM play_streams WHERE league_slug = ? AND match_id = ?)').pluck(),
      // Counting needs neither the stream nor its decoding: a build counts every match's plays,
      // from an index that holds the counts (the store keeps the important count, important.ts).
      leagueCounts: db.prepare(
        'SELECT match_id AS id, count AS plays, important FROM play_streams INDEXED BY play_counts WHERE league_slug = ?',
      ),
    };
  }

  /** How many plays (and important ones) every match of a league with a stream has, in one query. */
  leagueCounts(league: string): Map<string, { plays: number; important: number }> {
    const rows = this.s.leagueCounts.all(league) as Array<{ id: string; plays: number; important: number }>;
    return new Map(rows.map((r) => [r.id, { plays: r.plays, important: r.important }]));
  }

  /**
   * One page of a match's plays (all, or the important ones), and how many there are over all pages,
   * from one read of the stream. The page's plays come as one slice of the stored stream's JSON
   * (UTF-8 bytes), in match order: the stream separates its plays by a single comma (`packEnds`),
   * so a slice is its plays joined as a JSON array joins them. Empty past the last play.
   */
  page(
    league: string,
    match: string,
    important: boolean,
    limit: number,
    offset: number,
  ): { count: number; plays: Buffer } {
    const row = (important ? this.s.important : this.s.all).get(league, match) as Row | undefined;
    if (!row?.packed || !row.ends) return { count: 0, plays: EMPTY };
    const { packed, ends } = row;
    return streamPage(row.count, ends, limit, offset, () => this.decoded(packed, ends));
  }

  /**
   * A stream's bytes: the ones kept from the last read when its stored bytes are the same — compared
   * byte for byte, which also tells one match's stream from another's, and a sync committed in between
   * (the server reads outside one transaction) from the stream it replaced — else decoded now and kept
   * for the next read.
   */
  private decoded(packed: Buffer, ends: Buffer): Buffer {
    const last = this.decodedLast;
    this.decodedLast = null;
    if (last?.packed.equals(packed)) return last.bytes;
    const bytes = unpackBytes(packed, streamSize(ends));
    this.decodedLast = { packed, bytes };
    return bytes;
  }

  exists(league: string, match: string): boolean {
    return this.s.any.get(league, match) === 1;
  }
}
