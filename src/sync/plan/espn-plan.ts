/**
 * What a sync asks ESPN, by purpose, each part on its own period (docs/cli.md, "ESPN over HTTP").
 * The plan reads the store — the matches it holds, when each unit last succeeded — and its
 * own memory (store/plan-state.ts), so a one-shot `fds sync` and a restarted `fds live` follow the
 * same plan; `--full` asks everything.
 *
 * - window: the month boards the fixture window touches, hourly (every 15 minutes on a day with
 *   matches in the league);
 * - live: the Eastern day board of each hot league, every cycle; a match's summary when its board
 *   entry changed (and once a minute while in play), its plays after such a change;
 * - settle: a match that ended gets its summary, plays and the league's table, and again 30
 *   minutes later; then it is final;
 * - catalogue: team lists and tables daily; rosters and reschedule checks (a fixture that left the
 *   window unfinished, asked by id) daily, a few per run, oldest first;
 * - block: after a 403 nothing is asked until a deadline that doubles, 30 minutes to 6 hours.
 */
import type { DB } from '../../store/db.js';
import { PlanState } from '../../store/plan-state.js';
import { isoSeconds } from '../../util/time.js';
import type { Clock } from '../../util/time.js';
import type { MatchPlan, PlanNote, UnitResult } from '../provider.js';
import { easternDay, windowMonths } from './eastern.js';
import { PLAN } from './periods.js';

export interface EspnPlanOptions {
  /** The fixture window, UTC days YYYYMMDD inclusive. */
  from: string;
  to: string;
  seasons: readonly number[];
  full: boolean;
  clock: Clock;
  /** Jitter for the block's deadline. */
  random?: () => number;
}

interface Block {
  level: number;
  until: number;
}

type MatchRow = { id: string; kickoff: string; state: string };

export class EspnPlan {
  readonly state: PlanState;
  private readonly now: number;
  private readonly nowIso: string;
  private readonly q;
  private readonly hot = new Map<string, MatchRow[]>();
  private readonly block: Block | null;
  private share: { rosters: Map<string, Set<string>>; reschedules: Map<string, string[]> } | undefined;
  /** Leagues whose window part runs this time, and matches whose settle stage moves if their units succeed. */
  private readonly windowDue = new Set<string>();
  private readonly settling = new Map<string, { league: string; id: string; next: 'again' | 'final' }>();
  private readonly settledLeagues = new Set<string>();
  /** This run took the catalogue's accrued share (so the share starts accruing again). */
  private catalogueGranted = false;

  constructor(
    private readonly db: DB,
    private readonly leagues: readonly string[],
    private readonly opts: EspnPlanOptions,
  ) {
    this.state = new PlanState(db, 'espn');
    this.now = opts.clock().getTime();
    this.nowIso = isoSeconds(new Date(this.now));
    this.q = queries(db);
    const block = this.state.get('', 'block');
    this.block = block ? (JSON.parse(block.value) as Block) : null;
    for (const league of leagues) {
      const rows = this.q.hot.all({
        league,
        soon: iso(this.now + PLAN.hotBefore),
        started: iso(this.now - PLAN.hotIfNeverStarted),
        stuck: iso(this.now - PLAN.hotAtMost),
      }) as MatchRow[];
      if (rows.length) this.hot.set(league, rows);
    }
  }

  /**
   * This run's share of the catalogue. A run takes it before any unit (`begin`), so every league's
   * share comes from the same store; a plan made only for its note never works it out.
   */
  private get catalogue() {
    this.share ??= this.catalogueShare();
    return this.share;
  }

  /** The run starts: fix its catalogue share now. */
  begin(): this {
    void this.catalogue;
    return this;
  }

  /** Until when ESPN is not asked (a 403 was answered), or null. */
  get blockedUntil(): number | null {
    return !this.opts.full && this.block && this.block.until > this.now ? this.block.until : null;
  }

  hotLeagues(): string[] {
    return [...this.hot.keys()].sort();
  }

  /** The next kickoff's hot start after now, when no league is hot: when the loop should wake. */
  nextHotAt(): number | null {
    if (this.hot.size) return null;
    const next = this.q.nextKickoff.get(JSON.stringify(this.leagues), iso(this.now + PLAN.hotBefore)) as string | null;
    return next ? Date.parse(next) - PLAN.hotBefore : null;
  }

  note(): PlanNote {
    const until = this.blockedUntil;
    const next = this.nextHotAt();
    return {
      hot: this.hotLeagues(),
      blockedUntil: until === null ? null : iso(until),
      nextHotAt: next === null ? null : iso(next),
    };
  }

  /** Is a month to be asked day by day (it answered 400, or as many events as the limit)? */
  fallback(league: string, month: string): string | undefined {
    return this.state.get(league, `fallback:${month}`)?.value;
  }

  rememberFallback(league: string, month: string, why: string): void {
    this.state.set(league, `fallback:${month}`, why, this.nowIso);
  }

  teamsDue(league: string): boolean {
    if (this.blockedUntil !== null) return false;
    return this.opts.full || this.due(this.lastAsked(league, 'teams', ''), PLAN.catalogueEvery);
  }

  /**
   * Board keys for the league: the window's months (YYYYMM) when that part is due, and the Eastern
   * day (YYYYMMDD) of each hot match that no month asked this run covers.
   */
  boards(league: string): string[] {
    if (this.blockedUntil !== null) return [];
    const months = windowMonths(this.opts.from, this.opts.to);
    const keys = new Set<string>();
    const last = this.state.get(league, 'window')?.at;
    const onMatchday = (this.q.matchesOn.get(league, this.nowIso.slice(0, 10).replaceAll('-', '')) as number) > 0;
    if (this.opts.full || this.due(last, onMatchday ? PLAN.windowEveryOnMatchday : PLAN.windowEvery)) {
      this.windowDue.add(league);
      for (const m of months) keys.add(m);
    }
    for (const day of this.hotDays(league)) if (!keys.has(day.slice(0, 6))) keys.add(day);
    return [...keys].sort();
  }

  /** The Eastern days (YYYYMMDD) of the league's hot matches: the day boards a live cycle asks, at the least. */
  hotDays(league: string): string[] {
    return [...new Set((this.hot.get(league) ?? []).map((row) => easternDay(new Date(row.kickoff))))].sort();
  }

  /**
   * Summaries and plays, given what this run's boards listed and which of their entries changed
   * (board-mark.ts). Run after the boards are stored, so the store's states are the boards'.
   */
  matchPlan(league: string, listed: readonly string[], changed: ReadonlySet<string>): MatchPlan {
    const reschedules = this.catalogue.reschedules.get(league) ?? [];
    if (this.blockedUntil !== null) return { summaries: [], plays: [], reschedules: [] };
    if (this.opts.full) return { summaries: [...listed].sort(), plays: [...listed].sort(), reschedules };
    const summaries = new Set<string>();
    const plays = new Set<string>();
    const states = new Map(
      listed.map((id) => [id, this.q.match.get(league, id) as { state: string; kickoff: string } | undefined]),
    );
    for (const id of listed) {
      const m = states.get(id);
      if (!m) continue;
      // A fixture's entry changing (its odds, its form) is no reason to ask more unless it is hot.
      const kickoff = Date.parse(m.kickoff);
      const hot = kickoff - PLAN.hotBefore <= this.now && this.now < kickoff + PLAN.hotIfNeverStarted;
      if (changed.has(id) && (m.state !== 'pre' || hot)) {
        summaries.add(id);
        if (m.state !== 'pre') plays.add(id);
      }
      // In play (and not stuck there for hours: the window's refreshes see to such a one).
      if (m.state === 'in' && this.now - kickoff < PLAN.hotAtMost) {
        if (this.due(this.lastAsked(league, 'summary', id), PLAN.inPlaySummaryEvery)) summaries.add(id);
      }
    }
    // Settle: a finished match of the window once, again a while later, then final.
    for (const row of this.q.unsettled.all(league, this.windowStart) as Array<
      MatchRow & { stage: string | null; stageAt: string | null; complete: number }
    >) {
      if (row.stage === null) {
        // Stored before the plan kept stages: a final summary and complete stream need nothing more.
        if (row.complete) {
          this.state.set(league, `settle:${row.id}`, 'final', this.nowIso);
          continue;
        }
        const recent = this.now - Date.parse(row.kickoff) < PLAN.settleRecentWithin;
        this.settling.set(`${league}/${row.id}`, { league, id: row.id, next: recent ? 'again' : 'final' });
      } else if (row.stage === 'again' && this.now - Date.parse(row.stageAt!) >= PLAN.settleAgainAfter) {
        this.settling.set(`${league}/${row.id}`, { league, id: row.id, next: 'final' });
      } else continue;
      summaries.add(row.id);
      plays.add(row.id);
      this.settledLeagues.add(league);
    }
    return { summaries: [...summaries].sort(), plays: [...plays].sort(), reschedules };
  }

  rosterIds(league: string, known: readonly string[]): string[] {
    if (this.blockedUntil !== null) return [];
    if (this.opts.full) return [...new Set(known)].sort();
    return [...(this.catalogue.rosters.get(league) ?? [])].sort();
  }

  /** The current table daily and after a match settles; a past season's once. */
  standingsSeasons(league: string): Array<number | null> {
    if (this.blockedUntil !== null) return [];
    if (this.opts.full) return [null, ...this.opts.seasons];
    const out: Array<number | null> = [];
    const current = this.lastAsked(league, 'standings', '');
    if (this.settledLeagues.has(league) || this.due(current, PLAN.catalogueEvery)) out.push(null);
    for (const season of this.opts.seasons) if (!this.lastAsked(league, 'standings', String(season))) out.push(season);
    return out;
  }

  /**
   * The run is over: move each part's memory by what succeeded. `blocked` says a 403 was answered.
   */
  finish(results: readonly UnitResult[], blocked: boolean): void {
    const ok = (league: string, resource: string, key: string) =>
      results.some((r) => r.league === league && r.resource === resource && r.key === key && r.status !== 'failed');
    this.db.transaction(() => {
      for (const league of this.windowDue) {
        const months = windowMonths(this.opts.from, this.opts.to);
        if (months.every((m) => ok(league, 'scoreboard', m))) this.state.set(league, 'window', 'ok', this.nowIso);
      }
      for (const { league, id, next } of this.settling.values()) {
        if (ok(league, 'summary', id) && ok(league, 'plays', id))
          this.state.set(league, `settle:${id}`, next, this.nowIso);
      }
      for (const r of results)
        if (r.status === 'unavailable') this.state.set(r.league, `none:${r.resource}:${r.key}`, '404', this.nowIso);
      if (this.catalogueGranted) this.state.set('', 'catalogue', 'ok', this.nowIso);
      if (blocked) {
        const level = this.block ? this.block.level + 1 : 0;
        const base = Math.min(PLAN.blockMax, PLAN.blockFirst * 2 ** level);
        // ±10 %: clients blocked together do not all come back in the same second.
        const until = this.now + Math.round(base * (0.9 + 0.2 * (this.opts.random ?? Math.random)()));
        this.state.set('', 'block', JSON.stringify({ level, until } satisfies Block), this.nowIso);
      } else if (this.block && results.some((r) => r.status === 'ok')) {
        this.state.delete('', 'block');
      }
    })();
  }

  /** The first instant of the window (ISO-8601, as the store's kickoffs). */
  private get windowStart(): string {
    const f = this.opts.from;
    return `${f.slice(0, 4)}-${f.slice(4, 6)}-${f.slice(6)}T00:00:00Z`;
  }

  /**
   * When a unit was last answered: stored (sync_state) or answered 404, which stores nothing and
   * which the plan remembers itself, so that what ESPN does not have is not asked every run.
   */
  private lastAsked(league: string, resource: string, key: string): string | undefined {
    const stored = this.q.success.get(league, resource, key) as string | undefined;
    const none = this.state.get(league, `none:${resource}:${key}`)?.at;
    return !none || (stored && stored > none) ? stored : none;
  }

  private due(last: string | undefined | null, every: number): boolean {
    if (!last) return true;
    const at = Date.parse(last);
    return Number.isNaN(at) || this.now - at >= every;
  }

  /**
   * This run's share of the daily catalogue: rosters not stored for a day and fixtures that left the
   * window unfinished, oldest first, as many as the day's share since the last run (so they do not
   * all fall due in one burst), across every league.
   */
  private catalogueShare() {
    const rosters = new Map<string, Set<string>>();
    const reschedules = new Map<string, string[]>();
    if (this.opts.full || this.blockedUntil !== null) return { rosters, reschedules };
    const stale = iso(this.now - PLAN.catalogueEvery);
    const start = this.windowStart;
    type Item = { kind: 'roster' | 'reschedule'; league: string; id: string; last: string | null };
    const items: Item[] = [];
    let total = 0;
    for (const league of this.leagues) {
      for (const id of this.q.rosters.all(league) as string[]) {
        total++;
        const last = this.lastAsked(league, 'roster', id) ?? null;
        if (!last || last <= stale) items.push({ kind: 'roster', league, id, last });
      }
      for (const id of this.q.leftWindow.all(league, start) as string[]) {
        total++;
        const last = this.lastAsked(league, 'summary', id) ?? null;
        if (!last || last <= stale) items.push({ kind: 'reschedule', league, id, last });
      }
    }
    // The day's share since the share was last granted (it accrues over short cycles), and up to a
    // few never asked at all (a new store, a new club) on top.
    const lastRun = this.state.get('', 'catalogue')?.at;
    const elapsed = lastRun ? Math.max(0, this.now - Date.parse(lastRun)) : PLAN.catalogueEvery;
    const share = Math.floor((total * elapsed) / PLAN.catalogueEvery);
    const never = items.filter((i) => !i.last).length;
    const budget = Math.min(PLAN.catalogueBudget.max, Math.max(share, Math.min(never, PLAN.catalogueBudget.firstAsks)));
    this.catalogueGranted = share >= 1;
    items.sort(
      (a, b) =>
        (a.last ?? '').localeCompare(b.last ?? '') || a.league.localeCompare(b.league) || a.id.localeCompare(b.id),
    );
    for (const item of items.slice(0, budget)) {
      if (item.kind === 'roster') {
        const set = rosters.get(item.league) ?? new Set<string>();
        set.add(item.id);
        rosters.set(item.league, set);
      } else reschedules.set(item.league, [...(reschedules.get(item.league) ?? []), item.id]);
    }
    return { rosters, reschedules };
  }
}

const iso = (ms: number) => isoSeconds(new Date(ms));

function queries(db: DB) {
  return {
    /** Matches hot now: from shortly before kickoff until over (or long after a kickoff they never started from). */
    hot: db.prepare(
      `SELECT id, kickoff, state FROM matches
       WHERE league_slug = @league AND state <> 'post' AND kickoff <= @soon AND kickoff >= @stuck
         AND (state = 'in' OR kickoff >= @started)
       ORDER BY kickoff, id`,
    ),
    nextKickoff: db
      .prepare(
        `SELECT min(kickoff) FROM matches
         WHERE league_slug IN (SELECT value FROM json_each(?)) AND state = 'pre' AND kickoff > ?`,
      )
      .pluck(),
    matchesOn: db.prepare('SELECT count(*) FROM matches WHERE league_slug = ? AND scoreboard_date = ?').pluck(),
    match: db.prepare('SELECT state, kickoff FROM matches WHERE league_slug = ? AND id = ?'),
    success: db
      .prepare('SELECT last_success_at FROM sync_state WHERE league_slug = ? AND resource = ? AND resource_key = ?')
      .pluck(),
    /** Finished matches of the window whose settle stage is not final, with the stage. */
    unsettled: db.prepare(
      `SELECT m.id, m.kickoff, m.state, p.value AS stage, p.at AS stageAt,
         (s.match_id IS NOT NULL AND ps.complete = 1 AND ss.last_success_at >= m.last_synced_at
           AND sp.last_success_at >= m.last_synced_at) AS complete
       FROM matches m
       LEFT JOIN sync_plan p ON p.provider = 'espn' AND p.league_slug = m.league_slug AND p.key = 'settle:' || m.id
       LEFT JOIN match_summaries s ON s.league_slug = m.league_slug AND s.match_id = m.id
       LEFT JOIN play_streams ps ON ps.league_slug = m.league_slug AND ps.match_id = m.id
       LEFT JOIN sync_state ss ON ss.league_slug = m.league_slug AND ss.resource = 'summary' AND ss.resource_key = m.id
       LEFT JOIN sync_state sp ON sp.league_slug = m.league_slug AND sp.resource = 'plays' AND sp.resource_key = m.id
       WHERE m.league_slug = ? AND m.state = 'post' AND m.kickoff >= ? AND (p.value IS NULL OR p.value <> 'final')
       ORDER BY m.kickoff, m.id`,
    ),
    rosters: db.prepare('SELECT club_id FROM league_clubs WHERE league_slug = ?').pluck(),
    /** Fixtures that left the window unfinished. */
    leftWindow: db.prepare(`SELECT id FROM matches WHERE league_slug = ? AND state <> 'post' AND kickoff < ?`).pluck(),
  };
}
