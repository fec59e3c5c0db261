/**
 * The sync: for each league, pull teams → rosters → scoreboards → summaries → plays → standings
 * from a provider, validate and map each payload, and store it. Each unit (league × resource × key)
 * is fetched, mapped and written in its own transaction; a unit that fails is rolled back and
 * recorded, and every other unit is kept.
 */
import pLimit from 'p-limit';
import type { DB } from '../store/db.js';
import { META_LAST_SUCCESS, META_PROVIDER, META_SNAPSHOT_AT, getMeta, setMeta } from '../store/db.js';
import { StoreWriter } from '../store/writer.js';
import { beginSnapshot, endSnapshot } from '../store/snapshots.js';
import type { Resource } from '../store/records.js';
import { mapScoreboard, mapSummary } from '../espn/map-events.js';
import { mapPlays } from '../espn/map-plays.js';
import { mapRoster, mapStandings, mapTeams } from '../espn/map-clubs.js';
import type { Provider } from './provider.js';
import { playContexts } from './play-context.js';
import { isoSeconds } from '../util/time.js';
import type { Clock } from '../util/time.js';

export interface UnitResult {
  league: string;
  resource: Resource;
  key: string;
  status: 'ok' | 'failed' | 'unavailable';
  written: number;
  error?: string;
}

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
  const snapshot = beginSnapshot(db);
  const writer = new StoreWriter(db, snapshot);
  const playContext = playContexts(db);
  const settled = settledQuery(db);
  const limit = pLimit(Math.max(1, opts.concurrency));
  const startedAt = isoSeconds(opts.clock());
  const results: UnitResult[] = [];
  const changedLeagues = new Set<string>();

  /**
   * Run one resource's units for a league: fetches go out concurrently under the shared bound, and
   * each payload is mapped and written in its own transaction, in key order — so the store ends up
   * the same whichever response arrived first.
   */
  async function phase<K, T>(
    league: string,
    resource: Resource,
    keys: readonly K[],
    keyOf: (k: K) => string,
    fetch: (k: K) => Promise<T | undefined>,
    store: (payload: T, k: K) => number,
  ): Promise<void> {
    if (opts.signal?.aborted) return;
    opts.onPlanned?.(keys.length);
    const fetched = keys.map((k) =>
      limit<[], T | undefined | typeof SKIPPED>(() => (opts.signal?.aborted ? SKIPPED : fetch(k))).then(
        (payload) => ({ payload }),
        (error: unknown) => ({ error }),
      ),
    );
    for (const [i, k] of keys.entries()) {
      const key = keyOf(k);
      const got = await fetched[i]!;
      if ('payload' in got && got.payload === SKIPPED) continue;
      let result: UnitResult;
      try {
        if ('error' in got) throw got.error;
        if (got.payload === undefined) {
          result = { league, resource, key, status: 'unavailable', written: 0 };
        } else {
          const payload = got.payload as T;
          const written = writer.transaction(() => {
            const n = store(payload, k);
            writer.recordSyncState(league, resource, key, provider.name, startedAt, null);
            return n;
          });
          result = { league, resource, key, status: 'ok', written };
        }
      } catch (err) {
        result = { league, resource, key, status: 'failed', written: 0, error: message(err) };
        writer.recordSyncState(league, resource, key, provider.name, startedAt, result.error!);
      }
      if (result.written > 0) changedLeagues.add(league);
      results.push(result);
      opts.onUnit?.(result);
    }
  }

  const id = (k: string) => k;

  async function syncLeague(league: string): Promise<void> {
    await phase(
      league,
      'teams',
      [''],
      id,
      () => provider.teams(league),
      (payload) => {
        const t = mapTeams(payload);
        return (
          writer.updateLeagueInfo(league, t.espnLeagueId, t.season, false) +
          writer.setLeagueClubs(league, t.clubs, startedAt)
        );
      },
    );

    const known = db.prepare('SELECT club_id FROM league_clubs WHERE league_slug = ?').pluck().all(league) as string[];
    await phase(
      league,
      'roster',
      await provider.rosterTeamIds(league, known),
      id,
      (teamId) => provider.roster(league, teamId),
      (payload, teamId) => {
        const r = mapRoster(payload, teamId);
        const clubChanges = r.club ? writer.upsertClub(league, r.club, startedAt, true) : 0;
        return clubChanges + writer.replaceRoster(league, teamId, r.players, r.coach, r.season, startedAt);
      },
    );

    const boardEvents = new Set<string>();
    await phase(
      league,
      'scoreboard',
      await provider.scoreboardDates(league),
      id,
      (date) => provider.scoreboard(league, date),
      (payload) => {
        const board = mapScoreboard(payload, provider.name);
        let n = writer.updateLeagueInfo(league, board.league.espnId, board.league.season, true);
        for (const m of board.matches) {
          boardEvents.add(m.record.id);
          n += writer.upsertMatch(league, m, startedAt);
        }
        return n;
      },
    );

    const eventIds = (await provider.eventIds(league, [...boardEvents].sort())).filter(
      (eventId) => provider.refetchFinished || !settled.get(league, eventId),
    );
    await phase(
      league,
      'summary',
      eventIds,
      id,
      (eventId) => provider.summary(league, eventId),
      (payload, eventId) => {
        const s = mapSummary(payload, provider.name);
        if (s.match.record.id !== eventId)
          throw new Error(`summary payload is for event ${s.match.record.id}, not ${eventId}`);
        return (
          writer.upsertMatch(league, s.match, startedAt, true) +
          writer.upsertSummary(league, eventId, s.sections, s.keyEventIds, startedAt)
        );
      },
    );
    // Plays after summaries: a summary's lineups name the athletes that core plays only link to.
    await phase(
      league,
      'plays',
      eventIds,
      id,
      (eventId) => provider.plays(league, eventId),
      (pages, eventId) => {
        const mapped = mapPlays(pages, playContext(league, eventId));
        return writer.replacePlays(league, eventId, mapped.plays, mapped.complete, startedAt);
      },
    );

    await phase(
      league,
      'standings',
      await provider.standingsSeasons(league),
      (season) => (season === null ? '' : String(season)),
      (season) => provider.standings(league, season),
      (payload, season) => {
        const s = mapStandings(payload, season);
        return writer.replaceStandings(league, s.season, s.groups, startedAt);
      },
    );
  }

  // Leagues run side by side; the shared limiter bounds how many fetches are in flight overall.
  await Promise.all(
    opts.leagues.map((league) =>
      syncLeague(league).catch((err) => {
        // Planning failed (e.g. the provider could not list what it has): the league is one failed unit.
        const r: UnitResult = {
          league,
          resource: 'scoreboard',
          key: '*',
          status: 'failed',
          written: 0,
          error: message(err),
        };
        results.push(r);
        opts.onUnit?.(r);
      }),
    ),
  );

  const finishedAt = isoSeconds(opts.clock());
  const failures = results.filter((r) => r.status === 'failed');
  const ok = results.filter((r) => r.status === 'ok').length;
  const written = results.reduce((n, r) => n + r.written, 0);
  db.transaction(() => {
    for (const league of changedLeagues) writer.markLeagueSynced(league, finishedAt);
    // Times move only with data, so a sync that changes nothing leaves every response untouched
    // (CONTRACT §2.4). The one exception is a clean sync after failed ones: saying so is news.
    // A sync stopped half way is not a clean one, whatever it got through.
    const clean = failures.length === 0 && !opts.signal?.aborted;
    const recovered = clean && getMeta(db, META_LAST_SUCCESS) !== getMeta(db, META_SNAPSHOT_AT);
    const changed = written > 0 || (ok > 0 && recovered);
    if (written > 0) setMeta(db, META_SNAPSHOT_AT, finishedAt);
    if (ok > 0 && changed) setMeta(db, META_PROVIDER, provider.name);
    if (ok > 0 && clean && changed) setMeta(db, META_LAST_SUCCESS, finishedAt);
    endSnapshot(db, snapshot, finishedAt, changed);
  })();
  return {
    provider: provider.name,
    units: { ok, failed: failures.length, unavailable: results.length - ok - failures.length },
    written,
    failures,
    ignored: provider.ignored?.() ?? [],
    snapshotAt: getMeta(db, META_SNAPSHOT_AT),
    aborted: !!opts.signal?.aborted,
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
