import type { Resource } from '../store/records.js';
import type { Asked } from './http/fetch-json.js';

/**
 * A provider yields ESPN-shaped payloads; every provider feeds the same mapping. A method returns
 * `undefined` when the provider does not have that resource ("not available": nothing is stored,
 * and it is not a failure) and throws when fetching or reading it failed.
 */
export interface Provider {
  readonly name: string;
  /** Scoreboard days to pull for a league (YYYYMMDD). */
  scoreboardDates(league: string): Promise<string[]>;
  scoreboard(league: string, date: string): Promise<unknown | undefined>;
  /**
   * Without a request plan: events whose summary and plays to pull, given the events this run's
   * boards listed (default: those), less the settled ones unless `refetchFinished`.
   */
  eventIds?(league: string, boardEventIds: string[]): Promise<string[]>;
  summary(league: string, eventId: string): Promise<unknown | undefined>;
  /** Every page of the match's core play stream. */
  plays(league: string, eventId: string): Promise<unknown[] | undefined>;
  teams(league: string): Promise<unknown | undefined>;
  /** Teams whose roster to pull, given the clubs the league's catalogue and boards know. */
  rosterTeamIds(league: string, knownClubIds: string[]): Promise<string[]>;
  roster(league: string, teamId: string): Promise<unknown | undefined>;
  /** Seasons whose standings to pull; null = the provider's default (current) table. */
  standingsSeasons(league: string): Promise<Array<number | null>>;
  standings(league: string, season: number | null): Promise<unknown | undefined>;
  /** Without a request plan: does a finished match with a stored summary and complete play stream need fetching again? */
  readonly refetchFinished?: boolean;
  /** What the provider saw but did not use (files outside the layout, leagues outside the 16). */
  ignored?(): string[];
  /**
   * A provider with a request plan (ESPN) says itself what to ask; without one, the league's team
   * list is asked every run and `eventIds` (less what is settled) gives summaries and plays alike.
   */
  teamsDue?(league: string): boolean;
  /** Given the events this run's boards listed and those whose entry changed (plan/board-mark.ts). */
  matchPlan?(league: string, listed: string[], changed: ReadonlySet<string>): Promise<MatchPlan>;
  /** The run is over: what it asked and what its plan saw (for the summary and cycle lines). */
  finish?(results: readonly UnitResult[]): ProviderNote;
}

/** A provider without a request plan, which lists the events to pull itself (the demo, recorded files). */
export type ListingProvider = Provider & Required<Pick<Provider, 'eventIds' | 'refetchFinished'>>;

/** What one unit (league × resource × key) of a sync did. */
export interface UnitResult {
  league: string;
  resource: Resource;
  key: string;
  status: 'ok' | 'failed' | 'unavailable';
  written: number;
  error?: string;
}

export interface MatchPlan {
  summaries: string[];
  plays: string[];
  /** Fixtures that left the window unfinished, asked by id to catch a reschedule. */
  reschedules: string[];
}

/** What the plan did this run, for the cycle line. */
export interface PlanNote {
  hot: string[];
  /** While blocked: until when nothing is asked. */
  blockedUntil: string | null;
  /** The next instant a match turns hot, when none is now. */
  nextHotAt: string | null;
}

/** What a planned provider's run asked, and how its plan stands. */
export interface ProviderNote extends PlanNote {
  asked: Record<string, Asked>;
}
