/**
 * The sync: for each league, pull teams → rosters → scoreboards → summaries → plays → standings
 * from a provider, validate and map each payload, and store it. Each unit (league × resource × key)
 * is fetched, mapped and written in its own transaction; a unit that fails is rolled back and
 * recorded, and every other unit is kept.
 */
import pLimit from 'p-limit';
import type { LimitFunction } from 'p-limit';
import type { DB } from '../store/db.js';
import { META_LAST_SUCCESS, META_PROVIDER, META_SNAPSHOT_AT, getMeta, setMeta } from '../store/db.js';
import { StoreWriter } from '../store/writer.js';
import { unpackJson } from '../store/blob.js';
import { beginSnapshot, endSnapshot } from '../store/snapshots.js';
import type { Resource } from '../store/records.js';
import { mapScoreboard, mapSummary } from '../espn/map-events.js';
import { mapPlays } from '../espn/map-plays.js';
import { mapRoster, mapStandings, mapTeams } from '../espn/map-clubs.js';
import type { MatchPlan, Provider, ProviderNote, UnitResult } from './provider.js';
import { NOT_MODIFIED } from './http/fetch-json.js';
import { boardMark } from './plan/board-mark.js';
import type { MatchRecord } from '../store/records.js';
import { playContexts } from './play-context.js';
import { isoSeconds } from '../util/time.js';
import type { Clock } from '../util/time.js';

export type { UnitResult } from './provider.js';

export interface SyncOptions {
  leagues: readonly string[];
  concurrency: number;
  clock: Clock;
  onUnit?: (result: UnitResult) => void;
  /** Called when a league's plan grows (units discovered), for progress display. */
  onPlanned?: (count: number) => void;
  /**
   * Stop early (`fds live` shutting down): units not yet fetched are left out — neither tried nor
   * recorded — and the sync ends as usual with what it stored.
   */
  signal?: AbortSignal;
}

export interface SyncReport {
  provider: string;
  units: { ok: number; failed: number; unavailable: number };
  written: number;
  failures: UnitResult[];
  ignored: string[];
  snapshotAt: string | null;
  /** The signal stopped the sync before every unit was tried. */
  aborted: boolean;
  /** A planned provider's account: what it asked, hot leagues, a block (ESPN). */
  upstream?: ProviderNote;
}

const SKIPPED = Symbol('skipped');

/** The distinct reasons units failed, most frequent first, for one-line summaries. */
export function failureReasons(failures: readonly UnitResult[], max = 3): string {
  const counts = new Map<string, number>();
  for (const f of failures) counts.set(f.error ?? 'unknown error', (counts.get(f.error ?? 'unknown error') ?? 0) + 1);
  const top = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([reason, n]) => `${n}× ${reason}`);
  return top.join(' | ') + (counts.size > max ? ` | ${counts.size - max} other reasons` : '');
}

function message(err: unknown): string {
  if (err instanceof Error) {
    const issues = (err as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
    if (issues?.length)
      return `invalid payload: ${issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}`;
    return err.message;
  }
  return String(err);
}

export async function runSync(db: DB, provider: Provider, opts: SyncOptions): Promise<SyncReport> {
  const run = new SyncRun(db, provider, opts);
  // Leagues run side by side; the shared limiter bounds how many fetches are in flight overall.
  await Promise.all(
    opts.leagues.map((league) => syncLeague(run, league).catch((err: unknown) => run.planFailed(league, err))),
  );
  const finishedAt = isoSeconds(opts.clock());
  const tally = run.tally();
  run.closeSnapshot(tally, finishedAt);
  const upstream = provider.finish?.(run.results);
  return { ...run.report(tally), ...(upstream ? { upstream } : {}) };
}

/**
 * One league, resource by resource. Each resource's keys are planned from what the ones before it
 * stored: rosters for the clubs the league is known to have, summaries and plays for the events
 * this run's scoreboards listed.
 */
async function syncLeague(run: SyncRun, league: string): Promise<void> {
  const { provider } = run;
  await run.syncUnits(league, teamUnits(run, league), (provider.teamsDue?.(league) ?? true) ? [''] : []);
  await run.syncUnits(league, rosterUnits(run, league), await provider.rosterTeamIds(league, run.knownClubs(league)));
  const board: BoardOutcome = { listed: new Set(), changed: provider.matchPlan ? new Set() : null };
  await run.syncUnits(league, scoreboardUnits(run, league, board), await provider.scoreboardDates(league));
  const listed = [...board.listed].sort();
  const plan = provider.matchPlan
    ? await provider.matchPlan(league, listed, board.changed!)
    : unplanned(run.unsettled(league, (await provider.eventIds?.(league, listed)) ?? listed));
  await run.syncUnits(league, summaryUnits(run, league), plan.summaries);
  // Plays after summaries: a summary's lineups name the athletes that core plays only link to.
  await run.syncUnits(league, playUnits(run, league), plan.plays);
  await run.syncUnits(league, summaryUnits(run, league, true), plan.reschedules);
  await run.syncUnits(league, standingsUnits(run, league), await provider.standingsSeasons(league));
}

/** A provider without a plan: the same events' summaries and plays, and no reschedule checks. */
const unplanned = (eventIds: string[]): MatchPlan => ({ summaries: eventIds, plays: eventIds, reschedules: [] });

/** What a league's boards listed this run, and (for a planned provider) whose entry changed (plan/board-mark.ts). */
interface BoardOutcome {
  listed: Set<string>;
  changed: Set<string> | null;
}

/** How one resource's units are named, fetched, and mapped and written (returning the rows changed). */
interface Units<K, T> {
  resource: Resource;
  keyOf: (k: K) => string;
  fetch: (k: K) => Promise<T | undefined>;
  store: (payload: T, k: K) => number;
}

/** A unit's fetch, settled: the payload (undefined: not available), skipped, or the error it failed with. */
type Fetched<T> = { payload: T | undefined | typeof SKIPPED } | { error: unknown };

interface Tally {
  failures: UnitResult[];
  ok: number;
  written: number;
  units: number;
}

/** One sync's context: the snapshot it writes under, the bound it fetches under, and what its units did. */
class SyncRun {
  readonly writer: StoreWriter;
  readonly playContext: ReturnType<typeof playContexts>;
  /** When the sync started: the time its units' sync state and the rows they write carry. */
  readonly startedAt: string;
  private readonly snapshot: number;
  private readonly settled: ReturnType<typeof settledQuery>;
  private readonly recordQuery;
  private readonly limit: LimitFunction;
  readonly results: UnitResult[] = [];
  /** Leagues a unit wrote to: the ones whose sync time moves. */
  private readonly changedLeagues = new Set<string>();

  constructor(
    readonly db: DB,
    readonly provider: Provider,
    private readonly opts: SyncOptions,
  ) {
    this.snapshot = beginSnapshot(db);
    this.writer = new StoreWriter(db, this.snapshot);
    this.playContext = playContexts(db);
    this.settled = settledQuery(db);
    this.recordQuery = db.prepare('SELECT record FROM matches WHERE league_slug = ? AND id = ?').pluck();
    this.limit = pLimit(Math.max(1, opts.concurrency));
    this.startedAt = isoSeconds(opts.clock());
  }

  /** The match record as stored, if any. */
  storedRecord(league: string, id: string): MatchRecord | undefined {
    const packed = this.recordQuery.get(league, id) as Buffer | undefined;
    return packed === undefined ? undefined : (JSON.parse(unpackJson(packed)) as MatchRecord);
  }

  /** The clubs the store knows in the league (its listing as the teams unit stored it). */
  knownClubs(league: string): string[] {
    return this.db.prepare('SELECT club_id FROM league_clubs WHERE league_slug = ?').pluck().all(league) as string[];
  }

  /** The events whose summary and plays may still change: all of them for a provider that refetches finished ones. */
  unsettled(league: string, eventIds: string[]): string[] {
    return eventIds.filter((eventId) => this.provider.refetchFinished || !this.settled.get(league, eventId));
  }

  /**
   * Run one resource's units for a league: fetches go out concurrently under the shared bound, and
   * each payload is mapped and written in its own transaction, in key order — so the store ends up
   * the same whichever response arrived first.
   */
  async syncUnits<K, T>(league: string, units: Units<K, T>, keys: readonly K[]): Promise<void> {
    if (this.opts.signal?.aborted) return;
    this.opts.onPlanned?.(keys.length);
    const fetched = this.fetchAll(keys, units.fetch);
    for (const [i, k] of keys.entries()) {
      const key = units.keyOf(k);
      const got = await fetched[i]!;
      if ('payload' in got && got.payload === SKIPPED) continue;
      this.record(this.storeUnit(league, units, k, key, got));
    }
  }

  /**
   * Every key's fetch, queued under the shared bound. A fetch whose turn comes after the signal
   * fired is skipped, not tried; each settles rather than rejects, to be stored in key order.
   */
  private fetchAll<K, T>(keys: readonly K[], fetch: (k: K) => Promise<T | undefined>): Promise<Fetched<T>>[] {
    return keys.map((k) =>
      this.limit<[], T | undefined | typeof SKIPPED>(() => (this.opts.signal?.aborted ? SKIPPED : fetch(k))).then(
        (payload) => ({ payload }),
        (error: unknown) => ({ error }),
      ),
    );
  }

  /**
   * A fetched unit's payload mapped and written with its sync state in one transaction; a unit that
   * failed (fetching, mapping or writing, which is then rolled back) has its failure recorded instead.
   */
  private storeUnit<K, T>(league: string, units: Units<K, T>, k: K, key: string, got: Fetched<T>): UnitResult {
    const { resource } = units;
    try {
      if ('error' in got) throw got.error;
      if (got.payload === undefined) return { league, resource, key, status: 'unavailable', written: 0 };
      const payload = got.payload as T | typeof NOT_MODIFIED;
      const written = this.writer.transaction(() => {
        // Unchanged upstream (a 304): what is stored from it holds; only the unit's sync time moves.
        const n = payload === NOT_MODIFIED ? 0 : units.store(payload, k);
        this.writer.recordSyncState(league, resource, key, this.provider.name, this.startedAt, null);
        return n;
      });
      return { league, resource, key, status: 'ok', written };
    } catch (err) {
      const failed: UnitResult = { league, resource, key, status: 'failed', written: 0, error: message(err) };
      this.writer.recordSyncState(league, resource, key, this.provider.name, this.startedAt, failed.error!);
      return failed;
    }
  }

  /** Planning failed (e.g. the provider could not list what it has): the league is one failed unit. */
  planFailed(league: string, err: unknown): void {
    this.record({ league, resource: 'scoreboard', key: '*', status: 'failed', written: 0, error: message(err) });
  }

  private record(result: UnitResult): void {
    if (result.written > 0) this.changedLeagues.add(result.league);
    this.results.push(result);
    this.opts.onUnit?.(result);
  }

  tally(): Tally {
    const failures = this.results.filter((r) => r.status === 'failed');
    const ok = this.results.filter((r) => r.status === 'ok').length;
    const written = this.results.reduce((n, r) => n + r.written, 0);
    return { failures, ok, written, units: this.results.length };
  }

  /**
   * The changed leagues' sync time, the store's freshness times and the snapshot, in one transaction.
   * Times move only with data, so a sync that changes nothing leaves every response untouched
   * (docs/json-api.md, "Freshness"). The one exception is a clean sync after failed ones: saying so
   * is news. A sync stopped half way is not a clean one, whatever it got through.
   */
  closeSnapshot({ failures, ok, written }: Tally, finishedAt: string): void {
    const { db } = this;
    db.transaction(() => {
      for (const league of this.changedLeagues) this.writer.markLeagueSynced(league, finishedAt);
      const clean = failures.length === 0 && !this.opts.signal?.aborted;
      const recovered = clean && getMeta(db, META_LAST_SUCCESS) !== getMeta(db, META_SNAPSHOT_AT);
      const changed = written > 0 || (ok > 0 && recovered);
      if (written > 0) setMeta(db, META_SNAPSHOT_AT, finishedAt);
      if (ok > 0 && changed) setMeta(db, META_PROVIDER, this.provider.name);
      if (ok > 0 && clean && changed) setMeta(db, META_LAST_SUCCESS, finishedAt);
      endSnapshot(db, this.snapshot, finishedAt, changed);
    })();
  }

  report({ failures, ok, written, units }: Tally): SyncReport {
    return {
      provider: this.provider.name,
      units: { ok, failed: failures.length, unavailable: units - ok - failures.length },
      written,
      failures,
      ignored: this.provider.ignored?.() ?? [],
      snapshotAt: getMeta(this.db, META_SNAPSHOT_AT),
      aborted: !!this.opts.signal?.aborted,
    };
  }
}

const asKey = (k: string) => k;

/** The league's listing: its ESPN id and season, and the clubs in it. */
function teamUnits(run: SyncRun, league: string): Units<string, unknown> {
  const { provider, writer, startedAt } = run;
  return {
    resource: 'teams',
    keyOf: asKey,
    fetch: () => provider.teams(league),
    store: (payload) => {
      const t = mapTeams(payload);
      return (
        writer.updateLeagueInfo(league, t.espnLeagueId, t.season, false) +
        writer.setLeagueClubs(league, t.clubs, startedAt)
      );
    },
  };
}

/** A club's squad and coach, keyed by team id (and the club itself, when the roster describes it). */
function rosterUnits(run: SyncRun, league: string): Units<string, unknown> {
  const { provider, writer, startedAt } = run;
  return {
    resource: 'roster',
    keyOf: asKey,
    fetch: (teamId) => provider.roster(league, teamId),
    store: (payload, teamId) => {
      const r = mapRoster(payload, teamId);
      const clubChanges = r.club ? writer.upsertClub(league, r.club, startedAt, true) : 0;
      return clubChanges + writer.replaceRoster(league, teamId, r.players, r.coach, r.season, startedAt);
    },
  };
}

/**
 * A board's matches, keyed by date (or month); the events it lists are added to `board.listed`, and
 * those whose entry differs from the stored record in what matters (board-mark.ts) to `board.changed`.
 */
function scoreboardUnits(run: SyncRun, league: string, board: BoardOutcome): Units<string, unknown> {
  const { provider, writer, startedAt } = run;
  return {
    resource: 'scoreboard',
    keyOf: asKey,
    fetch: (date) => provider.scoreboard(league, date),
    store: (payload) => {
      const mapped = mapScoreboard(payload, provider.name);
      let n = writer.updateLeagueInfo(league, mapped.league.espnId, mapped.league.season, true);
      for (const m of mapped.matches) {
        board.listed.add(m.record.id);
        if (board.changed) {
          const stored = run.storedRecord(league, m.record.id);
          if (!stored || boardMark(stored) !== boardMark(m.record)) board.changed.add(m.record.id);
        }
        n += writer.upsertMatch(league, m, startedAt);
      }
      return n;
    },
  };
}

/**
 * A match's summary, keyed by event id: its sections, and the match record as the summary has it
 * where the store has none. For a reschedule check (a fixture that left the window unfinished,
 * asked by id) the summary's record also takes the stored one's place when it moved the kickoff or
 * the status (a reschedule, a postponement, a result) — no board will list that match again.
 */
function summaryUnits(run: SyncRun, league: string, reschedule = false): Units<string, unknown> {
  const { provider, writer, startedAt } = run;
  return {
    resource: 'summary',
    keyOf: asKey,
    fetch: (eventId) => provider.summary(league, eventId),
    store: (payload, eventId) => {
      const s = mapSummary(payload, provider.name);
      const r = s.match.record;
      if (r.id !== eventId) throw new Error(`summary payload is for event ${r.id}, not ${eventId}`);
      const stored = reschedule ? run.storedRecord(league, eventId) : undefined;
      const moved = reschedule && (!stored || stored.date !== r.date || stored.status.type.name !== r.status.type.name);
      return (
        writer.upsertMatch(league, s.match, startedAt, !moved) +
        writer.upsertSummary(league, eventId, s.sections, s.keyEventIds, startedAt)
      );
    },
  };
}

/** A match's play stream, keyed by event id, mapped against what the store knows of the match. */
function playUnits(run: SyncRun, league: string): Units<string, unknown[]> {
  const { provider, writer, startedAt, playContext } = run;
  return {
    resource: 'plays',
    keyOf: asKey,
    fetch: (eventId) => provider.plays(league, eventId),
    store: (pages, eventId) => {
      const mapped = mapPlays(pages, playContext(league, eventId));
      return writer.replacePlays(league, eventId, mapped.plays, mapped.complete, startedAt);
    },
  };
}

/** A season's table, keyed by season ('' for the provider's current one). */
function standingsUnits(run: SyncRun, league: string): Units<number | null, unknown> {
  const { provider, writer, startedAt } = run;
  return {
    resource: 'standings',
    keyOf: (season) => (season === null ? '' : String(season)),
    fetch: (season) => provider.standings(league, season),
    store: (payload, season) => {
      const s = mapStandings(payload, season);
      return writer.replaceStandings(league, s.season, s.groups, startedAt);
    },
  };
}

/**
 * A finished match whose summary and full play stream are stored cannot change any more — provided
 * both were taken once the store knew it was over: a stream is complete (every page) while the match
 * is still live, and the run whose board first says "finished" must still fetch the final summary
 * and plays. The match row's time moves only when its record changes, so "summary and plays taken
 * no earlier than the record" means "taken after the final whistle".
 */
function settledQuery(db: DB) {
  return db.prepare(
    `SELECT 1 FROM matches m
       JOIN match_summaries s ON s.league_slug = m.league_slug AND s.match_id = m.id
       JOIN play_streams p ON p.league_slug = m.league_slug AND p.match_id = m.id
       JOIN sync_state ss ON ss.league_slug = m.league_slug AND ss.resource = 'summary' AND ss.resource_key = m.id
       JOIN sync_state sp ON sp.league_slug = m.league_slug AND sp.resource = 'plays' AND sp.resource_key = m.id
     WHERE m.league_slug = ? AND m.id = ? AND m.state = 'post' AND m.completed = 1 AND p.complete = 1
       AND ss.last_success_at >= m.last_synced_at AND sp.last_success_at >= m.last_synced_at`,
  );
}
