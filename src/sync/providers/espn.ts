/**
 * ESPN's public soccer API over HTTP (docs/cli.md, "ESPN over HTTP"). Paths and query strings are
 * ESPN's own, so any server that mirrors them — a loopback stand-in in tests — can take ESPN's
 * place.
 *
 * Every payload is checked with the same mapping the orchestrator stores it through before it is
 * returned: an invalid body counts as a failed attempt and is fetched again, and one that stays
 * invalid fails its unit without anything being stored.
 */
import { mapScoreboard, mapSummary } from '../../espn/map-events.js';
import { parsePlaysPage } from '../../espn/map-plays.js';
import { mapRoster, mapStandings, mapTeams } from '../../espn/map-clubs.js';
import { daysBetween } from '../../util/time.js';
import type { Provider } from '../provider.js';
import { HttpClient } from '../http/fetch-json.js';
import type { HttpOptions } from '../http/fetch-json.js';

export const ESPN_SITE_ORIGIN = 'https://site.api.espn.com';
export const ESPN_CORE_ORIGIN = 'https://sports.core.api.espn.com';

/** ESPN's largest plays page; asking for more silently falls back to 25 per page. */
const PLAYS_PAGE_SIZE = 1000;
/** A stream claiming more pages than this is not a football match; do not chase it. */
const MAX_PLAYS_PAGES = 20;

export interface EspnOptions {
  baseUrl?: string;
  coreUrl?: string;
  /** Scoreboard days to pull, inclusive (YYYYMMDD). */
  from: string;
  to: string;
  /** Past seasons whose standings to pull as well as the current table. */
  seasons?: number[];
  /** The transport, or options for one. Share one client per run: it owns the concurrency bound. */
  http?: HttpClient | HttpOptions;
  /** Refetch finished matches that are already complete in the store, and every roster. */
  full?: boolean;
  /** Is this team's roster recent enough in the store to leave alone on a routine sync? */
  isRosterFresh?: (league: string, teamId: string) => boolean;
}

const origin = (url: string) => url.replace(/\/+$/, '');
const seg = encodeURIComponent;

export class EspnProvider implements Provider {
  readonly name = 'espn';
  readonly refetchFinished: boolean;
  readonly http: HttpClient;
  private readonly site: string;
  private readonly core: string;
  private readonly dates: string[];
  private readonly seasons: number[];
  private readonly isRosterFresh: (league: string, teamId: string) => boolean;

  constructor(opts: EspnOptions) {
    this.site = origin(opts.baseUrl ?? ESPN_SITE_ORIGIN);
    this.core = origin(opts.coreUrl ?? ESPN_CORE_ORIGIN);
    this.dates = daysBetween(opts.from, opts.to);
    this.seasons = [...new Set(opts.seasons ?? [])].sort((a, b) => a - b);
    this.http = opts.http instanceof HttpClient ? opts.http : new HttpClient(opts.http);
    this.refetchFinished = opts.full ?? false;
    const fresh = opts.isRosterFresh;
    this.isRosterFresh = opts.full || !fresh ? () => false : fresh;
  }

  private siteUrl(league: string, rest: string): string {
    return `${this.site}/apis/site/v2/sports/soccer/${seg(league)}/${rest}`;
  }

  async scoreboardDates(_league: string): Promise<string[]> {
    return [...this.dates];
  }

  scoreboard(league: string, date: string): Promise<unknown | undefined> {
    return this.http.getJson(this.siteUrl(league, `scoreboard?dates=${date}`), (body) => {
      mapScoreboard(body, this.name);
      return body;
    });
  }

  /** The events on this run's boards; the orchestrator drops those already settled in the store. */
  async eventIds(_league: string, boardEventIds: string[]): Promise<string[]> {
    return [...boardEventIds].sort();
  }

  summary(league: string, eventId: string): Promise<unknown | undefined> {
    return this.http.getJson(this.siteUrl(league, `summary?event=${seg(eventId)}`), (body) => {
      const id = mapSummary(body, this.name).match.record.id;
      if (id !== eventId) throw new Error(`summary is for event ${id}, not ${eventId}`);
      return body;
    });
  }

  private playsUrl(league: string, eventId: string, page: number): string {
    const e = seg(eventId);
    return (
      `${this.core}/v2/sports/soccer/leagues/${seg(league)}/events/${e}/competitions/${e}/plays` +
      `?limit=${PLAYS_PAGE_SIZE}&page=${page}`
    );
  }

  /**
   * Page 1 says how many pages there are; the rest are fetched side by side. A later page that is
   * missing leaves the stream incomplete (so a later sync fetches it again) rather than failing it.
   */
  async plays(league: string, eventId: string): Promise<unknown[] | undefined> {
    const page = (n: number) =>
      this.http.getJson(this.playsUrl(league, eventId, n), (body) => ({
        body,
        pageCount: parsePlaysPage(body).pageCount,
      }));
    const first = await page(1);
    if (!first) return undefined;
    const count = Math.min(first.pageCount, MAX_PLAYS_PAGES);
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, count - 1) }, (_, i) =>
        page(i + 2).catch((err: unknown) => {
          if (err instanceof Error) err.message = `page ${i + 2}: ${err.message}`;
          throw err;
        }),
      ),
    );
    return [first.body, ...rest.flatMap((p) => (p ? [p.body] : []))];
  }

  teams(league: string): Promise<unknown | undefined> {
    return this.http.getJson(this.siteUrl(league, 'teams'), (body) => {
      mapTeams(body);
      return body;
    });
  }

  /** The league's catalogue (this run's team list included), less rosters synced recently. */
  async rosterTeamIds(league: string, knownClubIds: string[]): Promise<string[]> {
    return [...new Set(knownClubIds)].filter((id) => !this.isRosterFresh(league, id)).sort();
  }

  roster(league: string, teamId: string): Promise<unknown | undefined> {
    return this.http.getJson(this.siteUrl(league, `teams/${seg(teamId)}/roster`), (body) => {
      mapRoster(body, teamId);
      return body;
    });
  }

  /** null = the current table (no `season` parameter), then each season asked for. */
  async standingsSeasons(_league: string): Promise<Array<number | null>> {
    return [null, ...this.seasons];
  }

  standings(league: string, season: number | null): Promise<unknown | undefined> {
    const query = season === null ? '' : `?season=${season}`;
    return this.http.getJson(`${this.site}/apis/v2/sports/soccer/${seg(league)}/standings${query}`, (body) => {
      mapStandings(body, season);
      return body;
    });
  }
}
