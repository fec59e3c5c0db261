/**
 * Play-by-play. A match's stream is stored as one compressed JSON array (store/blob.ts) with each
 * play's id and flag beside it; pages are slices of that array's text, so play records are passed
 * through without being parsed. The important filter is the stored flag (goals, cards,
 * substitutions, penalties, own goals) or membership in the summary's key events.
 */
import type { DB } from '../db.js';
import { spanAt, streamSize, unpackBytes } from '../blob.js';
import { importantPlays } from '../important.js';

interface Stream {
  /** The stream's JSON array as UTF-8 bytes. */
  bytes: Buffer;
  /** Where each play ends in `bytes` (store/blob.ts packEnds). */
  ends: Buffer;
  count: number;
  flags: string;
  keyEvents: string | null;
  /** Positions of the important plays, in match order (worked out when first asked for). */
  important: number[] | null;
}

interface RawStream {
  plays: Buffer;
  ends: Buffer;
  count: number;
  flags: string;
  hash: string;
  key_event_ids: string | null;
}

/** Pages of one match are read back to back (a build renders them in a row): keep a few decoded. */
const KEPT = 8;

export class PlayQueries {
  private readonly s;
  private readonly decoded = new Map<string, Stream>();

  constructor(db: DB) {
    this.s = {
      stream: db.prepare(`SELECT p.plays, p.ends, p.count, p.flags, p.hash, s.key_event_ids FROM play_streams p
        LEFT JOIN match_summaries s ON s.league_slug = p.league_slug AND s.match_id = p.match_id
        WHERE p.league_slug = ? AND p.match_id = ?`),
      any: db.prepare('SELECT EXISTS (SELECT 1 FROM play_streams WHERE league_slug = ? AND match_id = ?)').pluck(),
      // Counting needs neither the stream nor its decoding: a build counts every match's plays,
      // from an index that holds the counts (the store keeps the important count, important.ts).
      leagueCounts: db.prepare(
        'SELECT match_id AS id, count AS plays, important FROM play_streams INDEXED BY play_counts WHERE league_slug = ?',
      ),
    };
  }

  private stream(league: string, match: string): Stream | null {
    const row = this.s.stream.get(league, match) as RawStream | undefined;
    if (!row) return null;
    // The stream's hash and its key events name exactly what is decoded: a changed store misses.
    const key = `${league}\0${match}\0${row.hash}\0${row.key_event_ids ?? ''}`;
    const hit = this.decoded.get(key);
    if (hit) return hit;
    const bytes = unpackBytes(row.plays, streamSize(row.ends));
    const stream: Stream = {
      bytes,
      ends: row.ends,
      count: row.count,
      flags: row.flags,
      keyEvents: row.key_event_ids,
      important: null,
    };
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
   * from one read of the stream. The plays come as their stored JSON (UTF-8 bytes), in match order,
   * a run of neighbours in the stream as one slice: the stream separates its plays by a single comma
   * (`packEnds`), so a run's bytes are its plays joined as a JSON array joins them. `runs` are to be
   * joined by commas in turn; a page of all plays is one slice, not one per play.
   */
  page(
    league: string,
    match: string,
    important: boolean,
    limit: number,
    offset: number,
  ): { count: number; runs: Buffer[] } {
    const s = this.stream(league, match);
    if (!s) return { count: 0, runs: [] };
    // Plays first to last, between two positions of the stream.
    const slice = (first: number, last: number) =>
      s.bytes.subarray(spanAt(s.ends, first)![0], spanAt(s.ends, last)![1]);
    if (!important) {
      const last = Math.min(s.count, offset + limit) - 1;
      return { count: s.count, runs: offset <= last ? [slice(offset, last)] : [] };
    }
    s.important ??= importantPlays(s.flags, s.keyEvents);
    const at = s.important.slice(offset, offset + limit);
    const runs: Buffer[] = [];
    for (let k = 0; k < at.length; ) {
      let last = k;
      while (last + 1 < at.length && at[last + 1] === at[last]! + 1) last++;
      runs.push(slice(at[k]!, at[last]!));
      k = last + 1;
    }
    return { count: s.important.length, runs };
  }

  exists(league: string, match: string): boolean {
    return this.s.any.get(league, match) === 1;
  }
}
