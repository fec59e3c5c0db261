/**
 * A league's club catalogue: the clubs its team list or rosters named (league_clubs), plus clubs
 * seen only in its matches. Match-only clubs come from the clubs table (the sync records every
 * competitor there) or, failing that, from the competitor snapshot of their latest match.
 */
import type { DB } from '../db.js';
import { unpackJson } from '../blob.js';
import type { ClubRecord, CoachRecord, MatchRecord, PlayerRecord } from '../records.js';
import type { CatalogSource } from '../shape/club.js';
import type { ClubRow } from './types.js';

const SEEN = `SELECT home_id AS id FROM matches WHERE league_slug = @league AND home_id IS NOT NULL
  UNION SELECT away_id FROM matches WHERE league_slug = @league AND away_id IS NOT NULL`;

export interface ClubDetailRow extends ClubRow {
  coach: CoachRecord | null;
  lastSyncedAt: string | null;
}

export class ClubQueries {
  private readonly s;

  constructor(db: DB) {
    this.s = {
      catalogueIds: db.prepare('SELECT club_id FROM league_clubs WHERE league_slug = ?').pluck(),
      list: db.prepare(`
        SELECT s.id, c.record_json, s.catalogue FROM (
          SELECT club_id AS id, 1 AS catalogue FROM league_clubs WHERE league_slug = @league
          UNION ALL
          SELECT id, 0 FROM (${SEEN}) WHERE id NOT IN (SELECT club_id FROM league_clubs WHERE league_slug = @league)
        ) s LEFT JOIN clubs c ON c.id = s.id`),
      inCatalogue: db
        .prepare('SELECT EXISTS (SELECT 1 FROM league_clubs WHERE league_slug = ? AND club_id = ?)')
        .pluck(),
      seenIn: db
        .prepare(`SELECT record FROM matches WHERE league_slug = @league AND (home_id = @id OR away_id = @id)
        ORDER BY kickoff DESC, id DESC LIMIT 1`)
        .pluck(),
      club: db.prepare('SELECT record_json, coach_json, last_synced_at FROM clubs WHERE id = ?'),
      rosterSynced: db.prepare('SELECT last_synced_at FROM rosters WHERE club_id = ?').pluck(),
      players: db.prepare('SELECT record_json FROM players WHERE club_id = ? ORDER BY ordinal, id').pluck(),
    };
  }

  catalogueIds(league: string): Set<string> {
    return new Set(this.s.catalogueIds.all(league) as string[]);
  }

  /** Every club of the league, unsorted; a catalogue club without any stored record is left out. */
  list(league: string): ClubRow[] {
    const rows = this.s.list.all({ league }) as Array<{ id: string; record_json: string | null; catalogue: number }>;
    const out: ClubRow[] = [];
    for (const r of rows) {
      const record = r.record_json ? (JSON.parse(r.record_json) as ClubRecord) : this.fromMatches(league, r.id);
      if (record) out.push({ record, catalogSource: r.catalogue ? 'club-catalog' : 'match-snapshot' });
    }
    return out;
  }

  detail(league: string, id: string): ClubDetailRow | undefined {
    const catalogSource: CatalogSource = this.s.inCatalogue.get(league, id) === 1 ? 'club-catalog' : 'match-snapshot';
    const seenInMatches = catalogSource === 'match-snapshot' ? this.fromMatches(league, id) : undefined;
    if (catalogSource === 'match-snapshot' && !seenInMatches) return undefined;
    const row = this.s.club.get(id) as
      | { record_json: string; coach_json: string | null; last_synced_at: string }
      | undefined;
    const record = row ? (JSON.parse(row.record_json) as ClubRecord) : seenInMatches;
    if (!record) return undefined;
    const rosterSynced = this.s.rosterSynced.get(id) as string | undefined;
    return {
      record,
      catalogSource,
      coach: row?.coach_json ? (JSON.parse(row.coach_json) as CoachRecord) : null,
      lastSyncedAt: latest(row?.last_synced_at, rosterSynced),
    };
  }

  players(clubId: string): PlayerRecord[] {
    return (this.s.players.all(clubId) as string[]).map((json) => JSON.parse(json) as PlayerRecord);
  }

  private fromMatches(league: string, id: string): ClubRecord | undefined {
    const packed = this.s.seenIn.get({ league, id }) as Buffer | undefined;
    if (!packed) return undefined;
    return (JSON.parse(unpackJson(packed)) as MatchRecord).competitors.find((c) => c.team.id === id)?.team;
  }
}

function latest(a: string | undefined, b: string | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a > b ? a : b;
}
