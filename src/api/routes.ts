/**
 * The API's routes: one declaration per endpoint — path, parameters (with their defaults, bounds and
 * error texts), handler, cache class, what is pre-rendered, which other requests a file also
 * answers, what its responses read, and how the CDN's rule budget reaches its files (`reach`). With
 * the front door's route (frontdoor/route.ts) they make the service's route table (app/routes.ts),
 * from which request resolution, the render core, the OpenAPI document, the build plan, the CDN
 * rules and headers, the edge router, the Netlify Function and the server's static lookup derive.
 */
import {
  boolQuery,
  clubIdParam,
  dateQuery,
  enumQuery,
  eventIdParam,
  eventQuery,
  fieldsQuery,
  leagueParam,
  limitQuery,
  pageQuery,
  seasonQuery,
  sinceQuery,
} from './fields.js';
import type { AnyRoute, RouteTable } from './route.js';
import { defineRoute } from './route.js';
import { leagues, meta } from './handlers/catalog.js';
import { fixtures, scoreboard } from './handlers/matches.js';
import { FIXTURE_STATUSES, LEAGUE_KIND_FILTERS } from './vocab.js';
import { plays, summary } from './handlers/summary.js';
import { club, clubs } from './handlers/clubs.js';
import { standings } from './handlers/standings.js';
import { health } from './handlers/health.js';
import { changes } from './handlers/changes.js';
import { buildOpenApi } from './openapi.js';
import * as R from './responses.js';
import * as pre from './prerender.js';
import { topic } from './reads.js';
import { cacheTag } from './cache-tags.js';

const BASE = '/get/soccer';
/** What every per-league response reads besides its own data: the league record and its catalogue. */
const leagueLevel = (league: string) => [topic.league(league), topic.catalogue(league)];
/** Everything about one match: its record, summary and plays. */
const oneMatch = (league: string, id: string) => [
  topic.match(league, id),
  topic.summary(league, id),
  topic.plays(league, id),
];
/** A match's own response (its summary): everything about it, and its league. */
const matchResponse = (p: Readonly<Record<string, string>>) => [
  ...oneMatch(p.league!, p.eventId!),
  ...leagueLevel(p.league!),
];
/** A plays page: its match's progress and plays, and for the important ones which plays are key events. */
const playsPage = (p: Readonly<Record<string, string>>, important: boolean) => [
  topic.state(p.league!, p.eventId!),
  topic.plays(p.league!, p.eventId!),
  ...(important ? [topic.keyEvents(p.league!, p.eventId!)] : []),
];
const league = leagueParam;
const LEAGUE_ERRORS = [400, 404];

/** The cache tags of an answer of one league (cache-tags.ts): its own, then its league. */
const ofLeague = (own: string, p: Readonly<Record<string, string>>) => [own, cacheTag.league(p.league!)];
/** Every answer about one match (its summary in both forms, its plays pages) has the match's tag. */
const matchTags = (p: Readonly<Record<string, string>>, id: string) => ofLeague(cacheTag.match(p.league!, id), p);

const MAX_FIXTURES_LIMIT = 200;

// The hot set, per route (route.ts `Reach`): which requests, by their shortest spelling, carry the traffic.
const plain = (q: Readonly<Record<string, string>>) => Object.keys(q).length === 0;
const always = () => true;
const MAX_PLAYS_LIMIT = 300;

/** The API's routes; the service's table (app/routes.ts) adds the front door's. */
export const API_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    name: 'leagues',
    path: `${BASE}/leagues`,
    summary: 'The league catalogue, with what the store holds for each league',
    tag: 'Football data',
    params: {},
    query: {
      kind: enumQuery('kind', LEAGUE_KIND_FILTERS, 'club', 'Kind of competition'),
      available: boolQuery('available', false, 'Only leagues with stored data'),
    },
    cache: 'list',
    response: R.LeaguesResponse,
    errors: [400],
    handle: ({ store, query }) => leagues(store, query),
    prerender: pre.everyQuery,
    reads: () => [topic.any],
    reach: { level: 'league', hot: plain },
  }),
  defineRoute({
    name: 'meta',
    path: `${BASE}/meta`,
    summary: 'What the service is and what its store holds',
    tag: 'Football data',
    params: {},
    query: {},
    cache: 'list',
    response: R.MetaResponse,
    errors: [],
    handle: ({ store }) => meta(store),
    prerender: pre.once,
    reads: () => [topic.any],
    reach: { level: 'league', hot: always },
  }),
  defineRoute({
    name: 'scoreboard',
    path: `${BASE}/:league/scoreboard`,
    summary: "A league's matches on one UTC day (default: today at request time)",
    tag: 'Football data',
    params: { league: league() },
    query: { dates: dateQuery('dates', 'Day, YYYYMMDD (default: today, UTC)') },
    cache: 'live',
    response: R.ScoreboardResponse,
    errors: LEAGUE_ERRORS,
    handle: ({ store, clock, params, query }) => scoreboard(store, clock, params.league, query.dates),
    prerender: pre.scoreboards,
    reads: ({ params: p, query: q }) => [topic.day(p.league!, q.dates!), ...leagueLevel(p.league!)],
    cacheTags: ({ params: p, query: q, today }) =>
      ofLeague(cacheTag.scoreboard(p.league!, (q.dates as string | null | undefined) ?? today()), p),
    reach: {
      level: 'league',
      hot: (q, nearDay) => q.dates !== undefined && nearDay(q.dates),
      volatile: (q, nearDay) => q.dates === undefined || nearDay(q.dates),
    },
    today: 'dates',
  }),
  defineRoute({
    name: 'fixtures',
    path: `${BASE}/:league/fixtures`,
    summary: "A league's matches, filtered by day range and status, paged",
    tag: 'Football data',
    params: { league: league() },
    query: {
      from: dateQuery('from', 'First scoreboard day, YYYYMMDD (inclusive)'),
      to: dateQuery('to', 'Last scoreboard day, YYYYMMDD (inclusive)'),
      status: enumQuery('status', FIXTURE_STATUSES, 'all', 'scheduled = not started, live = in play, finished = over'),
      page: pageQuery(),
      limit: limitQuery(MAX_FIXTURES_LIMIT),
    },
    checks: [
      { after: 'to', test: (q) => !q.from || !q.to || q.from <= q.to, message: 'from must be before or equal to to' },
    ],
    cache: 'live',
    response: R.FixturesResponse,
    errors: LEAGUE_ERRORS,
    handle: ({ store, params, query }) => fixtures(store, params.league, query),
    prerender: pre.fixtures,
    // A page of all matches lists the same matches until one is added or moves in kickoff order;
    // a page of one status, until any match of the league changes.
    reads: ({ params: p, query: q, days }) => [
      ...(q.status === 'all' && days
        ? [topic.order(p.league!), ...days.map((d) => topic.day(p.league!, d))]
        : [topic.matches(p.league!)]),
      ...leagueLevel(p.league!),
    ],
    cacheTags: ({ params: p }) => ofLeague(cacheTag.fixtures(p.league!), p),
    reach: { level: 'league', hot: plain },
  }),
  defineRoute({
    name: 'summary',
    path: `${BASE}/:league/summary`,
    summary: 'One match: header, box score, key events, line-ups and more (same body as /events/{eventId})',
    tag: 'Football data',
    params: { league: league() },
    query: { event: eventQuery(), fields: fieldsQuery() },
    cache: 'live',
    response: R.MatchSummary,
    errors: LEAGUE_ERRORS,
    handle: ({ store, params, query }) => summary(store, params.league, query.event, query.fields),
    cacheTags: ({ params: p, query: q }) => matchTags(p, q.event as string),
    reach: { level: 'match', hot: always },
  }),
  defineRoute({
    name: 'event',
    path: `${BASE}/:league/events/:eventId`,
    summary: 'One match: header, box score, key events, line-ups and more',
    tag: 'Football data',
    params: { league: league(), eventId: eventIdParam() },
    query: { fields: fieldsQuery() },
    cache: 'live',
    response: R.MatchSummary,
    errors: LEAGUE_ERRORS,
    handle: ({ store, params, query }) => summary(store, params.league, params.eventId, query.fields),
    prerender: pre.events,
    reads: ({ params }) => matchResponse(params),
    groupReads: matchResponse,
    cacheTags: ({ params: p }) => matchTags(p, p.eventId!),
    // Its file also answers /summary?event=ID (below): the same Netlify-Vary for both forms.
    varyAlso: ['event'],
    reach: { level: 'match', hot: plain },
    // One pre-rendered file answers both forms: /events/ID is the summary of event ID.
    aliases: (req) =>
      Object.keys(req.query).length === 0
        ? [{ route: 'summary', req: { params: { league: req.params.league! }, query: { event: req.params.eventId! } } }]
        : [],
  }),
  defineRoute({
    name: 'plays',
    path: `${BASE}/:league/events/:eventId/plays`,
    summary: "A match's play-by-play in match order, paged",
    tag: 'Football data',
    params: { league: league(), eventId: eventIdParam() },
    query: {
      page: pageQuery(),
      limit: limitQuery(MAX_PLAYS_LIMIT),
      important: boolQuery('important', false, 'Only goals, cards, substitutions, penalties, own goals and key events'),
    },
    cache: 'live',
    response: R.PlaysResponse,
    errors: LEAGUE_ERRORS,
    handle: ({ store, params, query }) => plays(store, params.league, params.eventId, query),
    prerender: pre.plays,
    // A plays page reads its match's progress (whether it is live) and its plays; the important ones
    // also which plays the summary names key events. Nothing else of the match's record or summary.
    reads: ({ params, query: q }) => playsPage(params, !(q.important === undefined || q.important === 'false')),
    groupReads: (params) => playsPage(params, true),
    cacheTags: ({ params: p }) => matchTags(p, p.eventId!),
    reach: {
      level: 'match',
      // The first page, all plays or the important ones.
      hot: (q) => plain(q) || (Object.keys(q).length === 1 && q.important === 'true'),
    },
  }),
  defineRoute({
    name: 'clubs',
    path: `${BASE}/:league/clubs`,
    summary: "A league's clubs: its catalogue, plus clubs known only from its matches",
    tag: 'Football data',
    params: { league: league() },
    query: {},
    cache: 'list',
    response: R.ClubsResponse,
    errors: LEAGUE_ERRORS,
    handle: ({ store, params }) => clubs(store, params.league),
    prerender: pre.perLeague,
    reads: ({ params: p }) => [topic.matches(p.league!), topic.clubs, ...leagueLevel(p.league!)],
    cacheTags: ({ params: p }) => ofLeague(cacheTag.clubs(p.league!), p),
    reach: { level: 'league', hot: always },
  }),
  defineRoute({
    name: 'club',
    path: `${BASE}/:league/clubs/:clubId`,
    summary: 'One club with its roster and coach',
    tag: 'Football data',
    params: { league: league(), clubId: clubIdParam() },
    query: {},
    cache: 'list',
    response: R.ClubDetailResponse,
    errors: LEAGUE_ERRORS,
    handle: ({ store, params }) => club(store, params.league, params.clubId),
    prerender: pre.clubs,
    // Not the league's matches: a club seen in a match has its record in the clubs table (the sync
    // stores every competitor), and whether it is listed at all is the plan's (clubs/index) business.
    reads: ({ params: p }) => [topic.club(p.clubId!), topic.roster(p.clubId!), ...leagueLevel(p.league!)],
    cacheTags: ({ params: p }) => ofLeague(cacheTag.club(p.league!, p.clubId!), p),
    reach: { level: 'league' },
  }),
  defineRoute({
    name: 'standings',
    path: `${BASE}/:league/standings`,
    summary: "A league's tables for one season",
    tag: 'Football data',
    params: { league: league() },
    query: { season: seasonQuery() },
    cache: 'match',
    response: R.StandingsResponse,
    errors: LEAGUE_ERRORS,
    handle: ({ store, params, query }) => standings(store, params.league, query.season),
    prerender: pre.standings,
    reads: ({ params: p }) => [topic.standings(p.league!), ...leagueLevel(p.league!)],
    cacheTags: ({ params: p }) => ofLeague(cacheTag.standings(p.league!), p),
    reach: { level: 'league', hot: plain },
  }),
  defineRoute({
    name: 'changes',
    path: `${BASE}/changes`,
    summary: 'The change feed: what each recent snapshot of the store changed (poll this, not everything)',
    tag: 'Football data',
    params: {},
    query: { since: sinceQuery() },
    cache: 'feed',
    response: R.ChangesResponse,
    errors: [400],
    handle: ({ store, query }) => changes(store, query.since),
    prerender: pre.once,
    reads: () => [topic.any],
    // Clients poll it: always worth a rule.
    reach: { level: 'league', hot: always, volatile: always },
  }),
  ...['/health', '/api/health'].map((path) =>
    defineRoute({
      name: path === '/health' ? 'health' : 'api-health',
      path,
      summary: 'Whether the server can read its store now (never pre-rendered)',
      tag: 'Service',
      params: {},
      query: {},
      cache: 'none',
      response: R.HealthResponse,
      errors: [503],
      standalone: (deps) => health(deps),
    }),
  ),
  defineRoute({
    name: 'openapi',
    path: '/openapi.json',
    summary: 'This API description (OpenAPI 3.1)',
    tag: 'Service',
    params: {},
    query: {},
    cache: 'list',
    response: R.OpenApiResponse,
    errors: [],
    standalone: (deps) => ({ body: openApiDocument(deps.routes) }),
    prerender: pre.once,
    // Only the code changes it, and another code version always builds in full.
    reads: () => [],
    reach: { level: 'league', hot: always },
  }),
];

const openApi = new WeakMap<RouteTable, unknown>();
/** Generated once per route table: it depends on nothing else. */
export function openApiDocument(routes: RouteTable): unknown {
  let doc = openApi.get(routes);
  if (!doc) {
    doc = buildOpenApi([...routes.values()]);
    openApi.set(routes, doc);
  }
  return doc;
}
