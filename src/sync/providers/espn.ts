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
import type { DB } from '../../store/db.js';
import { normalizeIso } from '../../util/time.js';
import type { Clock } from '../../util/time.js';
import type { MatchPlan, Provider, ProviderNote, UnitResult } from '../provider.js';
import { HttpClient, HttpError, NOT_MODIFIED } from '../http/fetch-json.js';
import type { HttpOptions } from '../http/fetch-json.js';
import { EspnPlan } from '../plan/espn-plan.js';
import { PLAN } from '../plan/periods.js';
import { inWindow, monthDays } from '../plan/eastern.js';

export const ESPN_SITE_ORIGIN = 'https://site.api.espn.com';
export const ESPN_CORE_ORIGIN = 'https://sports.core.api.espn.com';

/** ESPN's largest plays page; asking for more silently falls back to 25 per page. */
const PLAYS_PAGE_SIZE = 1000;
/** A stream claiming more pages than this is not a football match; do not chase it. */
const MAX_PLAYS_PAGES = 20;
const MONTH_LIMIT = PLAN.monthLimit;

export interface EspnOptions {
  baseUrl?: string;
  coreUrl?: string;
  /** The fixture window to keep complete, UTC days inclusive (YYYYMMDD). */
  from: string;
  to: string;
  /** Every league this run syncs: the catalogue's share is spread across them. */
  leagues: readonly string[];
  /** The store the plan reads and keeps its memory in (asked for once the sync runs). */
  store: () => DB;
  clock: Clock;
  /** Past seasons whose standings to pull as well as the current table. */
  seasons?: number[];
  /** The transport, or options for one. Share one client per run: it owns the concurrency bound. */
  http?: HttpClient | HttpOptions;
  /** Ask everything: every board of the window, every match's summary and plays, every roster. */
  full?: boolean;
  random?: () => number;
}

const origin = (url: string) => url.replace(/\/+$/, '');
const seg = encodeURIComponent;

type Board = { events: Array<{ date?: string; competitions?: Array<{ date?: string }> }> } & Record<string, unknown>;

export class EspnProvider implements Provider {
  readonly name = 'espn';
  readonly http: HttpClient;
  private readonly site: string;
  private readonly core: string;
  private planned: EspnPlan | undefined;

  constructor(private readonly opts: EspnOptions) {
    this.site = origin(opts.baseUrl ?? ESPN_SITE_ORIGIN);
    this.core = origin(opts.coreUrl ?? ESPN_CORE_ORIGIN);
    this.http = opts.http instanceof HttpClient ? opts.http : new HttpClient(opts.http);
  }

  /** The run's plan, made when the run first asks (the store exists by then). */
  get plan(): EspnPlan {
    if (!this.planned) {
      this.planned = this.makePlan().begin();
      // A block that has run out: ask again (a 403 now starts a longer one).
      if (this.planned.blockedUntil === null) this.http.unblock();
    }
    return this.planned;
  }

  private makePlan(): EspnPlan {
    const o = this.opts;
    return new EspnPlan(o.store(), o.leagues, {
      from: o.from,
      to: o.to,
      seasons: [...new Set(o.seasons ?? [])].sort((a, b) => a - b),
      full: o.full ?? false,
      clock: o.clock,
      random: o.random,
    });
  }

  private siteUrl(league: string, rest: string): string {
    return `${this.site}/apis/site/v2/sports/soccer/${seg(league)}/${rest}`;
  }

  teamsDue(league: string): boolean {
    return this.plan.teamsDue(league);
  }

  /** Board keys: months (YYYYMM) of the window when due, Eastern days (YYYYMMDD) of hot matches. */
  async scoreboardDates(league: string): Promise<string[]> {
    return this.plan.boards(league);
  }

  /** A month's or a day's board, less the events outside the window. */
  async scoreboard(league: string, key: string): Promise<unknown | undefined> {
    const board = key.length === 6 ? await this.monthBoard(league, key) : await this.board(league, key, true);
    if (board === undefined || board === NOT_MODIFIED) return board;
    const { from, to } = this.opts;
    return {
      ...board,
      events: board.events.filter((e) => {
        const kickoff = normalizeIso(e.competitions?.[0]?.date ?? e.date ?? '');
        return kickoff !== null && inWindow(kickoff, from, to);
      }),
    };
  }

  private board(league: string, dates: string, conditional: boolean, limit?: number) {
    const query = limit === undefined ? `dates=${dates}` : `dates=${dates}&limit=${limit}`;
    const parse = (body: unknown) => {
      mapScoreboard(body, this.name);
      return body as Board;
    };
    const kind = dates.length === 6 ? 'board-month' : 'board-day';
    const url = this.siteUrl(league, `scoreboard?${query}`);
    return conditional
      ? this.http.getJson(url, parse, { kind, conditional: true })
      : this.http.getJson(url, parse, { kind });
  }

  /**
   * One month board; a month that answered 400 or exactly the limit (taken as cut) is asked day by
   * day from then on, its days merged into one board.
   */
  private async monthBoard(league: string, month: string): Promise<Board | undefined | typeof NOT_MODIFIED> {
    if (!this.plan.fallback(league, month)) {
      try {
        const board = await this.board(league, month, true, MONTH_LIMIT);
        if (board === undefined || board === NOT_MODIFIED || board.events.length < MONTH_LIMIT) return board;
        this.plan.rememberFallback(league, month, `${MONTH_LIMIT} events (cut)`);
      } catch (err) {
        if (!(err instanceof HttpError && err.status === 400)) throw err;
        this.plan.rememberFallback(league, month, 'HTTP 400');
      }
    }
    const days = await Promise.all(
      monthDays(month, this.opts.from, this.opts.to).map((d) => this.board(league, d, false)),
    );
    const found = days.filter((d): d is Board => d !== undefined);
    if (!found.length) return undefined;
    return { ...found[0]!, events: found.flatMap((d) => d.events) };
  }

  async matchPlan(league: string, listed: string[], changed: ReadonlySet<string>): Promise<MatchPlan> {
    return this.plan.matchPlan(league, listed, changed);
  }

  summary(league: string, eventId: string): Promise<unknown | undefined> {
    return this.http.getJson(
      this.siteUrl(league, `summary?event=${seg(eventId)}`),
      (body) => {
        const id = mapSummary(body, this.name).match.record.id;
        if (id !== eventId) throw new Error(`summary is for event ${id}, not ${eventId}`);
        return body;
      },
      { kind: 'summary', conditional: true },
    );
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
      this.http.getJson(
        this.playsUrl(league, eventId, n),
        (body) => ({ body, pageCount: parsePlaysPage(body).pageCount }),
        { kind: 'plays' },
      );
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
    return this.http.getJson(
      this.siteUrl(league, 'teams'),
      (body) => {
        mapTeams(body);
        return body;
      },
      { kind: 'teams', conditional: true },
    );
  }

  /** The catalogue's share of this run (the plan's), or every known club with --full. */
  async rosterTeamIds(league: string, knownClubIds: string[]): Promise<string[]> {
    return this.plan.rosterIds(league, knownClubIds);
  }

  roster(league: string, teamId: string): Promise<unknown | undefined> {
    return this.http.getJson(
      this.siteUrl(league, `teams/${seg(teamId)}/roster`),
      (body) => {
        mapRoster(body, teamId);
        return body;
      },
      { kind: 'roster', conditional: true },
    );
  }

  async standingsSeasons(league: string): Promise<Array<number | null>> {
    return this.plan.standingsSeasons(league);
  }

  standings(league: string, season: number | null): Promise<unknown | undefined> {
    const query = season === null ? '' : `?season=${season}`;
    return this.http.getJson(
      `${this.site}/apis/v2/sports/soccer/${seg(league)}/standings${query}`,
      (body) => {
        mapStandings(body, season);
        return body;
      },
      { kind: 'standings', conditional: true },
    );
  }

  finish(results: readonly UnitResult[]): ProviderNote {
    this.plan.finish(results, this.http.blocked);
    // How the plan stands now: the boards just stored may have made a league hot or cold.
    return { ...this.makePlan().note(), asked: this.http.takeAsked() };
  }
}
