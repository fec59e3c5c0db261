/**
 * The provider options `fds sync` and `fds live` share — which leagues, and how to reach each
 * provider — with their parsers, and the provider they make. One definition, so the two commands
 * read a flag the same way.
 */
import { Option } from 'commander';
import type { DB } from '../store/db.js';
import { LEAGUE_SLUGS } from '../reference/leagues.js';
import { HTTP_DEFAULTS, HttpClient } from '../sync/http/fetch-json.js';
import type { Provider } from '../sync/provider.js';
import { FilesProvider } from '../sync/providers/files.js';
import { addDays, parseYmd, ymd } from '../util/time.js';
import type { Clock } from '../util/time.js';
import { UsageError, parsePositiveInt } from './errors.js';

export type ProviderName = 'demo' | 'files' | 'espn';

export interface ProviderFlags {
  provider: ProviderName;
  source?: string;
  seed: number;
  scale: number;
  /** demo: payload weight, ESPN's (`real`) or the compact one (`light`). */
  weight?: 'real' | 'light';
  baseUrl: string;
  coreUrl: string;
  leagues?: string;
  season?: number[];
  /** Unset: ESPN's default (HTTP_DEFAULTS) or the demo's and files' own. */
  concurrency?: number;
  timeout: number;
  retries: number;
  userAgent?: string;
}

/** Units (or, for ESPN, requests) in flight when --concurrency is not given. */
export function concurrencyOf(f: Pick<ProviderFlags, 'provider' | 'concurrency'>): number {
  return f.concurrency ?? (f.provider === 'espn' ? HTTP_DEFAULTS.concurrency : 6);
}

/** Scoreboard days pulled by default, around today: ESPN's window. */
export const DEFAULT_WINDOW_BACK = 3;
export const DEFAULT_WINDOW_AHEAD = 7;
/** A routine demo sync's window: yesterday to tomorrow (the days that moved on are added to it). */
export const DEMO_WINDOW_BACK = 1;
export const DEMO_WINDOW_AHEAD = 1;

export function parseDate(name: string) {
  return (value: string): string => {
    if (!parseYmd(value)) throw new UsageError(`${name} must be a valid YYYYMMDD date, got ${JSON.stringify(value)}`);
    return value;
  };
}

export function parseLeagues(value: string | undefined): string[] {
  if (!value) return [...LEAGUE_SLUGS];
  const slugs = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const unknown = slugs.filter((s) => !LEAGUE_SLUGS.includes(s));
  if (unknown.length)
    throw new UsageError(`unknown league(s): ${unknown.join(', ')} (known: ${LEAGUE_SLUGS.join(', ')})`);
  return slugs;
}

function parseOrigin(name: string) {
  return (value: string): string => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
      throw new UsageError(
        `${name} must be an http(s) origin such as https://site.api.espn.com, got ${JSON.stringify(value)}`,
      );
    }
    return value;
  };
}

function parseRetries(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 20)
    throw new UsageError(`--retries must be an integer from 0 to 20, got ${JSON.stringify(value)}`);
  return Number(value);
}

function parseScale(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 100)
    throw new UsageError(`--scale must be a number in (0, 100], got ${JSON.stringify(value)}`);
  return n;
}

function parseSeason(value: string, prev: number[] = []): number[] {
  if (!/^\d{4}$/.test(value)) throw new UsageError(`--season must be a four-digit year, got ${JSON.stringify(value)}`);
  return [...prev, Number(value)];
}

/** `--provider`, for a command to add with its own default or as mandatory. */
export const providerOption = () =>
  new Option('--provider <name>', 'where the data comes from').choices(['demo', 'files', 'espn']);

/** Every shared option after `--provider`, in the order `--help` lists them. */
export function providerOptions(): Option[] {
  return [
    new Option(
      '--source <dir>',
      'files: directory of recorded ESPN responses (<league>/scoreboard/<YYYYMMDD>.json, …)',
    ),
    new Option('--seed <n>', 'demo: generator seed').argParser(parsePositiveInt('--seed')).default(1),
    new Option('--scale <s>', 'demo: multiply the amount of data (matches) by this factor')
      .argParser(parseScale)
      .default(1),
    new Option('--weight <w>', "demo: payload weight: real (ESPN's sizes) or light (compact)")
      .choices(['real', 'light'])
      .default('real'),
    new Option('--base-url <origin>', 'espn: site API origin')
      .argParser(parseOrigin('--base-url'))
      .default('https://site.api.espn.com'),
    new Option('--core-url <origin>', 'espn: core API origin (play-by-play)')
      .argParser(parseOrigin('--core-url'))
      .default('https://sports.core.api.espn.com'),
    new Option('--leagues <slugs>', 'comma-separated league slugs (default: all 16)'),
    new Option('--season <YYYY>', 'espn: also pull standings for this season (repeatable)').argParser(parseSeason),
    new Option('--concurrency <n>', 'provider requests in flight at once (default: espn 4, else 6)').argParser(
      parsePositiveInt('--concurrency'),
    ),
    new Option('--timeout <ms>', 'espn: per-request timeout in milliseconds, body included')
      .argParser(parsePositiveInt('--timeout'))
      .default(HTTP_DEFAULTS.timeoutMs),
    new Option(
      '--retries <n>',
      'espn: retries of a request after a network error, timeout, 408/425/429/5xx or invalid body',
    )
      .argParser(parseRetries)
      .default(HTTP_DEFAULTS.retries),
    new Option('--user-agent <text>', 'espn: the User-Agent sent (default: football-data-service/VERSION (+URL))').env(
      'FDS_USER_AGENT',
    ),
  ];
}

export interface ProviderRun {
  /** Scoreboard days to pull (espn: default today − 3 … today + 7; demo: given = a routine sync). */
  from?: string;
  to?: string;
  /** espn: refetch settled matches and fresh rosters too. */
  full?: boolean;
  /** demo: a routine sync even without a window (which then defaults to the clock's day ± 1). */
  routine?: boolean;
  /** espn: the transport to use (`fds live` keeps one across cycles: its validators and block); default a new one. */
  http?: HttpClient;
  /** espn: every league the run syncs. */
  leagues?: readonly string[];
}

/** The ESPN transport the flags describe. */
export function espnHttp(f: ProviderFlags): HttpClient {
  return new HttpClient({
    concurrency: concurrencyOf(f),
    timeoutMs: f.timeout,
    retries: f.retries,
    userAgent: f.userAgent,
  });
}

function window(run: ProviderRun, clock: Clock, back: number, ahead: number): { from: string; to: string } {
  const today = clock();
  const from = run.from ?? ymd(addDays(today, -back));
  const to = run.to ?? ymd(addDays(today, ahead));
  if (from > to) throw new UsageError('--from must be before or equal to --to');
  return { from, to };
}

/**
 * The provider for one sync. `store` is read only once the sync runs, so a command can make the
 * provider (and fail on usage errors) before it creates a store file. For the demo, `clock` is the
 * demo clock, and a window (`run.from`/`run.to`) makes the sync a routine one.
 */
export async function makeProvider(
  f: ProviderFlags,
  run: ProviderRun,
  clock: Clock,
  store: () => DB,
): Promise<Provider> {
  switch (f.provider) {
    case 'demo': {
      const { createDemoProvider } = await import('../sync/providers/demo/index.js');
      const { storeRoutine } = await import('../sync/providers/demo/routine.js');
      const routine =
        run.routine || run.from || run.to
          ? storeRoutine(store, clock, window(run, clock, DEMO_WINDOW_BACK, DEMO_WINDOW_AHEAD))
          : undefined;
      return createDemoProvider({ seed: f.seed, now: clock(), scale: f.scale, routine, weight: f.weight });
    }
    case 'files':
      if (!f.source) throw new UsageError('--provider files needs --source DIR');
      return new FilesProvider(f.source);
    case 'espn': {
      const { from, to } = window(run, clock, DEFAULT_WINDOW_BACK, DEFAULT_WINDOW_AHEAD);
      const { EspnProvider } = await import('../sync/providers/espn.js');
      if (f.userAgent !== undefined && !f.userAgent.trim()) throw new UsageError('--user-agent must not be empty');
      return new EspnProvider({
        baseUrl: f.baseUrl,
        coreUrl: f.coreUrl,
        from,
        to,
        leagues: run.leagues ?? parseLeagues(f.leagues),
        // The store a provider reads does not exist yet when the provider is made.
        store,
        clock,
        seasons: f.season ?? [],
        full: run.full ?? false,
        // The same bound as the orchestrator's, but per HTTP request: one plays unit is several pages.
        http: run.http ?? espnHttp(f),
      });
    }
  }
}
