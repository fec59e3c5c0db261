/** The 200 bodies of each endpoint, built from the record schemas. */
import * as z from 'zod';
import { DATABASE_STATES, FIXTURE_STATUSES, HEALTH_STATUSES, LEAGUE_KIND_FILTERS } from './vocab.js';
import {
  Club,
  Coach,
  DataAvailability,
  Event,
  League,
  LeagueRef,
  Play,
  Player,
  Stat,
  passList,
  passObject,
  registry,
} from './schemas.js';

const named = <T extends z.ZodType>(id: string, schema: T): T => {
  registry.add(schema, { id });
  return schema;
};
const count = z.int().min(0);
const iso = z.string();

export const LeaguesResponse = named(
  'LeaguesResponse',
  z.object({
    meta: z.object({
      kind: z.enum(LEAGUE_KIND_FILTERS),
      availableOnly: z.boolean(),
      count,
      generatedAt: iso.nullable(),
    }),
    leagues: z.array(League),
  }),
);

export const MetaResponse = named(
  'ServiceMeta',
  z.object({
    service: z.object({
      name: z.string(),
      version: z.string(),
      dataSource: z.string().nullable(),
      upstreamCallsDuringRequest: z.literal(false),
    }),
    coverage: z.object({
      competitions: count,
      activeClubCompetitions: count,
      activeInternationalCompetitions: count,
      competitionsWithMatches: count,
      dedicatedClubDocuments: count,
      matches: count,
      playByPlayEvents: count,
      standingsGroups: count,
    }),
    features: z.array(z.string()),
    lastSuccessfulSyncAt: iso.nullable(),
    generatedAt: iso.nullable(),
  }),
);

export const ScoreboardResponse = named(
  'ScoreboardResponse',
  z.object({ leagues: z.array(LeagueRef), events: z.array(Event) }),
);

const page = { count, pageIndex: z.int().min(1), pageSize: z.int().min(1), pageCount: count };

export const FixturesResponse = named(
  'FixturesResponse',
  z.object({
    league: LeagueRef,
    ...page,
    filters: z.object({
      from: z.string().nullable(),
      to: z.string().nullable(),
      status: z.enum(FIXTURE_STATUSES),
    }),
    events: z.array(Event),
  }),
);

/** Every key is present unless `fields` selected a subset. */
export const MatchSummary = named(
  'MatchSummary',
  z.object({
    header: z.looseObject({ league: LeagueRef }).optional(),
    boxscore: passObject.nullable().optional(),
    keyEvents: passList.optional(),
    rosters: passList.optional(),
    gameInfo: passObject.nullable().optional(),
    commentary: passList.optional(),
    broadcasts: passList.optional(),
    odds: passList.optional(),
    leaders: passList.optional(),
    news: passList.optional(),
    videos: passList.optional(),
    format: passObject.nullable().optional(),
    meta: z
      .object({
        dataSource: z.string(),
        provider: z.string(),
        lastSyncedAt: iso.nullable(),
        dataAvailability: DataAvailability,
      })
      .optional(),
  }),
);

export const PlaysResponse = named(
  'PlaysResponse',
  z.object({ ...page, dataSource: z.string(), importantOnly: z.boolean(), items: z.array(Play) }),
);

export const ClubsResponse = named(
  'ClubsResponse',
  z.object({
    league: LeagueRef,
    clubs: z.array(Club),
    meta: z.object({ count, dedicatedCatalogCount: count, matchSnapshotFallback: z.boolean() }),
  }),
);

export const ClubDetailResponse = named(
  'ClubDetailResponse',
  z.object({
    club: Club,
    roster: z.array(Player),
    coach: Coach.nullable(),
    lastSyncedAt: iso.nullable(),
    meta: z.object({ catalogSource: z.enum(['club-catalog', 'match-snapshot']), rosterAvailable: z.boolean() }),
  }),
);

export const StandingsResponse = named(
  'StandingsResponse',
  z.object({
    id: z.string(),
    name: z.string(),
    abbreviation: z.string(),
    season: z.int().nullable(),
    children: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        abbreviation: z.string(),
        standings: z.object({
          season: z.int(),
          entries: z.array(
            z.object({
              team: Club,
              stats: z.array(Stat),
              note: z
                .object({
                  color: z.string().nullable(),
                  description: z.string().nullable(),
                  rank: z.number().nullable(),
                })
                .nullable(),
              rank: z.number().nullable(),
            }),
          ),
        }),
        lastSyncedAt: iso,
      }),
    ),
  }),
);

const ChangedMatch = z.object({
  league: z.string(),
  id: z.string(),
  state: z.enum(['pre', 'in', 'post', 'unknown']).nullable(),
  homeScore: z.string().nullable(),
  awayScore: z.string().nullable(),
});

export const ChangesResponse = named(
  'Changes',
  z.object({
    snapshot: z.object({ id: z.int(), at: iso }).nullable(),
    truncated: z.boolean(),
    snapshots: z.array(
      z.object({
        id: z.int(),
        at: iso,
        leagues: z.array(z.string()),
        matches: z.array(ChangedMatch),
        clubs: z.array(z.object({ league: z.string(), id: z.string() })),
        standings: z.array(z.object({ league: z.string(), season: z.string() })),
      }),
    ),
  }),
);

export const HealthResponse = named(
  'Health',
  z.object({
    status: z.enum(HEALTH_STATUSES),
    timestamp: iso,
    uptime: z.number().min(0),
    version: z.string(),
    database: z.object({ status: z.enum(DATABASE_STATES), name: z.string() }),
  }),
);

export const OpenApiResponse = named('OpenApiDocument', z.looseObject({ openapi: z.string() }));

/** The front door (`/`): an HTML page for people, served as text/html. */
export const FrontDoorPage = named('FrontDoorPage', z.string());
