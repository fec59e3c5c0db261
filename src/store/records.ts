/**
 * The records the store holds and the API renders. The ESPN mapping produces them; record_json
 * columns hold them verbatim, so their key order is the order the API emits.
 */

export type MatchState = 'pre' | 'in' | 'post' | 'unknown';

export interface VenueRecord {
  id: string;
  fullName: string;
  address: { city: string | null; country: string | null };
}

export interface ClubRecord {
  id: string;
  uid: string | null;
  name: string;
  displayName: string;
  shortDisplayName: string;
  abbreviation: string | null;
  location: string | null;
  country: string | null;
  city: string | null;
  logo: string | null;
  color: string | null;
  alternateColor: string | null;
  foundedYear: number | null;
  venue: VenueRecord | null;
  isActive: boolean;
}

export interface StatRecord {
  name: string;
  abbreviation: string;
  displayValue: string | null;
  value: number | null;
}

export interface MatchStatusRecord {
  clock: number;
  displayClock: string;
  period: number;
  type: {
    id: string | null;
    name: string;
    state: MatchState;
    completed: boolean;
    description: string;
    detail: string;
    shortDetail: string;
  };
}

export interface CompetitorRecord {
  id: string;
  uid: string | null;
  type: 'team';
  homeAway: 'home' | 'away';
  /** Goals as a string, as ESPN writes them; null when no score exists yet (before kickoff, postponed). */
  score: string | null;
  winner: boolean | null;
  form: string | null;
  team: ClubRecord;
  statistics: StatRecord[];
  shootoutScore?: string;
  aggregateScore?: string;
  advance?: boolean;
}

export interface MatchRecord {
  id: string;
  uid: string | null;
  competitionId: string;
  competitionUid: string | null;
  /** Kickoff as the provider wrote it (ISO-8601 UTC, often without seconds). */
  date: string;
  name: string;
  shortName: string;
  season: { year: number; type: string | null; slug: string | null } | null;
  status: MatchStatusRecord;
  venue: VenueRecord | null;
  attendance: number | null;
  /** Home first, away second, whatever order the provider listed them in. */
  competitors: CompetitorRecord[];
  details: unknown[];
  broadcasts: unknown[];
  odds: unknown[];
  notes: unknown[];
  format: unknown | null;
  playByPlayAvailable: boolean;
  wasSuspended: boolean;
  provider: string;
}

/** Summary sections in the API's canonical order; a section the provider did not send is absent. */
export const SUMMARY_SECTIONS = [
  'header',
  'boxscore',
  'keyEvents',
  'rosters',
  'gameInfo',
  'commentary',
  'broadcasts',
  'odds',
  'leaders',
  'news',
  'videos',
  'format',
] as const;
export type SummarySection = (typeof SUMMARY_SECTIONS)[number];
export type SummarySections = Partial<Record<SummarySection, unknown>>;

export interface PlayRecord {
  id: string;
  sequence: number;
  type: { id: string | null; text: string | null; type: string | null };
  text: string | null;
  homeScore: number | null;
  awayScore: number | null;
  period: { number: number };
  clock: { value: number | null; displayValue: string | null };
  addedClock: { value: number | null; displayValue: string | null } | null;
  scoringPlay: boolean;
  scoreValue: number;
  redCard: boolean;
  yellowCard: boolean;
  penaltyKick: boolean;
  ownGoal: boolean;
  shootout: boolean;
  substitution: boolean;
  team: { id: string; displayName: string | null; abbreviation: string | null } | null;
  athletesInvolved: Array<{
    id: string;
    displayName: string | null;
    jersey: string | null;
    team: { id: string | null };
  }>;
  participants: Array<{
    type: string | null;
    athlete: { id: string; displayName: string | null };
    team: { id: string | null };
  }>;
  wallclock: string | null;
}

export interface PlayerRecord {
  id: string;
  displayName: string;
  shortName: string;
  jersey: string | null;
  position: { name: string; abbreviation: string | null } | null;
  age: number | null;
  citizenship: string | null;
}

export interface CoachRecord {
  id: string | null;
  displayName: string;
  firstName: string | null;
  lastName: string | null;
  experience: number | null;
}

export interface StandingsEntryRecord {
  team: ClubRecord;
  stats: StatRecord[];
  note: { color: string | null; description: string | null; rank: number | null } | null;
  rank: number | null;
}

export interface StandingsGroupRecord {
  id: string;
  name: string;
  abbreviation: string;
  season: number;
  entries: StandingsEntryRecord[];
}

export type Resource = 'scoreboard' | 'summary' | 'plays' | 'teams' | 'roster' | 'standings';

/** A match as the store takes it: its record, and the indexed columns derived from it. */
export interface MatchEntry {
  record: MatchRecord;
  kickoff: string;
  scoreboardDate: string;
}

const IMPORTANT_TYPES = new Set([
  'goal',
  'own-goal',
  'penalty-goal',
  'yellow-card',
  'red-card',
  'substitution',
  'penalty',
]);

/** Goals, cards, substitutions, penalties and own goals: the plays `important=true` always keeps. */
export function isFlagged(p: PlayRecord): boolean {
  return (
    p.scoringPlay ||
    p.redCard ||
    p.yellowCard ||
    p.substitution ||
    p.penaltyKick ||
    p.ownGoal ||
    (p.type.type !== null && IMPORTANT_TYPES.has(p.type.type))
  );
}

/**
 * Merge what a new payload says about a club into what is stored: a payload that omits a field
 * (a scoreboard snapshot has no venue, a roster no colours) must not erase it.
 */
export function mergeClub(stored: ClubRecord | undefined, next: ClubRecord): ClubRecord {
  if (!stored) return next;
  const out = { ...next } as Record<string, unknown>;
  for (const [k, v] of Object.entries(stored)) {
    if (out[k] === null || out[k] === undefined) out[k] = v;
  }
  return out as unknown as ClubRecord;
}
