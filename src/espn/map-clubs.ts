/** League team lists, rosters (with coach) and standings → club, player and standings records. */
import type { ClubRecord, CoachRecord, PlayerRecord, StandingsGroupRecord } from '../store/records.js';
import { mapClub, mapStat } from './map-common.js';
import { RosterSchema, StandingsSchema, TeamsSchema } from './schemas.js';

export interface MappedTeams {
  clubs: ClubRecord[];
  espnLeagueId: string | null;
  season: { year: number; displayName: string } | null;
}

export function mapTeams(payload: unknown): MappedTeams {
  const parsed = TeamsSchema.parse(payload);
  const league = parsed.sports[0]!.leagues[0]!;
  return {
    clubs: league.teams.map((t) => mapClub(t.team)),
    espnLeagueId: league.id ?? null,
    season: league.season
      ? { year: league.season.year, displayName: league.season.displayName ?? String(league.season.year) }
      : null,
  };
}

export interface MappedRoster {
  /** What the roster payload says about the club itself (may be partial). */
  club: ClubRecord | null;
  players: PlayerRecord[];
  coach: CoachRecord | null;
  season: { year: number; displayName: string } | null;
}

export function mapRoster(payload: unknown, teamId: string): MappedRoster {
  const r = RosterSchema.parse(payload);
  if (r.team?.id !== undefined && r.team.id !== teamId) {
    throw new Error(`roster payload is for team ${r.team.id}, not ${teamId}`);
  }
  const players = r.athletes.map(
    (a): PlayerRecord => ({
      id: a.id,
      displayName: a.displayName,
      shortName: a.shortName ?? a.displayName,
      jersey: a.jersey === undefined || a.jersey === '' ? null : String(a.jersey),
      position: a.position?.name ? { name: a.position.name, abbreviation: a.position.abbreviation ?? null } : null,
      age: a.age ?? null,
      citizenship: a.citizenship ?? null,
    }),
  );
  const c = Array.isArray(r.coach) ? r.coach[0] : r.coach;
  const coachName = c ? (c.displayName ?? [c.firstName, c.lastName].filter(Boolean).join(' ')) : '';
  return {
    club: r.team?.id ? mapClub({ ...r.team, id: r.team.id }) : null,
    players,
    coach:
      c && coachName
        ? {
            id: c.id ?? null,
            displayName: coachName,
            firstName: c.firstName ?? null,
            lastName: c.lastName ?? null,
            experience: c.experience ?? null,
          }
        : null,
    season: r.season ? { year: r.season.year, displayName: r.season.displayName ?? String(r.season.year) } : null,
  };
}

export interface MappedStandings {
  season: number;
  groups: StandingsGroupRecord[];
}

const rankOf = (stats: { name: string; value: number | null }[]): number | null =>
  stats.find((s) => s.name === 'rank')?.value ?? null;

/**
 * The season comes from the payload when it says (`season.year`, a group's `standings.season`),
 * else from the file or request it was asked for.
 */
export function mapStandings(payload: unknown, requestedSeason: number | null): MappedStandings {
  const s = StandingsSchema.parse(payload);
  const season =
    s.season?.year ?? s.children.find((c) => c.standings.season !== undefined)?.standings.season ?? requestedSeason;
  if (season === null || season === undefined) throw new Error('standings payload does not say which season it is');
  const groups = s.children.map((child): StandingsGroupRecord => {
    const entries = child.standings.entries.map((e) => {
      const stats = e.stats.map(mapStat);
      return {
        team: mapClub(e.team),
        stats,
        note: e.note
          ? { color: e.note.color ?? null, description: e.note.description ?? null, rank: e.note.rank ?? null }
          : null,
        rank: rankOf(stats),
      };
    });
    // ESPN does not promise rank order (group tables arrive shuffled); unranked entries go last, by team id.
    entries.sort(
      (a, b) =>
        (a.rank ?? Infinity) - (b.rank ?? Infinity) || (a.team.id < b.team.id ? -1 : a.team.id > b.team.id ? 1 : 0),
    );
    return {
      id: child.id,
      name: child.name ?? s.name ?? child.id,
      abbreviation: child.abbreviation ?? child.name ?? child.id,
      season,
      entries,
    };
  });
  return { season, groups };
}
