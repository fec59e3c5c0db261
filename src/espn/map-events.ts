/** Scoreboard events and summaries → match records. */
import type { MatchEntry, MatchRecord, SummarySections } from '../store/records.js';
import { SUMMARY_SECTIONS } from '../store/records.js';
import { normalizeIso, ymd } from '../util/time.js';
import { homeAwayOrder, mapCompetitor, mapStatus, mapVenue } from './map-common.js';
import { EventSchema, ScoreboardSchema, SummarySchema } from './schemas.js';
import type { EspnEvent } from './schemas.js';

export interface ScoreboardLeagueInfo {
  espnId: string | null;
  season: { year: number; displayName: string } | null;
}

export interface MappedScoreboard {
  league: ScoreboardLeagueInfo;
  matches: MatchEntry[];
}

function withKickoff(record: MatchRecord): MatchEntry {
  const kickoff = normalizeIso(record.date);
  if (!kickoff) throw new Error(`event ${record.id}: unreadable date ${JSON.stringify(record.date)}`);
  return { record, kickoff, scoreboardDate: ymd(new Date(kickoff)) };
}

export function mapEvent(event: EspnEvent, provider: string): MatchEntry {
  const comp = event.competitions[0]!;
  const status = mapStatus(comp.status ?? event.status);
  const [home, away] = homeAwayOrder(comp.competitors).map((c) => mapCompetitor(c, status)) as [
    ReturnType<typeof mapCompetitor>,
    ReturnType<typeof mapCompetitor>,
  ];
  const name = event.name ?? `${away.team.displayName} at ${home.team.displayName}`;
  return withKickoff({
    id: event.id,
    uid: event.uid ?? null,
    competitionId: comp.id ?? event.id,
    competitionUid: comp.uid ?? null,
    date: comp.date ?? event.date,
    name,
    shortName: event.shortName ?? name,
    season: event.season
      ? {
          year: event.season.year,
          type: event.season.type === undefined ? null : String(event.season.type),
          slug: event.season.slug ?? null,
        }
      : null,
    status,
    venue: mapVenue(comp.venue ?? event.venue),
    attendance: comp.attendance ?? null,
    competitors: [home, away],
    details: comp.details ?? [],
    broadcasts: comp.broadcasts ?? [],
    odds: comp.odds ?? [],
    notes: comp.notes ?? [],
    format: comp.format ?? null,
    playByPlayAvailable: comp.playByPlayAvailable ?? false,
    wasSuspended: comp.wasSuspended ?? false,
    provider,
  });
}

/**
 * A scoreboard for one league and day. The payload as a whole must have the board's shape; each
 * event is then validated on its own, and any invalid event fails the payload — a board that
 * silently dropped a match would look like the match was cancelled.
 */
export function mapScoreboard(payload: unknown, provider: string): MappedScoreboard {
  const board = ScoreboardSchema.parse(payload);
  const matches = board.events.map((raw, i) => {
    const parsed = EventSchema.safeParse(raw);
    if (!parsed.success)
      throw new Error(`events[${i}]: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
    return mapEvent(parsed.data, provider);
  });
  const league = board.leagues?.[0];
  return {
    league: {
      espnId: league?.id ?? null,
      season: league?.season
        ? { year: league.season.year, displayName: league.season.displayName ?? String(league.season.year) }
        : null,
    },
    matches,
  };
}

export interface MappedSummary {
  /** The match as the summary's header describes it (used when no scoreboard stored it). */
  match: MatchEntry;
  sections: SummarySections;
  keyEventIds: string[];
}

export function mapSummary(payload: unknown, provider: string): MappedSummary {
  const summary = SummarySchema.parse(payload);
  const raw = payload as Record<string, unknown>;
  const h = summary.header;
  const comp = h.competitions[0]!;
  const match = mapEvent(
    {
      id: h.id,
      uid: h.uid,
      date: comp.date,
      season: h.season ? { year: h.season.year, type: h.season.type, slug: undefined } : undefined,
      competitions: [{ ...comp, competitors: comp.competitors }],
      name: undefined,
      shortName: undefined,
      status: undefined,
      venue: undefined,
    } as EspnEvent,
    provider,
  );
  const gameVenue = (raw.gameInfo as { venue?: unknown } | undefined)?.venue;
  if (gameVenue && typeof gameVenue === 'object') {
    match.record.venue = mapVenue(gameVenue as Parameters<typeof mapVenue>[0]) ?? match.record.venue;
  }
  const sections: SummarySections = {};
  for (const key of SUMMARY_SECTIONS) {
    if (raw[key] !== undefined && raw[key] !== null) sections[key] = raw[key];
  }
  const keyEventIds = (summary.keyEvents ?? [])
    .map((e) => (e && typeof e === 'object' ? (e as { id?: unknown }).id : undefined))
    .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number')
    .map(String);
  return { match, sections, keyEventIds };
}
