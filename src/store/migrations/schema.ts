/**
 * The first two migrations, plain SQL: the normalized store, then change tracking
 * (docs/publishing.md, "Incremental builds").
 */

/** 1: the normalized store. */
export const normalizedStore = `
  CREATE TABLE store_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  CREATE TABLE leagues (
    slug           TEXT PRIMARY KEY,
    espn_id        TEXT NOT NULL,
    name           TEXT NOT NULL,
    abbreviation   TEXT NOT NULL,
    country        TEXT NOT NULL,
    kind           TEXT NOT NULL,
    logo           TEXT,
    season_json    TEXT,            -- {year, displayName} of the league's current season, when a payload said so
    last_synced_at TEXT             -- snapshot time of the last sync that changed this league's data
  ) STRICT;

  CREATE TABLE clubs (
    id             TEXT PRIMARY KEY,
    record_json    TEXT NOT NULL,   -- ClubRecord: identity, colours, logo, venue
    coach_json     TEXT,            -- CoachRecord, from the roster payload
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL
  ) STRICT;

  -- A club is in a league's catalogue when that league's /teams (or a roster) listed it.
  CREATE TABLE league_clubs (
    league_slug TEXT NOT NULL,
    club_id     TEXT NOT NULL,
    PRIMARY KEY (league_slug, club_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE players (
    club_id     TEXT NOT NULL,
    id          TEXT NOT NULL,
    ordinal     INTEGER NOT NULL,   -- position in the provider's roster listing
    record_json TEXT NOT NULL,      -- PlayerRecord
    PRIMARY KEY (club_id, id)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE rosters (
    club_id        TEXT PRIMARY KEY,
    league_slug    TEXT NOT NULL,
    season_json    TEXT,
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE matches (
    league_slug     TEXT NOT NULL,
    id              TEXT NOT NULL,
    kickoff         TEXT NOT NULL,  -- normalized ISO-8601 UTC with seconds, sortable as text
    scoreboard_date TEXT NOT NULL,  -- YYYYMMDD of the UTC kickoff
    state           TEXT NOT NULL,  -- pre | in | post | unknown
    status_name     TEXT NOT NULL,
    completed       INTEGER NOT NULL,
    home_id         TEXT,
    away_id         TEXT,
    season_year     INTEGER,
    record_json     TEXT NOT NULL,  -- MatchRecord
    hash            TEXT NOT NULL,
    last_synced_at  TEXT NOT NULL,
    PRIMARY KEY (league_slug, id)
  ) STRICT;
  CREATE INDEX matches_by_date  ON matches (league_slug, scoreboard_date, kickoff, id);
  CREATE INDEX matches_by_state ON matches (league_slug, state, kickoff, id);
  CREATE INDEX matches_by_kickoff ON matches (league_slug, kickoff, id);

  CREATE TABLE match_summaries (
    league_slug    TEXT NOT NULL,
    match_id       TEXT NOT NULL,
    sections_json  TEXT NOT NULL,   -- SummarySections: provider-shaped sections, absent ones omitted
    key_event_ids  TEXT NOT NULL,   -- JSON array of keyEvents ids, for the important-plays filter
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL,
    PRIMARY KEY (league_slug, match_id)
  ) STRICT;

  -- A rowid table: play rows are ~1 KB, too large for WITHOUT ROWID to pay off.
  CREATE TABLE plays (
    league_slug TEXT NOT NULL,
    match_id    TEXT NOT NULL,
    sequence    INTEGER NOT NULL,   -- 1-based position in the provider's play stream
    id          TEXT NOT NULL,
    flagged     INTEGER NOT NULL,   -- goal, card, substitution, penalty or own goal
    record_json TEXT NOT NULL,      -- PlayRecord, references already resolved
    UNIQUE (league_slug, match_id, sequence)
  ) STRICT;
  CREATE INDEX plays_flagged ON plays (league_slug, match_id, flagged, sequence);

  CREATE TABLE play_streams (
    league_slug    TEXT NOT NULL,
    match_id       TEXT NOT NULL,
    count          INTEGER NOT NULL,
    complete       INTEGER NOT NULL, -- every page of the provider's stream was stored
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL,
    PRIMARY KEY (league_slug, match_id)
  ) STRICT;

  CREATE TABLE standings (
    league_slug    TEXT NOT NULL,
    season         TEXT NOT NULL,   -- four-digit start year
    group_id       TEXT NOT NULL,
    ordinal        INTEGER NOT NULL,
    record_json    TEXT NOT NULL,   -- StandingsGroupRecord
    hash           TEXT NOT NULL,
    last_synced_at TEXT NOT NULL,
    PRIMARY KEY (league_slug, season, group_id)
  ) STRICT;

  CREATE TABLE sync_state (
    league_slug     TEXT NOT NULL,
    resource        TEXT NOT NULL,  -- scoreboard | summary | plays | teams | roster | standings
    resource_key    TEXT NOT NULL,  -- date, event id, team id or season ('' when the resource has one key)
    provider        TEXT NOT NULL,
    last_attempt_at TEXT NOT NULL,
    last_success_at TEXT,
    last_error      TEXT,
    PRIMARY KEY (league_slug, resource, resource_key)
  ) STRICT;
  `;

/** 2: change tracking: snapshots, what each changed, and the snapshot that last changed each record. */
export const changeTracking = `
  -- One row per sync that changed data; its id is allocated when the sync starts (at is NULL until
  -- it ends), so the id of a sync that crashed half way is never given to another.
  CREATE TABLE snapshots (
    id INTEGER PRIMARY KEY,
    at TEXT
  ) STRICT;

  -- What each snapshot changed, written in the same transaction as the change itself.
  --   match | summary | plays       league, match id
  --   day                           league, YYYYMMDD (a day whose list of matches changed)
  --   club | roster                 league of the payload, club id
  --   catalogue | league            league, ''
  --   standings                     league, season
  CREATE TABLE changes (
    snapshot    INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    league_slug TEXT NOT NULL,
    key         TEXT NOT NULL,
    PRIMARY KEY (snapshot, kind, league_slug, key)
  ) STRICT, WITHOUT ROWID;

  -- The snapshot that last changed each record (0: before change tracking).
  ALTER TABLE leagues ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE clubs ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE rosters ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE matches ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE match_summaries ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE play_streams ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE standings ADD COLUMN snapshot INTEGER NOT NULL DEFAULT 0;
  `;
