/**
 * Every statement the store's writer runs (writer.ts), prepared once per writer: upserts that
 * rewrite a row only when its content hash changed, and the change log written beside them.
 */
import type { DB } from './db.js';
import { AWAY_SCORE, HOME_SCORE, hasStatistics, providerOf } from './columns.js';

export function writerStatements(db: DB) {
  return {
    logChange: db.prepare('INSERT OR IGNORE INTO changes (snapshot, kind, league_slug, key) VALUES (?, ?, ?, ?)'),
    storedMatch: db.prepare(
      'SELECT scoreboard_date AS day, kickoff, hash, state FROM matches WHERE league_slug = ? AND id = ?',
    ),
    upsertMatch: db.prepare(`
      INSERT INTO matches (league_slug, id, kickoff, scoreboard_date, state, status_name, completed, home_id, away_id,
        season_year, record, event_json, event_holes, home_score, away_score, provider, statistics, hash,
        last_synced_at, snapshot)
      VALUES (@league, @id, @kickoff, @scoreboardDate, @state, @statusName, @completed, @homeId, @awayId,
        @seasonYear, @record, @eventJson, @eventHoles, @json ${HOME_SCORE}, @json ${AWAY_SCORE}, ${providerOf('@json')},
        ${hasStatistics('@json')}, @hash, @now, @snapshot)
      ON CONFLICT (league_slug, id) DO UPDATE SET kickoff = excluded.kickoff,
        scoreboard_date = excluded.scoreboard_date,
        state = excluded.state, status_name = excluded.status_name, completed = excluded.completed,
        home_id = excluded.home_id, away_id = excluded.away_id, season_year = excluded.season_year,
        record = excluded.record, event_json = excluded.event_json, event_holes = excluded.event_holes,
        home_score = excluded.home_score, away_score = excluded.away_score,
        provider = excluded.provider, statistics = excluded.statistics,
        hash = excluded.hash, last_synced_at = excluded.last_synced_at, snapshot = excluded.snapshot
      WHERE matches.hash IS NOT excluded.hash`),
    storedSummary: db.prepare(
      'SELECT sections, section_spans AS spans, hash, key_event_ids AS keyEvents FROM match_summaries WHERE league_slug = ? AND match_id = ?',
    ),
    upsertSummary: db.prepare(`
      INSERT INTO match_summaries (league_slug, match_id, sections, section_spans, key_event_ids, hash, last_synced_at, snapshot)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (league_slug, match_id) DO UPDATE SET sections = excluded.sections,
        section_spans = excluded.section_spans,
        key_event_ids = excluded.key_event_ids, hash = excluded.hash, last_synced_at = excluded.last_synced_at,
        snapshot = excluded.snapshot
      WHERE match_summaries.hash IS NOT excluded.hash`),
    getClub: db.prepare('SELECT record_json FROM clubs WHERE id = ?').pluck(),
    upsertClub: db.prepare(`
      INSERT INTO clubs (id, record_json, coach_json, hash, last_synced_at, snapshot) VALUES (?, ?, NULL, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET record_json = excluded.record_json, hash = excluded.hash,
        last_synced_at = excluded.last_synced_at, snapshot = excluded.snapshot
      WHERE clubs.hash IS NOT excluded.hash`),
    setCoach: db.prepare('UPDATE clubs SET coach_json = ?, snapshot = ? WHERE id = ? AND coach_json IS NOT ?'),
    addLeagueClub: db.prepare('INSERT OR IGNORE INTO league_clubs (league_slug, club_id) VALUES (?, ?)'),
    leagueClubs: db.prepare('SELECT club_id FROM league_clubs WHERE league_slug = ?').pluck(),
    removeLeagueClub: db.prepare('DELETE FROM league_clubs WHERE league_slug = ? AND club_id = ?'),
    rosterHash: db.prepare('SELECT hash FROM rosters WHERE club_id = ?').pluck(),
    upsertRoster: db.prepare(`
      INSERT INTO rosters (club_id, league_slug, season_json, hash, last_synced_at, snapshot)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (club_id) DO UPDATE SET league_slug = excluded.league_slug, season_json = excluded.season_json,
        hash = excluded.hash, last_synced_at = excluded.last_synced_at, snapshot = excluded.snapshot`),
    deletePlayers: db.prepare('DELETE FROM players WHERE club_id = ?'),
    insertPlayer: db.prepare('INSERT INTO players (club_id, id, ordinal, record_json) VALUES (?, ?, ?, ?)'),
    streamHash: db.prepare('SELECT hash FROM play_streams WHERE league_slug = ? AND match_id = ?').pluck(),
    storedStream: db.prepare('SELECT flags, ends, plays FROM play_streams WHERE league_slug = ? AND match_id = ?'),
    keyEventsOf: db.prepare('SELECT key_event_ids FROM match_summaries WHERE league_slug = ? AND match_id = ?').pluck(),
    setImportant: db.prepare(
      'UPDATE play_streams SET important = ?, important_plays = ?, important_ends = ? WHERE league_slug = ? AND match_id = ?',
    ),
    upsertStream: db.prepare(`
      INSERT INTO play_streams (league_slug, match_id, count, important, complete, hash, last_synced_at, snapshot,
        plays, flags, ends, important_plays, important_ends)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (league_slug, match_id) DO UPDATE SET count = excluded.count, important = excluded.important,
        complete = excluded.complete, hash = excluded.hash, last_synced_at = excluded.last_synced_at,
        snapshot = excluded.snapshot, plays = excluded.plays, flags = excluded.flags, ends = excluded.ends,
        important_plays = excluded.important_plays, important_ends = excluded.important_ends`),
    upsertGroup: db.prepare(`
      INSERT INTO standings (league_slug, season, group_id, ordinal, record_json, hash, last_synced_at, snapshot)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (league_slug, season, group_id) DO UPDATE SET ordinal = excluded.ordinal,
        record_json = excluded.record_json, hash = excluded.hash, last_synced_at = excluded.last_synced_at,
        snapshot = excluded.snapshot
      WHERE standings.hash IS NOT excluded.hash OR standings.ordinal IS NOT excluded.ordinal`),
    groupIds: db.prepare('SELECT group_id FROM standings WHERE league_slug = ? AND season = ?').pluck(),
    deleteGroup: db.prepare('DELETE FROM standings WHERE league_slug = ? AND season = ? AND group_id = ?'),
    // The league's season only moves forward: an old recorded board must not roll it back.
    leagueInfoAfter: db.prepare(`
      SELECT coalesce(@espnId, espn_id) AS espn_id,
        CASE WHEN season_json IS NULL OR (@authoritative AND json_extract(season_json, '$.year') <= @year)
             THEN coalesce(@season, season_json) ELSE season_json END AS season_json
      FROM leagues WHERE slug = @slug`),
    setLeagueInfo: db.prepare('UPDATE leagues SET espn_id = ?, season_json = ?, snapshot = ? WHERE slug = ?'),
    leagueRow: db.prepare('SELECT espn_id, season_json FROM leagues WHERE slug = ?'),
    leagueSynced: db.prepare('UPDATE leagues SET last_synced_at = ? WHERE slug = ?'),
    syncState: db.prepare(`
      INSERT INTO sync_state (league_slug, resource, resource_key, provider, last_attempt_at, last_success_at,
        last_error)
      VALUES (@league, @resource, @key, @provider, @at, CASE WHEN @ok THEN @at END, @error)
      ON CONFLICT (league_slug, resource, resource_key) DO UPDATE SET provider = excluded.provider,
        last_attempt_at = excluded.last_attempt_at,
        last_success_at = CASE WHEN @ok THEN excluded.last_attempt_at ELSE sync_state.last_success_at END,
        last_error = excluded.last_error`),
  };
}
