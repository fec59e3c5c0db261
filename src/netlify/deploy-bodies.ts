/**
 * The per-match bodies of the function's slim store (function-package.ts), read from the deploy's own
 * files. The slim store keeps every row the render core reads — a summary's hash and time, a stream's
 * counts — but not the compressed bodies (a summary's sections, a match's play streams): those are one
 * file per match in the release (`_b/…`, match-body.ts), named by the hashes of the rows they come
 * from, so the function works out a body's name from its slim store and a file of that name holds
 * exactly those bodies, in whichever deploy has it.
 *
 * The render core is synchronous and reads the store as it goes; a blob is fetched. So a request is
 * rendered once with the bodies this instance holds: a body it lacks is noted and stands in as an
 * empty one; if any was noted, it is fetched, checked against the slim store's row (its hash), and the
 * request is rendered again. The first answer is dropped, so what the client gets is the render
 * core's answer over the same rows and bodies the full store holds — byte for byte. Only a summary
 * or plays request of a match with a stored body ever waits for a blob; blobs are kept (a byte
 * budget) for the next request of the same match.
 */
import type { StoreReader } from '../store/read/reader.js';
import type { SummaryRow } from '../store/read/types.js';
import { summaryRow } from '../store/read/matches.js';
import { streamPage } from '../store/read/plays.js';
import { streamSize, unpackBytes } from '../store/blob.js';
import { getMeta } from '../store/db.js';
import { ByteLru } from '../util/byte-lru.js';
import type { MatchBody } from './match-body.js';
import { BadMatchBody, bodyFile, bodyTag, decodeMatchBody, matchBodyKey } from './match-body.js';

/** store_meta in the slim store: where its per-match bodies are. */
export const META_BODIES = 'function_bodies';
export const BODIES_IN_DEPLOY_FILES = 'deploy-files';

/** Where body files come from: the deploy's files over HTTP (function.ts), or a test's stand-in. */
export interface BlobSource {
  /** The file at this path of the release (`_b/…`), or null when there is none. */
  get(file: string): Promise<Buffer | null>;
}

/** Blobs held between requests: a match's summary and plays pages are often asked for together. */
export const HELD_BODY_BYTES = 64 * 1024 * 1024;

const EMPTY = Buffer.alloc(0);
const EMPTY_OBJECT = Buffer.from('{}');

export class BodyUnavailable extends Error {}

interface SummaryMeta {
  hash: string;
  last_synced_at: string;
}

interface StreamMeta {
  hash: string;
  count: number;
  important: number;
}

/**
 * Bodies for one slim store's reader: `attach` hooks its two body reads (a summary, a page of plays);
 * null when the store holds its bodies itself (a full store: nothing to do).
 */
export class DeployBodies {
  private readonly held = new ByteLru(HELD_BODY_BYTES);
  /**
   * Bodies fetched for the render running now (`renderWith`): its second render reads them whatever
   * the budget held. Set only while that render runs, synchronously, so requests answered
   * concurrently never see each other's.
   */
  private fetched: ReadonlyMap<string, MatchBody> = new Map();
  private readonly wanted = new Map<string, { league: string; match: string }>();
  private decodedLast: { key: string; important: boolean; bytes: Buffer } | null = null;
  private readonly summaryMeta;
  private readonly streamMeta;

  private constructor(reader: StoreReader) {
    const db = reader.db;
    this.summaryMeta = db.prepare(
      'SELECT hash, last_synced_at FROM match_summaries WHERE league_slug = ? AND match_id = ?',
    );
    this.streamMeta = db.prepare(
      'SELECT hash, count, important FROM play_streams WHERE league_slug = ? AND match_id = ?',
    );
    reader.matches.summary = (league, id) => this.summary(league, id);
    reader.plays.page = (league, match, important, limit, offset) => this.page(league, match, important, limit, offset);
  }

  static attach(reader: StoreReader): DeployBodies | null {
    if (getMeta(reader.db, META_BODIES) !== BODIES_IN_DEPLOY_FILES) return null;
    return new DeployBodies(reader);
  }

  /** The matches whose bodies the last render lacked, forgotten as they are handed over. */
  takeWanted(): Array<{ league: string; match: string }> {
    const out = [...this.wanted.values()];
    this.wanted.clear();
    return out;
  }

  /**
   * Fetch the bodies of these matches for a render (`renderWith`), each from the file its slim store
   * rows name and checked against them (`source`: the deploy's files). Throws BodyUnavailable when
   * one is missing or of another state of the store.
   */
  async load(
    matches: ReadonlyArray<{ league: string; match: string }>,
    source: BlobSource,
  ): Promise<ReadonlyMap<string, MatchBody>> {
    const fetched = new Map<string, MatchBody>();
    for (const { league, match } of matches) {
      const key = matchBodyKey(league, match);
      const s = this.summaryMeta.get(league, match) as SummaryMeta | undefined;
      const p = this.streamMeta.get(league, match) as StreamMeta | undefined;
      const file = bodyFile(league, match, bodyTag(s?.hash ?? null, p?.hash ?? null));
      let blob: Buffer | null;
      try {
        blob = await source.get(file);
      } catch (err) {
        throw new BodyUnavailable(`${file}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!blob) throw new BodyUnavailable(`${file}: not in the deploy's files`);
      let body: MatchBody;
      try {
        body = decodeMatchBody(blob);
      } catch (err) {
        if (err instanceof BadMatchBody) throw new BodyUnavailable(`${file}: ${err.message}`);
        throw err;
      }
      if ((s && body.summary?.hash !== s.hash) || (p && body.plays?.hash !== p.hash)) {
        throw new BodyUnavailable(`${file}: of another state of the store than the function's`);
      }
      fetched.set(key, body);
      this.held.set(key, blob);
    }
    return fetched;
  }

  /** Run a (synchronous) render with these bodies at hand; a body it still lacks makes it BodyUnavailable. */
  renderWith<T>(fetched: ReadonlyMap<string, MatchBody>, render: () => T): T {
    this.fetched = fetched;
    try {
      const out = render();
      if (this.wanted.size) throw new BodyUnavailable('a render asked for a body it was not given');
      return out;
    } finally {
      this.fetched = new Map();
      this.wanted.clear();
    }
  }

  /** A match's bodies, if this instance has them; else noted as wanted. */
  private body(league: string, match: string): MatchBody | null {
    const key = matchBodyKey(league, match);
    const fetched = this.fetched.get(key);
    if (fetched) return fetched;
    const held = this.held.entry(key)?.value;
    if (held) return decodeMatchBody(held);
    this.wanted.set(key, { league, match });
    return null;
  }

  /** As MatchQueries.summary reads a full store's row. */
  private summary(league: string, id: string): SummaryRow | undefined {
    const row = this.summaryMeta.get(league, id) as SummaryMeta | undefined;
    if (!row) return undefined;
    const body = this.body(league, id);
    // A stand-in for the first render, which is dropped.
    if (!body) return { json: EMPTY_OBJECT, spans: new Map(), lastSyncedAt: row.last_synced_at };
    const s = body.summary!;
    return summaryRow(s.sections!, s.sectionSpans, row.last_synced_at);
  }

  /** As PlayQueries.page reads a full store's stream. */
  private page(
    league: string,
    match: string,
    important: boolean,
    limit: number,
    offset: number,
  ): { count: number; plays: Buffer } {
    const row = this.streamMeta.get(league, match) as StreamMeta | undefined;
    if (!row) return { count: 0, plays: EMPTY };
    const body = this.body(league, match);
    if (!body) return { count: 0, plays: EMPTY };
    const p = body.plays!;
    const packed = important ? p.importantPlays : p.plays;
    const ends = important ? p.importantEnds : p.ends;
    if (!packed || !ends) return { count: 0, plays: EMPTY };
    const count = important ? row.important : row.count;
    const decode = () => this.decoded(matchBodyKey(league, match), important, packed, ends);
    return streamPage(count, ends, limit, offset, decode);
  }

  /** A stream inflated for one page, kept for the next page of the same stream. */
  private decoded(key: string, important: boolean, packed: Buffer, ends: Buffer): Buffer {
    const last = this.decodedLast;
    if (last && last.key === key && last.important === important) return last.bytes;
    const bytes = unpackBytes(packed, streamSize(ends));
    this.decodedLast = { key, important, bytes };
    return bytes;
  }
}
