/**
 * Match records → scoreboard/fixture events and their single competition. The store keeps each
 * match's event as JSON text (`eventText`, written with the record), so lists splice it in rather
 * than build and serialize it per response; only each club's `catalogSource`, which follows the
 * league's catalogue rather than the match, is left as a hole that `fillEvent` fills.
 */
import type { CompetitorRecord, MatchRecord, MatchStatusRecord, StatRecord } from '../records.js';
import type { CatalogSource, SourceOf } from './club.js';
import { embeddedClub, sourceIn, venueBody } from './club.js';

export function statusBody(s: MatchStatusRecord) {
  const t = s.type;
  return {
    clock: s.clock,
    displayClock: s.displayClock,
    period: s.period,
    type: {
      id: t.id ?? null,
      name: t.name,
      state: t.state,
      completed: t.completed,
      description: t.description,
      detail: t.detail,
      shortDetail: t.shortDetail,
    },
  };
}

export const statBody = (s: StatRecord) => ({
  name: s.name,
  abbreviation: s.abbreviation,
  displayValue: s.displayValue,
  value: s.value,
});

function competitorBody<S>(c: CompetitorRecord, sourceOf: SourceOf<S>) {
  const out: Record<string, unknown> = {
    id: c.id,
    uid: c.uid,
    type: 'team',
    homeAway: c.homeAway,
    score: c.score,
    winner: c.winner,
    form: c.form,
    team: embeddedClub(c.team, sourceOf),
    statistics: c.statistics.map(statBody),
  };
  if (c.shootoutScore !== undefined) out.shootoutScore = c.shootoutScore;
  if (c.aggregateScore !== undefined) out.aggregateScore = c.aggregateScore;
  if (c.advance !== undefined) out.advance = c.advance;
  return out;
}

export function competitionBody<S>(m: MatchRecord, sourceOf: SourceOf<S>) {
  return {
    id: m.competitionId,
    uid: m.competitionUid,
    date: m.date,
    startDate: m.date,
    status: statusBody(m.status),
    attendance: m.attendance,
    venue: venueBody(m.venue),
    competitors: m.competitors.map((c) => competitorBody(c, sourceOf)),
    details: m.details,
    broadcasts: m.broadcasts,
    odds: m.odds,
    notes: m.notes,
    format: m.format ?? null,
    playByPlayAvailable: m.playByPlayAvailable,
    wasSuspended: m.wasSuspended,
  };
}

export function eventBody<S>(m: MatchRecord, sourceOf: SourceOf<S>) {
  return {
    id: m.id,
    uid: m.uid,
    date: m.date,
    name: m.name,
    shortName: m.shortName,
    season: m.season ? { year: m.season.year, type: m.season.type, slug: m.season.slug } : null,
    status: statusBody(m.status),
    venue: m.venue ? { displayName: m.venue.fullName } : null,
    competitions: [competitionBody(m, sourceOf)],
  };
}

/**
 * A stored event: its JSON as UTF-8 bytes without the catalogSource values, and where each goes
 * (`[[byteOffset, clubId], ...]`, in order).
 */
export interface EventText {
  json: Buffer;
  holes: string;
}

/** Marks a hole while serializing; random, so no provider text can look like one. */
const HOLE = `\u0000fds-hole-${Math.random().toString(36).slice(2)}-`;

/** The event as the API lists it, with a hole for each club's catalogSource. */
export function eventText(m: MatchRecord): EventText {
  const ids: string[] = [];
  const text = JSON.stringify(
    eventBody(m, (id) => {
      ids.push(id);
      return `${HOLE}${ids.length - 1}`;
    }),
  );
  const found = ids
    .map((id, n) => {
      const mark = JSON.stringify(`${HOLE}${n}`);
      return { id, at: text.indexOf(mark), length: mark.length };
    })
    .sort((a, b) => a.at - b.at);
  const pieces: Buffer[] = [];
  const holes: Array<[number, string]> = [];
  let bytes = 0;
  let from = 0;
  for (const h of found) {
    const piece = Buffer.from(text.slice(from, h.at), 'utf8');
    pieces.push(piece);
    bytes += piece.length;
    holes.push([bytes, h.id]);
    from = h.at + h.length;
  }
  pieces.push(Buffer.from(text.slice(from), 'utf8'));
  return { json: Buffer.concat(pieces), holes: JSON.stringify(holes) };
}

// Plain bytes: the edge router bundles the handlers that call this, and names nothing of Node's.
const encoded = new TextEncoder();
const SOURCE_BYTES: Record<CatalogSource, Uint8Array> = {
  'club-catalog': encoded.encode('"club-catalog"'),
  'match-snapshot': encoded.encode('"match-snapshot"'),
};

/**
 * The stored event with each club's catalogSource in its hole, as pieces to splice (api/raw-json.ts):
 * together, the bytes `eventBody` would serialize.
 */
export function fillEvent(json: Uint8Array, holes: string, catalogue: ReadonlySet<string>): Uint8Array[] {
  const at = JSON.parse(holes) as Array<[number, string]>;
  const sourceOf = sourceIn(catalogue);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const [offset, id] of at) {
    pieces.push(json.subarray(from, offset), SOURCE_BYTES[sourceOf(id)]);
    from = offset;
  }
  pieces.push(json.subarray(from));
  return pieces;
}
