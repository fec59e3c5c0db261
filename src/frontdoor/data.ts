/**
 * Everything the front door shows, read from the store and the route table in one place, so the
 * page itself (page.ts) is a plain function of this value. Only store content goes in — never the
 * time of the request — so a given store always gives the same page, at build time and when served.
 */
import { API_VERSION, SERVICE_NAME } from '../api/vocab.js';
import { routePath } from '../api/route.js';
import { compareText } from '../api/serialize/league.js';
import type { StoreReader } from '../store/read/reader.js';
import type { Coverage } from '../store/read/types.js';
import type { RouteTable } from '../api/route.js';
import type { Example } from './examples.js';
import { exampleRequests } from './examples.js';

export interface LeagueEntry {
  slug: string;
  name: string;
  abbreviation: string;
  country: string;
  season: string | null;
  lastSyncedAt: string | null;
  coverage: Coverage;
  links: { scoreboard: string; fixtures: string; clubs: string; standings: string };
}

export interface Endpoint {
  path: string;
  summary: string;
}

export interface FrontDoorData {
  name: string;
  version: string;
  provider: string | null;
  snapshotAt: string | null;
  lastSuccessfulSyncAt: string | null;
  totals: { matches: number; playByPlayEvents: number; standingsGroups: number };
  leagues: LeagueEntry[];
  examples: Example[];
  endpoints: Endpoint[];
  links: { openapi: string; meta: string; health: string };
}

const LEAGUE_LINKS = ['scoreboard', 'fixtures', 'clubs', 'standings'] as const;

function pathOf(routes: RouteTable, name: string, params: Record<string, string> = {}): string {
  const route = routes.get(name);
  if (!route) throw new Error(`the route table has no route named ${name}`);
  return routePath(route, params);
}

/** ESPN names seasons after their league (`2025-26 English Premier League`); the table already does. */
const seasonName = (season: string, league: string) =>
  season.endsWith(` ${league}`) ? season.slice(0, -league.length - 1) : season;

export function frontDoorData(store: StoreReader, routes: RouteTable): FrontDoorData {
  const meta = store.meta();
  const totals = store.totals();
  const leagues = store.leagues
    .all()
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.slug, b.slug))
    .map(
      (row): LeagueEntry => ({
        slug: row.slug,
        name: row.name,
        abbreviation: row.abbreviation,
        country: row.country,
        season: row.season ? seasonName(row.season.displayName, row.name) : null,
        lastSyncedAt: row.lastSyncedAt,
        coverage: store.coverage(row.slug),
        links: Object.fromEntries(
          LEAGUE_LINKS.map((name) => [name, pathOf(routes, name, { league: row.slug })]),
        ) as LeagueEntry['links'],
      }),
    );
  return {
    name: SERVICE_NAME,
    version: API_VERSION,
    provider: meta.provider,
    snapshotAt: meta.snapshotAt,
    lastSuccessfulSyncAt: meta.lastSuccessfulSyncAt,
    totals: {
      matches: totals.matches,
      playByPlayEvents: totals.playByPlayEvents,
      standingsGroups: totals.standingsGroups,
    },
    leagues,
    examples: exampleRequests(store, routes),
    endpoints: [...routes.values()].map((r) => ({ path: r.path.replace(/:(\w+)/g, '{$1}'), summary: r.summary })),
    links: { openapi: pathOf(routes, 'openapi'), meta: pathOf(routes, 'meta'), health: pathOf(routes, 'health') },
  };
}
