/**
 * One match: the summary (`/summary?event=ID` and `/events/ID` share this handler and body) and its
 * play-by-play. Stored summary sections pass through in the provider's shape; an unstored section
 * is `[]` or `null`. The header is the stored one (or, with no summary stored, built from the
 * match), carrying its LeagueRef.
 */
import type { StoreReader } from '../../store/read/reader.js';
import type { MatchFacts, MatchRow, SummaryRow } from '../../store/read/types.js';
import { objectSpans } from '../../util/json-spans.js';
import type { MatchState } from '../../store/records.js';
import type { SummaryField } from '../fields.js';
import { SUMMARY_FIELDS } from '../fields.js';
import type { HandlerResult } from '../route.js';
import { ApiError } from '../route.js';
import { competitionBody } from '../../store/shape/event.js';
import { sourceIn } from '../../store/shape/club.js';
import type { LeagueRefBody } from '../serialize/league.js';
import { requireLeague } from '../serialize/league.js';
import { pageCount, pageOffset } from '../vocab.js';
import { RawJson } from '../raw-json.js';
import { CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET } from '../../util/json-bytes.js';

const ARRAY_SECTIONS = new Set([
  'keyEvents',
  'rosters',
  'commentary',
  'broadcasts',
  'odds',
  'leaders',
  'news',
  'videos',
]);

export const TOP_SCORERS_REASON =
  'League top scorers are not stored by this service; per-match leaders are in the leaders section.';

/** A plays page needs to know only that the match exists and whether it is live: its record stays unread. */
function requireMatchState(store: StoreReader, league: string, eventId: string): MatchState {
  requireLeague(store, league);
  const state = store.matches.stateOf(league, eventId);
  if (!state) throw new ApiError(404, 'Match not found');
  return state;
}

function requireFacts(
  store: StoreReader,
  league: string,
  eventId: string,
): { league: LeagueRefBody; facts: MatchFacts } {
  const { ref } = requireLeague(store, league);
  const facts = store.matches.facts(league, eventId);
  if (!facts) throw new ApiError(404, 'Match not found');
  return { league: ref, facts };
}

/**
 * The stored header (an object's JSON) with `league` replaced by the league record, or inserted
 * after `season` (else `uid`, else `id`, else the last member) when absent: spliced into the stored
 * bytes, which are what JSON.stringify wrote, so they are what parsing and writing them again gives.
 */
export function withLeague(header: Buffer, league: LeagueRefBody): RawJson {
  const spans = objectSpans(header);
  const json = JSON.stringify(league);
  const own = spans.get('league');
  if (own) return new RawJson([header.subarray(0, own[0]), json, header.subarray(own[1])]);
  const after = spans.get('season') ?? spans.get('uid') ?? spans.get('id') ?? [...spans.values()].at(-1);
  if (!after) return new RawJson(`{"league":${json}}`);
  return new RawJson([header.subarray(0, after[1]), `,"league":${json}`, header.subarray(after[1])]);
}

/** With no stored header object, one built from the match. */
function header(store: StoreReader, league: LeagueRefBody, match: MatchRow): Record<string, unknown> {
  const m = match.record;
  return {
    id: m.id,
    uid: m.uid,
    season: m.season ? { year: m.season.year, type: m.season.type, slug: m.season.slug } : null,
    league,
    competitions: [competitionBody(m, sourceIn(store.catalogue(league.slug)))],
  };
}

function dataAvailability(
  store: StoreReader,
  league: string,
  eventId: string,
  facts: MatchFacts,
  sections: Map<string, Buffer>,
) {
  const timeline = store.plays.exists(league, eventId);
  // A non-empty array: `[` followed by anything but `]`.
  const k = sections.get('keyEvents');
  const keyEvents = !!k && k[0] === OPEN_BRACKET && k.length > 1 && k[1] !== CLOSE_BRACKET;
  const statistics = sections.has('boxscore') || facts.statistics;
  return {
    timeline: { available: timeline, storedIn: 'plays' },
    matchGoals: { available: timeline || keyEvents, storedIn: ['plays', 'match_summaries.keyEvents'] },
    statisticsAndSummary: { available: statistics, storedIn: 'match_summaries' },
    leagueTopScorers: { available: false, reason: TOP_SCORERS_REASON },
  };
}

const later = (a: string, b: string | undefined) => (b !== undefined && b > a ? b : a);

/** The stored sections as JSON bytes, by name: passed through as they are. */
function storedSections(stored: SummaryRow | undefined): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!stored) return out;
  for (const [name, [start, end]] of stored.spans) out.set(name, stored.json.subarray(start, end));
  return out;
}

const isNull = (json: Buffer) => json.length === 4 && json.toString('latin1') === 'null';

export function summary(
  store: StoreReader,
  league: string,
  eventId: string,
  fields: ReadonlySet<SummaryField> | null,
): HandlerResult {
  const { league: leagueBody, facts } = requireFacts(store, league, eventId);
  const stored: SummaryRow | undefined = store.matches.summary(league, eventId);
  const sections = storedSections(stored);
  const body: Record<string, unknown> = {};
  for (const name of SUMMARY_FIELDS) {
    if (fields && !fields.has(name)) continue;
    if (name === 'header') {
      // The one section that is changed on the way out (its league).
      const json = sections.get('header');
      body.header =
        json !== undefined && json[0] === OPEN_BRACE
          ? withLeague(json, leagueBody)
          : header(store, leagueBody, store.matches.byId(league, eventId)!);
    } else if (name === 'meta') {
      body.meta = {
        dataSource: 'database',
        provider: facts.provider,
        lastSyncedAt: later(facts.lastSyncedAt, stored?.lastSyncedAt),
        dataAvailability: dataAvailability(store, league, eventId, facts, sections),
      };
    } else {
      const json = sections.get(name);
      body[name] = json === undefined || isNull(json) ? (ARRAY_SECTIONS.has(name) ? [] : null) : new RawJson(json);
    }
  }
  return { body, live: facts.state === 'in' };
}

export interface PlaysQuery {
  page: number;
  limit: number;
  important: boolean;
}

/**
 * How many plays a plays request lists over all its pages, for every match of a league at once (the
 * build asks it of every match; a request learns its own count from the page it reads).
 */
export function leaguePlayCounts(store: StoreReader, league: string): (eventId: string, important: boolean) => number {
  const counts = store.plays.leagueCounts(league);
  return (eventId, important) => {
    const c = counts.get(eventId);
    return c ? (important ? c.important : c.plays) : 0;
  };
}

export function plays(store: StoreReader, league: string, eventId: string, q: PlaysQuery): HandlerResult {
  const state = requireMatchState(store, league, eventId);
  const { count, plays: slice } = store.plays.page(league, eventId, q.important, q.limit, pageOffset(q.page, q.limit));
  return {
    body: {
      count,
      pageIndex: q.page,
      pageSize: q.limit,
      pageCount: pageCount(count, q.limit),
      dataSource: 'database',
      importantOnly: q.important,
      items: new RawJson(['[', slice, ']']),
    },
    live: state === 'in',
  };
}
