/**
 * Play-by-play. A match's stream is stored as one compressed JSON array (store/blob.ts) with where
 * each play ends beside it; its important plays (goals, cards, substitutions, penalties, own goals,
 * and the summary's key events: important.ts) as a second, smaller stream of the same kind. A page
 * is one slice of either array's text, so play records are passed through without being parsed.
 */
import type { DB } from '../db.js';
import { spanAt, streamSize, unpackBytes } from '../blob.js';

interface Stream {
  /** The stored, compressed array: a row that holds other bytes is another stream. */
  packed: Buffer;
  /** The array as UTF-8 bytes. */
  bytes: Buffer;
  /** Where each play ends in `bytes` (store/blob.ts packEnds). */
  ends: Buffer;
  count: number;
}

interface Row {
  packed: Buffer | null;
  ends: Buffer | null;
  count: number;
}

/**
 * Pages of one match are read back to back (a build renders them in a row): keep its two streams
 * decoded. No more: a kept stream outlives the young generation, and once dropped its bytes wait for a
 * full collection. With eight kept, a scale-4 build's peak RSS was 15–25 MiB higher, for 11 fewer
 * inflations of 6,133 (scale 1).
 */
const KEPT = 2;

const EMPTY = Buffer.alloc(0);

export class PlayQueries {
  private readonly s;
  private readonly decoded = new Map<string, Stream>();

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

  private stream(league: string, match: string, important: boolean): Stream | null {
    const row = (important ? this.s.important : this.s.all).get(league, match) as Row | undefined;
    if (!row?.packed || !row.ends) return null;
    const key = `${league}\0${match}\0${important ? 'i' : 'a'}`;
    const hit = this.decoded.get(key);
    // The stored bytes name exactly what is decoded: a changed store misses.
    if (hit?.packed.equals(row.packed)) return hit;
    const stream = {
      packed: row.packed,
      bytes: unpackBytes(row.packed, streamSize(row.ends)),
      ends: row.ends,
      count: row.count,
    };
    this.decoded.delete(key);
    if (this.decoded.size >= KEPT) this.decoded.delete(this.decoded.keys().next().value!);
    this.decoded.set(key, stream);
    return stream;
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
    const s = this.stream(league, match, important);
    if (!s) return { count: 0, plays: EMPTY };
    const last = Math.min(s.count, offset + limit) - 1;
    if (offset > last) return { count: s.count, plays: EMPTY };
    return { count: s.count, plays: s.bytes.subarray(spanAt(s.ends, offset)![0], spanAt(s.ends, last)![1]) };
  }

  exists(league: string, match: string): boolean {
    return this.s.any.get(league, match) === 1;
  }
}
