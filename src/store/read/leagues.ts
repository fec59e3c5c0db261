/** League rows, their coverage counts and the store-wide totals /meta reports. */
import type { DB } from '../db.js';
import type { Coverage, LeagueRow, StoreTotals } from './types.js';

interface RawLeague {
  slug: string;
  espn_id: string;
  name: string;
  abbreviation: string;
  country: string;
  kind: string;
  logo: string | null;
  season_json: string | null;
  last_synced_at: string | null;
}

const toLeague = (r: RawLeague): LeagueRow => ({
  slug: r.slug,
  espnId: r.espn_id,
  name: r.name,
  abbreviation: r.abbreviation,
  country: r.country,
  kind: r.kind,
  logo: r.logo,
  season: r.season_json ? (JSON.parse(r.season_json) as LeagueRow['season']) : null,
  lastSyncedAt: r.last_synced_at,
});

export class LeagueQueries {
  private readonly s;

  constructor(db: DB) {
    this.s = {
      all: db.prepare('SELECT * FROM leagues ORDER BY slug'),
      one: db.prepare('SELECT * FROM leagues WHERE slug = ?'),
      // One pass per table, grouped; the distinct-club count reads only the two id columns.
      matches: db.prepare('SELECT league_slug AS slug, COUNT(*) AS n FROM matches GROUP BY league_slug'),
      dedicated: db.prepare('SELECT league_slug AS slug, COUNT(*) AS n FROM league_clubs GROUP BY league_slug'),
      seen: db.prepare(`
        SELECT slug, COUNT(*) AS n FROM (
          SELECT league_slug AS slug, home_id AS club FROM matches WHERE home_id IS NOT NULL
          UNION
          SELECT league_slug, away_id FROM matches WHERE away_id IS NOT NULL
        ) GROUP BY slug`),
      groups: db.prepare('SELECT league_slug AS slug, COUNT(*) AS n FROM standings GROUP BY league_slug'),
      totals: db.prepare(`
        SELECT
          (SELECT COUNT(*) FROM leagues) AS competitions,
          (SELECT COUNT(*) FROM leagues WHERE kind = 'club') AS activeClubCompetitions,
          (SELECT COUNT(*) FROM leagues WHERE kind = 'international') AS activeInternationalCompetitions,
          (SELECT COUNT(DISTINCT league_slug) FROM matches) AS competitionsWithMatches,
          (SELECT COUNT(DISTINCT club_id) FROM league_clubs) AS dedicatedClubDocuments,
          (SELECT COUNT(*) FROM matches) AS matches,
          (SELECT coalesce(SUM(count), 0) FROM play_streams) AS playByPlayEvents,
          (SELECT COUNT(*) FROM standings) AS standingsGroups`),
    };
  }

  all(): LeagueRow[] {
    return (this.s.all.all() as RawLeague[]).map(toLeague);
  }

  bySlug(slug: string): LeagueRow | undefined {
    const row = this.s.one.get(slug) as RawLeague | undefined;
    return row ? toLeague(row) : undefined;
  }

  /** Coverage of every league with data; a league absent from the map has none. */
  coverage(): Map<string, Coverage> {
    const counts = (stmt: typeof this.s.matches) =>
      new Map((stmt.all() as Array<{ slug: string; n: number }>).map((r) => [r.slug, r.n]));
    const matches = counts(this.s.matches);
    const dedicated = counts(this.s.dedicated);
    const seen = counts(this.s.seen);
    const groups = counts(this.s.groups);
    const out = new Map<string, Coverage>();
    for (const slug of new Set([...matches.keys(), ...dedicated.keys(), ...seen.keys(), ...groups.keys()])) {
      const c = {
        matches: matches.get(slug) ?? 0,
        clubs: Math.max(dedicated.get(slug) ?? 0, seen.get(slug) ?? 0),
        dedicatedClubs: dedicated.get(slug) ?? 0,
        standingsGroups: groups.get(slug) ?? 0,
      };
      out.set(slug, { ...c, hasData: c.matches > 0 || c.clubs > 0 || c.standingsGroups > 0 });
    }
    return out;
  }

  totals(): StoreTotals {
    return this.s.totals.get() as StoreTotals;
  }
}
