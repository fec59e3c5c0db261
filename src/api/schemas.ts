/**
 * zod schemas of every response body. They document the API (OpenAPI components are generated
 * from them) and the contract tests validate every 200 against that generated document. Shapes
 * the service builds are closed (no undeclared keys); provider sections passed through are open.
 */
import * as z from 'zod';
import { LEAGUE_KINDS } from './vocab.js';

export const registry = z.registry<{ id: string; description?: string }>();
const named = <T extends z.ZodType>(id: string, schema: T, description?: string): T => {
  registry.add(schema, description ? { id, description } : { id });
  return schema;
};

const str = z.string();
const nstr = z.string().nullable();
const count = z.int().min(0);
const iso = z.string().describe('ISO-8601 UTC timestamp');
/** A provider-shaped value passed through as stored. */
const passObject = z.record(z.string(), z.unknown());
const passList = z.union([z.array(z.unknown()), passObject]);

export const ErrorBody = named('Error', z.object({ error: str }), 'Every 4xx/5xx body: a human-readable reason');

export const Coverage = named(
  'Coverage',
  z.object({ matches: count, clubs: count, dedicatedClubs: count, standingsGroups: count, hasData: z.boolean() }),
);

/** A league as other responses embed it: identity only, nothing that changes with every sync. */
export const LeagueRef = named(
  'LeagueRef',
  z.object({
    id: str,
    uid: str,
    name: str,
    abbreviation: str,
    slug: str,
    country: str,
    kind: z.enum(LEAGUE_KINDS),
    logo: nstr,
    season: z.object({ year: z.int(), displayName: str }).nullable(),
    active: z.boolean(),
  }),
);

/** A league in the catalogue (/leagues): its LeagueRef, freshness and coverage. */
export const League = named('League', LeagueRef.extend({ lastSyncedAt: iso.nullable(), coverage: Coverage }));

export const Venue = named(
  'Venue',
  z.object({ id: str, fullName: str, address: z.object({ city: nstr, country: nstr }) }),
);

export const Club = named(
  'Club',
  z.object({
    id: str,
    uid: nstr,
    name: str,
    displayName: str,
    shortDisplayName: str,
    abbreviation: nstr,
    location: nstr,
    country: nstr,
    city: nstr,
    logo: nstr,
    color: nstr,
    alternateColor: nstr,
    foundedYear: z.int().nullable(),
    venue: Venue.nullable(),
    isActive: z.boolean(),
    catalogSource: z.enum(['club-catalog', 'match-snapshot']),
  }),
);

export const Stat = named(
  'Stat',
  z.object({ name: str, abbreviation: str, displayValue: nstr, value: z.number().nullable() }),
);

export const MatchStatus = named(
  'MatchStatus',
  z.object({
    clock: z.number(),
    displayClock: str,
    period: z.number(),
    type: z.object({
      id: nstr,
      name: str,
      state: z.enum(['pre', 'in', 'post', 'unknown']),
      completed: z.boolean(),
      description: str,
      detail: str,
      shortDetail: str,
    }),
  }),
);

export const Competitor = named(
  'Competitor',
  z.object({
    id: str,
    uid: nstr,
    type: z.literal('team'),
    homeAway: z.enum(['home', 'away']),
    score: nstr.describe('Goals as a string; null before kickoff'),
    winner: z.boolean().nullable(),
    form: nstr,
    team: Club,
    statistics: z.array(Stat),
    shootoutScore: str.optional(),
    aggregateScore: str.optional(),
    advance: z.boolean().optional(),
  }),
);

export const Competition = named(
  'Competition',
  z.object({
    id: str,
    uid: nstr,
    date: str,
    startDate: str,
    status: MatchStatus,
    attendance: z.number().nullable(),
    venue: Venue.nullable(),
    competitors: z.array(Competitor),
    details: z.array(z.unknown()),
    broadcasts: z.array(z.unknown()),
    odds: z.array(z.unknown()),
    notes: z.array(z.unknown()),
    format: z.unknown(),
    playByPlayAvailable: z.boolean(),
    wasSuspended: z.boolean(),
  }),
);

export const Event = named(
  'Event',
  z.object({
    id: str,
    uid: nstr,
    date: str,
    name: str,
    shortName: str,
    season: z.object({ year: z.int(), type: nstr, slug: nstr }).nullable(),
    status: MatchStatus,
    venue: z.object({ displayName: str }).nullable(),
    competitions: z.array(Competition),
  }),
);

const Availability = z.object({ available: z.boolean(), storedIn: str });
export const DataAvailability = named(
  'MatchDataAvailability',
  z.object({
    timeline: Availability,
    matchGoals: z.object({ available: z.boolean(), storedIn: z.array(str) }),
    statisticsAndSummary: Availability,
    leagueTopScorers: z.object({ available: z.literal(false), reason: str }),
  }),
);

export const Player = named(
  'Player',
  z.object({
    id: str,
    displayName: str,
    shortName: str,
    jersey: nstr,
    position: z.object({ name: str, abbreviation: nstr }).nullable(),
    age: z.number().nullable(),
    citizenship: nstr,
  }),
);

export const Coach = named(
  'Coach',
  z.object({ id: nstr, displayName: str, firstName: nstr, lastName: nstr, experience: z.number().nullable() }),
);

const Clock = z.object({ value: z.number().nullable(), displayValue: nstr });
export const Play = named(
  'Play',
  z.object({
    id: str,
    sequence: z.int(),
    type: z.object({ id: nstr, text: nstr, type: nstr }),
    text: nstr,
    homeScore: z.number().nullable(),
    awayScore: z.number().nullable(),
    period: z.object({ number: z.number() }),
    clock: Clock,
    addedClock: Clock.nullable(),
    scoringPlay: z.boolean(),
    scoreValue: z.number(),
    redCard: z.boolean(),
    yellowCard: z.boolean(),
    penaltyKick: z.boolean(),
    ownGoal: z.boolean(),
    shootout: z.boolean(),
    substitution: z.boolean(),
    team: z.object({ id: str, displayName: nstr, abbreviation: nstr }).nullable(),
    athletesInvolved: z.array(z.object({ id: str, displayName: nstr, jersey: nstr, team: z.object({ id: nstr }) })),
    participants: z.array(
      z.object({ type: nstr, athlete: z.object({ id: str, displayName: nstr }), team: z.object({ id: nstr }) }),
    ),
    wallclock: nstr,
  }),
);

export { passList, passObject };
