/**
 * Matches and their summaries. Every list is ordered by kickoff then id and paged in SQL: the
 * fixtures filter on scoreboard_date is also expressed as a kickoff range (scoreboard_date is the
 * UTC day of the kickoff), so the (league, kickoff) and (league, state, kickoff) indexes serve the
 * range, the order and the LIMIT without a sort.
 */
import type { DB } from '../db.js';
import type { MatchRecord, MatchState } from '../records.js';
import type { EventRow, FixtureFilter, MatchFacts, MatchRow, SummaryRow } from './types.js';
import { addDays, parseYmd, ymd } from '../../util/time.js';
import { spansOf, summarySize, unpackBytes, unpackJson } from '../blob.js';
import { objectSpans } from '../../util/json-spans.js';
import { MATCH_CHANGES } from '../snapshots.js';
import { eventText } from '../shape/event.js';

interface RawMatch {
  /** The record, packed (schema 12, migrations/packed-records.ts). */
  record: Buffer;
  state: MatchState;
  last_synced_at: string;
}

const toMatch = (r: RawMatch): MatchRow => ({
  record: JSON.parse(unpackJson(r.record)) as MatchRecord,
  state: r.state,
  lastSyncedAt: r.last_synced_at,
});

/** `20260321` → `2026-03-21`, the prefix every kickoff on that day starts with. */
const isoDay = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;

const nextIsoDay = (day: string) => isoDay(ymd(addDays(parseYmd(day)!, 1)));

function bounds(league: string, f: FixtureFilter) {
  return {
    league,
    state: f.state,
    from: f.from ?? '',
    to: f.to ?? '99999999',
    lo: f.from ? isoDay(f.from) : '',
    // Any ISO kickoff sorts below '~'.
    hi: f.to ? nextIsoDay(f.to) : '~',
  };
}

/**
 * A match's event as the API lists it: stored beside its record (migrations/derived.ts), or — in a
 * store that leaves it out to stay small (the Netlify Function's slim store) — its record, to derive it from.
 */
const EVENT = `state, event_json AS json, event_holes AS holes,
  CASE WHEN length(event_json) = 0 THEN record END AS record`;

/** Rows of EVENT as EventRows: an event left out of the store is derived from its record. */
function events(rows: Array<EventRow & { record: Buffer | null }>): EventRow[] {
  for (const r of rows)
    if (r.record !== null) Object.assign(r, eventText(JSON.parse(unpackJson(r.record)) as MatchRecord));
  return rows;
}

/** A summary's stored sections (deflated) and spans as a SummaryRow: read alike from a store and a deploy's blob. */
export function summaryRow(sections: Buffer, sectionSpans: string | null, lastSyncedAt: string): SummaryRow {
  // The stored spans first: they tell how large the inflated JSON is.
  const stored = sectionSpans === null ? null : spansOf(sectionSpans);
  const json = unpackBytes(sections, stored ? summarySize(stored) : undefined);
  return { json, spans: stored ?? objectSpans(json), lastSyncedAt };
}

const RANGE = `league_slug = @league AND kickoff >= @lo AND kickoff < @hi AND scoreboard_date BETWEEN @from AND @to`;

export class MatchQueries {
  private readonly s;

  constructor(db: DB) {
    this.s = {
      onDate: db.prepare(`SELECT record, state, last_synced_at FROM matches
        WHERE league_slug = ? AND scoreboard_date = ? ORDER BY kickoff, id`),
      count: db.prepare(`SELECT COUNT(*) FROM matches WHERE ${RANGE}`).pluck(),
      countState: db.prepare(`SELECT COUNT(*) FROM matches WHERE ${RANGE} AND state = @state`).pluck(),
      eventsOnDate: db.prepare(`SELECT ${EVENT} FROM matches
        WHERE league_slug = ? AND scoreboard_date = ? ORDER BY kickoff, id`),
      page: db.prepare(`SELECT ${EVENT} FROM matches WHERE ${RANGE}
        ORDER BY kickoff, id LIMIT @limit OFFSET @offset`),
      pageState: db.prepare(`SELECT ${EVENT} FROM matches WHERE ${RANGE}
        AND state = @state ORDER BY kickoff, id LIMIT @limit OFFSET @offset`),
      one: db.prepare('SELECT record, state, last_synced_at FROM matches WHERE league_slug = ? AND id = ?'),
      // Stored beside the record (schema 9, match-facts.ts): it stays unread.
      facts: db.prepare(`SELECT state, last_synced_at AS lastSyncedAt, provider, statistics
        FROM matches WHERE league_slug = ? AND id = ?`),
      day: db.prepare('SELECT state, scoreboard_date AS day FROM matches WHERE league_slug = ? AND id = ?'),
      // From an index that holds it: a build asks it of every plays page, and the table's rows, which
      // hold the records, would each be read for it.
      state: db.prepare('SELECT state FROM matches INDEXED BY matches_scores WHERE league_slug = ? AND id = ?').pluck(),
      // The matches a snapshot changed (their record, summary or plays), as they stand now: from an
      // index that holds what the feed lists of each (a first sync changes every match). Each kind's
      // rows come in key order, so merging them (UNION … ORDER BY) needs no temporary b-tree, and the
      // join keeps that order. Each as the JSON the feed lists: a first sync's snapshot lists every
      // match of the store, and SQLite writes them for a fraction of what rows made into objects cost.
      changedIn: db
        .prepare(`SELECT json_object('league', c.league_slug, 'id', c.key, 'state', m.state,
          'homeScore', m.home_score, 'awayScore', m.away_score)
        FROM (${[...MATCH_CHANGES]
          .map((k) => `SELECT league_slug, key FROM changes WHERE snapshot = @snapshot AND kind = '${k}'`)
          .join(' UNION ')} ORDER BY 1, 2) c
        LEFT JOIN matches m INDEXED BY matches_scores ON m.league_slug = c.league_slug AND m.id = c.key
        ORDER BY c.league_slug, c.key`)
        .pluck(),
      summary: db.prepare(
        'SELECT sections, section_spans, last_synced_at FROM match_summaries WHERE league_slug = ? AND match_id = ?',
      ),
      daysInOrder: db.prepare('SELECT scoreboard_date FROM matches WHERE league_slug = ? ORDER BY kickoff, id').pluck(),
      dates: db
        .prepare('SELECT DISTINCT scoreboard_date FROM matches WHERE league_slug = ? ORDER BY scoreboard_date')
        .pluck(),
      // Positional parameters and one column: binding named ones and building row objects cost more
      // than the index walk (a build asks for every match twice).
      idsAfter: db
        .prepare(`SELECT id FROM matches WHERE league_slug = ? AND (kickoff, id) > (?, ?)
        ORDER BY kickoff, id LIMIT ?`)
        .pluck(),
      lastAfter: db
        .prepare(`SELECT kickoff, id FROM matches WHERE league_slug = ? AND (kickoff, id) > (?, ?)
        ORDER BY kickoff, id LIMIT 1 OFFSET ?`)
        .raw(),
    };
  }

  onDate(league: string, ymd: string): MatchRow[] {
    return (this.s.onDate.all(league, ymd) as RawMatch[]).map(toMatch);
  }

  /** A day's events as stored (shape/event.ts), in kickoff order. */
  eventsOnDate(league: string, ymd: string): EventRow[] {
    return events(this.s.eventsOnDate.all(league, ymd) as Array<EventRow & { record: Buffer | null }>);
  }

  /** The scoreboard day of each of a league's matches, in the order fixtures list them (from an index). */
  daysInOrder(league: string): string[] {
    return this.s.daysInOrder.all(league) as string[];
  }

  count(league: string, filter: FixtureFilter): number {
    const b = bounds(league, filter);
    return (filter.state ? this.s.countState.get(b) : this.s.count.get(b)) as number;
  }

  /** One page of a league's events as stored, in kickoff order. */
  page(league: string, filter: FixtureFilter, limit: number, offset: number): EventRow[] {
    const b = { ...bounds(league, filter), limit, offset };
    return events(
      (filter.state ? this.s.pageState.all(b) : this.s.page.all(b)) as Array<EventRow & { record: Buffer | null }>,
    );
  }

  byId(league: string, id: string): MatchRow | undefined {
    const row = this.s.one.get(league, id) as RawMatch | undefined;
    return row ? toMatch(row) : undefined;
  }

  /** What a summary needs of a match's record (MatchFacts), without parsing the record. */
  facts(league: string, id: string): MatchFacts | undefined {
    const row = this.s.facts.get(league, id) as (Omit<MatchFacts, 'statistics'> & { statistics: number }) | undefined;
    return row && { ...row, statistics: row.statistics === 1 };
  }

  /** A match's state and UTC kickoff day (YYYYMMDD), without reading its record. */
  dayOf(league: string, id: string): { state: MatchState; day: string } | undefined {
    return this.s.day.get(league, id) as { state: MatchState; day: string } | undefined;
  }

  /** A match's state, without reading its record. */
  stateOf(league: string, id: string): MatchState | undefined {
    return this.s.state.get(league, id) as MatchState | undefined;
  }

  /**
   * The matches snapshot `id` changed — their record, summary or plays — by league and id, as a JSON
   * array of `{league, id, state, homeScore, awayScore}` with their state and scores now (null for a
   * match the store no longer has).
   */
  changedIn(id: number): string {
    return `[${(this.s.changedIn.all({ snapshot: id }) as string[]).join(',')}]`;
  }

  /** The stored sections as their JSON bytes: the API passes them through without parsing them. */
  summary(league: string, id: string): SummaryRow | undefined {
    const row = this.s.summary.get(league, id) as
      | { sections: Buffer; section_spans: string | null; last_synced_at: string }
      | undefined;
    return row && summaryRow(row.sections, row.section_spans, row.last_synced_at);
  }

  /** Every stored scoreboard day of a league, ascending. */
  dates(league: string): string[] {
    return this.s.dates.all(league) as string[];
  }

  /**
   * Match ids of a league in kickoff order, fetched in batches. No statement stays open between
   * batches, so the caller may run other queries — and read transactions — while it iterates; a
   * build reads in one transaction, so the batches and their cursors see one state of the store.
   */
  *ids(league: string, batch = 1000): Generator<string> {
    let after: [string, string] = ['', ''];
    for (;;) {
      const rows = this.s.idsAfter.all(league, ...after, batch) as string[];
      for (const id of rows) yield id;
      if (rows.length < batch) return;
      // The batch's last row again, with its kickoff: the next batch starts after it.
      after = this.s.lastAfter.get(league, ...after, batch - 1) as [string, string];
    }
  }
}
