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
  /** Events whose summary and plays to pull, given the events this run's boards listed. */
  eventIds(league: string, boardEventIds: string[]): Promise<string[]>;
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
  /** Does a finished match with a stored summary and complete play stream need fetching again? */
  readonly refetchFinished: boolean;
  /** What the provider saw but did not use (files outside the layout, leagues outside the 16). */
  ignored?(): string[];
}
