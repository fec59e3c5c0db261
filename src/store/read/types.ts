/** What the read side hands the API: parsed records plus the freshness columns stored beside them. */
import type { ClubRecord, MatchRecord, MatchState } from '../records.js';
import type { CatalogSource } from '../shape/club.js';

export interface LeagueRow {
  slug: string;
  espnId: string;
  name: string;
  abbreviation: string;
  country: string;
  kind: string;
  logo: string | null;
  season: { year: number; displayName: string } | null;
  lastSyncedAt: string | null;
}

export interface Coverage {
  matches: number;
  clubs: number;
  dedicatedClubs: number;
  standingsGroups: number;
  hasData: boolean;
}

export interface MatchRow {
  record: MatchRecord;
  state: MatchState;
  lastSyncedAt: string;
}

/** What a match's summary needs of its record, read without parsing it. */
export interface MatchFacts {
  state: MatchState;
  lastSyncedAt: string;
  provider: string;
  /** Whether any competitor has statistics. */
  statistics: boolean;
}

export interface SummaryRow {
  /** SummarySections as JSON (a JSON object of the stored sections), in UTF-8 bytes. */
  json: Buffer;
  /** Where each section lies in `json`. */
  spans: Map<string, [number, number]>;
  lastSyncedAt: string;
}

export interface FixtureFilter {
  /** Inclusive YYYYMMDD bounds on scoreboard_date; null = open. */
  from: string | null;
  to: string | null;
  state: MatchState | null;
}

export interface ClubRow {
  record: ClubRecord;
  catalogSource: CatalogSource;
}

export interface StoreTotals {
  competitions: number;
  activeClubCompetitions: number;
  activeInternationalCompetitions: number;
  competitionsWithMatches: number;
  dedicatedClubDocuments: number;
  matches: number;
  playByPlayEvents: number;
  standingsGroups: number;
}

/** A match's event as stored for lists: its text with catalogSource holes (shape/event.ts). */
export interface EventRow {
  state: MatchState;
  /** UTF-8 bytes. */
  json: Buffer;
  holes: string;
}
