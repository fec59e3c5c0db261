/**
 * One match's per-match bodies — its summary's sections and its play streams, as the store holds
 * them (compressed, with where each section and play lies) — packed into one file of the release
 * (`bodyFile`; function-package.ts writes them, deploy-bodies.ts reads them). The Netlify
 * Function ships a store without them (the slim store), so its archive stays within Netlify's
 * limits however many seasons the store holds; the blob is what the function reads for the one
 * match a request asks about, the same bytes the full store would have given it.
 *
 * Layout: a 4-byte little-endian length, that many bytes of JSON header, then the parts the header
 * lists, in its order. A part is a byte length or -1 for a NULL column. Each half carries the hash
 * of the row it was taken from, so the function can tell a blob of another state of the store.
 */
import { createHash } from 'node:crypto';
import { BODIES_DIR } from './function-store.js';

/** The summary row's bodies (match_summaries). */
export interface SummaryBody {
  hash: string;
  sections: Buffer | null;
  sectionSpans: string | null;
}

/** The play stream row's bodies (play_streams). */
export interface PlaysBody {
  hash: string;
  plays: Buffer | null;
  ends: Buffer | null;
  importantPlays: Buffer | null;
  importantEnds: Buffer | null;
}

export interface MatchBody {
  summary: SummaryBody | null;
  plays: PlaysBody | null;
}

interface Header {
  v: 1;
  summary: { hash: string; spans: string | null; sections: number } | null;
  plays: { hash: string; parts: [number, number, number, number] } | null;
}

const len = (b: Buffer | null) => (b ? b.length : -1);

export function encodeMatchBody(body: MatchBody): Buffer {
  const { summary: s, plays: p } = body;
  const header: Header = {
    v: 1,
    summary: s && { hash: s.hash, spans: s.sectionSpans, sections: len(s.sections) },
    plays: p && {
      hash: p.hash,
      parts: [len(p.plays), len(p.ends), len(p.importantPlays), len(p.importantEnds)],
    },
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length, 0);
  const parts: Buffer[] = [size, json];
  if (s?.sections) parts.push(s.sections);
  if (p) for (const b of [p.plays, p.ends, p.importantPlays, p.importantEnds]) if (b) parts.push(b);
  return Buffer.concat(parts);
}

export class BadMatchBody extends Error {}

/** The blob's parts, as views of its bytes (no copy). Throws BadMatchBody on anything malformed. */
export function decodeMatchBody(blob: Buffer): MatchBody {
  if (blob.length < 4) throw new BadMatchBody('match body: truncated');
  const headerEnd = 4 + blob.readUInt32LE(0);
  if (headerEnd > blob.length) throw new BadMatchBody('match body: truncated header');
  let header: Header;
  try {
    header = JSON.parse(blob.toString('utf8', 4, headerEnd)) as Header;
  } catch {
    throw new BadMatchBody('match body: unreadable header');
  }
  if (header?.v !== 1) throw new BadMatchBody('match body: unknown version');
  let at = headerEnd;
  const take = (n: number): Buffer | null => {
    if (n < 0) return null;
    if (at + n > blob.length) throw new BadMatchBody('match body: truncated part');
    const part = blob.subarray(at, at + n);
    at += n;
    return part;
  };
  const s = header.summary;
  const summary = s ? { hash: s.hash, sectionSpans: s.spans, sections: take(s.sections) } : null;
  const p = header.plays;
  const plays = p
    ? {
        hash: p.hash,
        plays: take(p.parts[0]),
        ends: take(p.parts[1]),
        importantPlays: take(p.parts[2]),
        importantEnds: take(p.parts[3]),
      }
    : null;
  if (at !== blob.length) throw new BadMatchBody('match body: trailing bytes');
  return { summary, plays };
}

/** The key a match's bodies are held under in the function: `<league>/<match id>`. */
export const matchBodyKey = (league: string, matchId: string): string => `${league}/${matchId}`;

/**
 * What names one state of a match's bodies: a digest of the hashes of the rows they come from (a
 * summary's, a play stream's; '' for a row the match lacks). The function works it out from its slim
 * store's rows, the build from the full store's, so both name the same file.
 */
export function bodyTag(summaryHash: string | null, playsHash: string | null): string {
  return createHash('sha1')
    .update(`${summaryHash ?? ''}\0${playsHash ?? ''}`)
    .digest('hex')
    .slice(0, 16);
}

/**
 * A match's body file in a release, relative to it and as a URL path: content-addressed by its tag,
 * so a file of that name holds those bodies in whichever deploy serves it.
 */
export const bodyFile = (league: string, matchId: string, tag: string): string =>
  `${BODIES_DIR}/${league}/${matchId}-${tag}.bin`;
