/**
 * Every write the sync makes. Upserts are keyed on provider ids and change-detected by content hash:
 * a row is rewritten (and its last_synced_at moved) only when its content changed, so syncing the
 * same data twice writes nothing. Each method returns how many rows it actually changed.
 *
 * Nothing here deletes stored data on the strength of an empty payload: an empty roster, play
 * stream or standings table from the provider leaves what is stored in place.
 */
import type { DB } from './db.js';
import type {
  ClubRecord,
  CoachRecord,
  MatchEntry,
  PlayRecord,
  PlayerRecord,
  Resource,
  StandingsGroupRecord,
  SummarySections,
} from './records.js';
import { SUMMARY_SECTIONS, isFlagged, mergeClub } from './records.js';
import { contentHash } from '../util/hash.js';
import { packJson, sectionsJson, spansOf, streamOfTexts, unpackBytes } from './blob.js';
import { objectSpans } from '../util/json-spans.js';
import type { ChangeKind } from './snapshots.js';
import { writerStatements } from './writer-statements.js';
import { eventText } from './shape/event.js';
import type { StoredStream } from './important.js';
import { importantOfStored, importantStream, packFlags } from './important.js';

const isEmpty = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);

/**
 * A stored summary's sections as JSON texts, by name: undefined for a section it lacks or holds
 * empty (null, []). Cut out by the stored spans (or, lacking them, by scanning).
 */
function storedSections(stored: { sections: Buffer; spans: string | null }): (key: string) => string | undefined {
  const bytes = unpackBytes(stored.sections);
  const spans = stored.spans ? spansOf(stored.spans) : objectSpans(bytes);
  return (key) => {
    const span = spans.get(key);
    if (!span) return undefined;
    const text = bytes.subarray(span[0], span[1]).toString('utf8');
    return text === 'null' || text === '[]' ? undefined : text;
  };
}

export class StoreWriter {
  private readonly s;

  /**
   * `snapshot` is the id of the sync this writer works for (docs/publishing.md, "Incremental
   * builds"): every row it changes records it, and every change is logged under it in the same
   * transaction.
   */
  constructor(
    private readonly db: DB,
    readonly snapshot: number,
  ) {
    this.s = writerStatements(db);
  }

  /** Store a match as a scoreboard (or the summary header, when `onlyIfAbsent`) describes it. */
  upsertMatch(league: string, m: MatchEntry, now: string, onlyIfAbsent = false): number {
    const old = this.s.storedMatch.get(league, m.record.id) as
      | { day: string; kickoff: string; hash: string; state: string }
      | undefined;
    if (onlyIfAbsent && old) return 0;
    const json = JSON.stringify(m.record);
    const hash = contentHash(json);
    // Most upserts of a sync store what is stored already: the event text is serialized only for a change.
    const event = old?.hash === hash ? null : eventText(m.record);
    const [home, away] = m.record.competitors;
    let changed = 0;
    if (event) {
      changed = this.s.upsertMatch.run({
        league,
        id: m.record.id,
        kickoff: m.kickoff,
        scoreboardDate: m.scoreboardDate,
        state: m.record.status.type.state,
        statusName: m.record.status.type.name,
        completed: m.record.status.type.completed ? 1 : 0,
        homeId: home?.id ?? null,
        awayId: away?.id ?? null,
        seasonYear: m.record.season?.year ?? null,
        // The text for what the statement derives from it (columns.ts); the record is stored packed.
        json,
        record: packJson(json),
        eventJson: event.json,
        eventHoles: event.holes,
        hash,
        now,
        snapshot: this.snapshot,
      }).changes;
    }
    if (changed) {
      this.log('match', league, m.record.id);
      // The day's list changed, and so did the one the match left when its kickoff moved.
      this.log('day', league, m.scoreboardDate);
      if (old && old.day !== m.scoreboardDate) this.log('day', league, old.day);
      // What reads only a match's progress (its plays pages) need not follow every change of its record.
      if (old?.state !== m.record.status.type.state) this.log('state', league, m.record.id);
      // What lists the league's matches in kickoff order, page by page, shifts only when this does.
      if (old?.kickoff !== m.kickoff) this.log('order', league, '');
    }
    // Competitor snapshots teach the store about clubs it has no catalogue entry for yet.
    for (const c of m.record.competitors) changed += this.upsertClub(league, c.team, now, true);
    return changed;
  }

  private log(kind: ChangeKind, league: string, key: string): void {
    this.s.logChange.run(this.snapshot, kind, league, key);
  }

  upsertSummary(
    league: string,
    matchId: string,
    sections: SummarySections,
    keyEventIds: string[],
    now: string,
  ): number {
    const stored = this.s.storedSummary.get(league, matchId) as
      | { sections: Buffer; spans: string | null; hash: string; keyEvents: string | null }
      | undefined;
    // Each section as JSON; one the provider left empty keeps its stored text, cut out of the stored
    // summary by its spans rather than parsed (stored JSON.stringify output round-trips as itself).
    const old = stored ? storedSections(stored) : undefined;
    const members: Array<[string, string]> = [];
    for (const key of SUMMARY_SECTIONS) {
      const next = sections[key];
      const kept = isEmpty(next) ? old?.(key) : undefined;
      if (kept !== undefined) members.push([key, kept]);
      else if (next !== undefined) members.push([key, JSON.stringify(next)]);
    }
    const { bytes, spans } = sectionsJson(members);
    const hash = contentHash(bytes);
    const ids = JSON.stringify(keyEventIds);
    if (stored?.hash === hash) return 0;
    const row = [league, matchId, packJson(bytes), spans, ids, hash, now, this.snapshot];
    const changed = this.s.upsertSummary.run(...row).changes;
    if (changed) this.log('summary', league, matchId);
    // What reads only which plays are key events (important plays pages) need not follow every summary change.
    if (changed && stored?.keyEvents !== ids) {
      this.log('key-events', league, matchId);
      // The stream's important plays follow its key events (important.ts).
      const stream = this.s.storedStream.get(league, matchId) as StoredStream | undefined;
      const key = stream && importantOfStored(stream, ids);
      if (key) this.s.setImportant.run(key.count, key.plays, key.ends, league, matchId);
    }
    return changed;
  }

  /** Merge a club into the catalogue; `snapshotOnly` clubs (from matches) never overwrite catalogue fields. */
  upsertClub(league: string, club: ClubRecord, now: string, snapshotOnly = false): number {
    const storedJson = this.s.getClub.get(club.id) as string | undefined;
    const stored = storedJson ? (JSON.parse(storedJson) as ClubRecord) : undefined;
    const record = snapshotOnly && stored ? mergeClub(club, stored) : mergeClub(stored, club);
    const json = JSON.stringify(record);
    const changed = this.s.upsertClub.run(club.id, json, contentHash(json), now, this.snapshot).changes;
    if (changed) this.log('club', league, club.id);
    return changed;
  }

  /** The league's catalogue becomes exactly this list (unless the list is empty). */
  setLeagueClubs(league: string, clubs: ClubRecord[], now: string): number {
    if (clubs.length === 0) return 0;
    let changed = 0;
    const keep = new Set(clubs.map((c) => c.id));
    let membership = 0;
    for (const id of this.s.leagueClubs.all(league) as string[]) {
      if (!keep.has(id)) membership += this.s.removeLeagueClub.run(league, id).changes;
    }
    for (const club of clubs) {
      changed += this.upsertClub(league, club, now);
      membership += this.s.addLeagueClub.run(league, club.id).changes;
    }
    if (membership) this.log('catalogue', league, '');
    return changed + membership;
  }

  replaceRoster(
    league: string,
    clubId: string,
    players: PlayerRecord[],
    coach: CoachRecord | null,
    season: unknown,
    now: string,
  ): number {
    let changed = 0;
    if (coach) {
      const json = JSON.stringify(coach);
      const set = this.s.setCoach.run(json, this.snapshot, clubId, json).changes;
      if (set) this.log('club', league, clubId);
      changed += set;
    }
    if (players.length === 0) return changed;
    const joined = this.s.addLeagueClub.run(league, clubId).changes;
    if (joined) this.log('catalogue', league, '');
    changed += joined;
    const json = players.map((p) => JSON.stringify(p));
    const seasonJson = season ? JSON.stringify(season) : null;
    const hash = contentHash(league, seasonJson ?? '', ...json);
    if (this.s.rosterHash.get(clubId) === hash) return changed;
    this.s.deletePlayers.run(clubId);
    players.forEach((p, i) => {
      this.s.insertPlayer.run(clubId, p.id, i, json[i]!);
    });
    this.s.upsertRoster.run(clubId, league, seasonJson, hash, now, this.snapshot);
    this.log('roster', league, clubId);
    return changed + players.length;
  }

  replacePlays(league: string, matchId: string, plays: PlayRecord[], complete: boolean, now: string): number {
    if (plays.length === 0) return 0;
    // The stream as one JSON array (the bytes the API splices), with each play's id and flag, and
    // where each play ends in it, beside it; its hash is contentHash(complete, ...plays' JSON).
    const { bytes, ends, hash } = streamOfTexts(
      complete ? '1' : '0',
      plays.map((p) => JSON.stringify(p)),
    );
    if (this.s.streamHash.get(league, matchId) === hash) return 0;
    const flags = JSON.stringify(plays.map((p) => [p.id, isFlagged(p) ? 1 : 0]));
    const keyEvents = (this.s.keyEventsOf.get(league, matchId) as string | undefined) ?? null;
    const key = importantStream(bytes, ends, flags, keyEvents);
    const head = [league, matchId, plays.length, key.count, complete ? 1 : 0, hash, now, this.snapshot];
    const row = [...head, packJson(bytes), packFlags(flags), ends, key.plays, key.ends];
    this.s.upsertStream.run(...row);
    this.log('plays', league, matchId);
    return plays.length;
  }

  replaceStandings(league: string, season: number, groups: StandingsGroupRecord[], now: string): number {
    if (groups.length === 0) return 0;
    const seasonKey = String(season);
    let changed = 0;
    const keep = new Set(groups.map((g) => g.id));
    for (const id of this.s.groupIds.all(league, seasonKey) as string[]) {
      if (!keep.has(id)) changed += this.s.deleteGroup.run(league, seasonKey, id).changes;
    }
    groups.forEach((g, i) => {
      const json = JSON.stringify(g);
      changed += this.s.upsertGroup.run(
        league,
        seasonKey,
        g.id,
        i,
        json,
        contentHash(json),
        now,
        this.snapshot,
      ).changes;
    });
    if (changed) this.log('standings', league, seasonKey);
    return changed;
  }

  /**
   * What a payload says about the league itself. Scoreboards are authoritative for the season (and
   * only move it forward); a team list's terser season only fills a blank.
   */
  updateLeagueInfo(
    league: string,
    espnId: string | null,
    season: { year: number; displayName: string } | null,
    authoritative: boolean,
  ): number {
    const before = this.s.leagueRow.get(league) as { espn_id: string; season_json: string | null } | undefined;
    const after = this.s.leagueInfoAfter.get({
      slug: league,
      espnId,
      season: season ? JSON.stringify(season) : null,
      year: season?.year ?? null,
      authoritative: authoritative ? 1 : 0,
    }) as typeof before;
    if (!before || !after || (before.espn_id === after.espn_id && before.season_json === after.season_json)) return 0;
    this.s.setLeagueInfo.run(after.espn_id, after.season_json, this.snapshot, league);
    this.log('league', league, '');
    return 1;
  }

  markLeagueSynced(league: string, at: string): void {
    this.s.leagueSynced.run(at, league);
  }

  recordSyncState(
    league: string,
    resource: Resource,
    key: string,
    provider: string,
    at: string,
    error: string | null,
  ): void {
    this.s.syncState.run({ league, resource, key, provider, at, ok: error === null ? 1 : 0, error });
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
