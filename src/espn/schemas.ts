/**
 * zod schemas for the ESPN payloads the sync reads. They are strict on the fields the store relies
 * on (ids, teams, kickoff, status) and tolerant of everything else: unknown keys are ignored, and
 * optional fields of the wrong type are treated as absent rather than failing the whole payload.
 */
import * as z from 'zod';

/** ESPN ids are strings; tolerate a number and normalize it. */
export const Id = z.union([z.string().min(1), z.number().int()]).transform((v) => String(v));

/** An optional field: absent, null, or of the wrong type all read as undefined. */
const opt = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const optStr = opt(z.string());
const optNum = opt(z.number());
const optBool = opt(z.boolean());
const optArr = opt(z.array(z.unknown()));
/** Some numeric fields arrive as strings ("0.9"); accept both. */
const optNumLike = opt(
  z.union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
  ]),
);

export const StatusSchema = z.object({
  clock: optNum,
  displayClock: optStr,
  period: optNum,
  type: z.object({
    id: opt(Id),
    name: optStr,
    state: opt(z.string()),
    completed: optBool,
    description: optStr,
    detail: optStr,
    shortDetail: optStr,
  }),
});

const AddressSchema = opt(z.object({ city: optStr, country: optStr }));
export const VenueSchema = z.object({ id: opt(Id), fullName: optStr, displayName: optStr, address: AddressSchema });

const LogoSchema = z.object({ href: z.string(), rel: opt(z.array(z.string())) });

export const TeamSchema = z.object({
  id: Id,
  uid: optStr,
  slug: optStr,
  location: optStr,
  name: optStr,
  abbreviation: optStr,
  displayName: optStr,
  shortDisplayName: optStr,
  color: optStr,
  alternateColor: optStr,
  isActive: optBool,
  logo: optStr,
  logos: opt(z.array(LogoSchema)),
  venue: opt(VenueSchema.partial()),
  form: optStr,
});
export type EspnTeam = z.infer<typeof TeamSchema>;

const StatSchema = z.object({
  name: z.string(),
  abbreviation: optStr,
  displayValue: optStr,
  value: opt(z.union([z.number(), z.string(), z.null()])),
});

/** Scores: strings on boards and summaries, numbers in plays, objects in team schedules. */
export const ScoreSchema = opt(z.union([z.string(), z.number(), z.object({ value: optNum, displayValue: optStr })]));

export const CompetitorSchema = z.object({
  id: Id,
  uid: optStr,
  homeAway: z.enum(['home', 'away']),
  winner: optBool,
  form: optStr,
  score: ScoreSchema,
  shootoutScore: opt(z.union([z.number(), z.string()])),
  aggregateScore: opt(z.union([z.number(), z.string()])),
  advance: optBool,
  team: TeamSchema,
  statistics: opt(z.array(StatSchema)),
});

export const CompetitionSchema = z.object({
  id: opt(Id),
  uid: optStr,
  date: optStr,
  startDate: optStr,
  attendance: optNum,
  status: opt(StatusSchema),
  venue: opt(VenueSchema),
  competitors: z.array(CompetitorSchema).length(2),
  details: optArr,
  broadcasts: optArr,
  odds: optArr,
  notes: optArr,
  format: opt(z.record(z.string(), z.unknown())),
  playByPlayAvailable: optBool,
  wasSuspended: optBool,
});

const SeasonRefSchema = opt(
  z.object({ year: z.number().int(), type: opt(z.union([z.number(), z.string()])), slug: optStr }),
);

export const EventSchema = z.object({
  id: Id,
  uid: optStr,
  date: z.string().min(1),
  name: optStr,
  shortName: optStr,
  season: SeasonRefSchema,
  status: opt(StatusSchema),
  venue: opt(VenueSchema),
  competitions: z.array(CompetitionSchema).min(1),
});
export type EspnEvent = z.infer<typeof EventSchema>;

const LeagueSeasonSchema = opt(z.object({ year: z.number().int(), displayName: optStr }));

export const ScoreboardSchema = z.object({
  leagues: opt(
    z.array(
      z.object({
        id: opt(Id),
        uid: optStr,
        slug: optStr,
        name: optStr,
        abbreviation: optStr,
        season: LeagueSeasonSchema,
      }),
    ),
  ),
  events: z.array(z.unknown()),
});

/** Summary: only the header is relied on; every other section is passed through as it came. */
export const SummarySchema = z.object({
  header: z.object({
    id: Id,
    uid: optStr,
    season: opt(z.object({ year: z.number().int(), type: opt(z.union([z.number(), z.string()])) })),
    competitions: z
      .array(
        z.object({
          id: opt(Id),
          uid: optStr,
          date: z.string().min(1),
          status: opt(StatusSchema),
          competitors: z.array(CompetitorSchema).length(2),
          details: optArr,
        }),
      )
      .min(1),
  }),
  keyEvents: optArr,
  rosters: optArr,
  gameInfo: opt(z.record(z.string(), z.unknown())),
});
export type EspnSummary = z.infer<typeof SummarySchema>;

const RefSchema = opt(z.object({ $ref: z.string() }));

export const PlaySchema = z.object({
  id: Id,
  sequenceNumber: opt(z.union([z.string(), z.number()])),
  type: opt(z.object({ id: opt(Id), text: optStr, type: optStr })),
  text: optStr,
  shortText: optStr,
  homeScore: optNumLike,
  awayScore: optNumLike,
  period: opt(z.object({ number: optNum })),
  clock: opt(z.object({ value: optNum, displayValue: optStr })),
  addedClock: opt(z.object({ value: optNum, displayValue: optStr })),
  scoringPlay: optBool,
  scoreValue: optNum,
  redCard: optBool,
  yellowCard: optBool,
  penaltyKick: optBool,
  ownGoal: optBool,
  shootout: optBool,
  substitution: optBool,
  wallclock: optStr,
  team: RefSchema,
  participants: opt(
    z.array(
      z.object({
        athlete: z.object({ $ref: z.string() }),
        team: RefSchema,
        type: optStr,
        jersey: optStr,
        order: optNum,
      }),
    ),
  ),
});
export type EspnPlay = z.infer<typeof PlaySchema>;

export const PlaysPageSchema = z.object({
  count: z.number().int().nonnegative(),
  pageIndex: z.number().int().nonnegative(),
  pageSize: z.number().int().nonnegative(),
  pageCount: z.number().int().nonnegative(),
  items: z.array(PlaySchema),
});
export type EspnPlaysPage = z.infer<typeof PlaysPageSchema>;

export const TeamsSchema = z.object({
  sports: z
    .array(
      z.object({
        leagues: z
          .array(
            z.object({
              id: opt(Id),
              slug: optStr,
              season: opt(z.object({ year: z.number().int(), displayName: optStr })),
              teams: z.array(z.object({ team: TeamSchema })),
            }),
          )
          .min(1),
      }),
    )
    .min(1),
});

const AthleteSchema = z.object({
  id: Id,
  displayName: z.string(),
  shortName: optStr,
  fullName: optStr,
  jersey: opt(z.union([z.string(), z.number()])),
  position: opt(z.object({ name: optStr, displayName: optStr, abbreviation: optStr })),
  age: optNum,
  citizenship: optStr,
});

const CoachSchema = z.object({
  id: opt(Id),
  firstName: optStr,
  lastName: optStr,
  displayName: optStr,
  experience: optNum,
});

export const RosterSchema = z.object({
  season: opt(z.object({ year: z.number().int(), displayName: optStr })),
  team: opt(TeamSchema.partial({ id: true })),
  athletes: z.array(AthleteSchema),
  coach: opt(z.union([z.array(CoachSchema), CoachSchema])),
});
export type EspnRoster = z.infer<typeof RosterSchema>;

const StandingsEntrySchema = z.object({
  team: TeamSchema,
  note: opt(z.object({ color: optStr, description: optStr, rank: optNum })),
  stats: z.array(StatSchema),
});

export const StandingsSchema = z.object({
  id: opt(Id),
  name: optStr,
  abbreviation: optStr,
  season: opt(z.object({ year: z.number().int(), displayName: optStr })),
  seasons: opt(z.array(z.object({ year: z.number().int() }))),
  children: z.array(
    z.object({
      id: Id,
      uid: optStr,
      name: optStr,
      abbreviation: optStr,
      standings: z.object({
        season: optNum,
        seasonDisplayName: optStr,
        entries: z.array(StandingsEntrySchema),
      }),
    }),
  ),
});
export type EspnStandings = z.infer<typeof StandingsSchema>;
