/** League team list, club roster (with coach) and standings payloads. */
import type { DemoClub } from './clubs.js';
import { fullTeam, logos, positionObject, seasonObject } from './shapes.js';
import type { LeagueSeason, TableRow } from './progress.js';
import { recordString, resultsBy } from './progress.js';

export function teamsPayload(s: LeagueSeason) {
  return {
    sports: [
      {
        id: '600',
        uid: 's:600',
        name: 'Soccer',
        slug: 'soccer',
        leagues: [
          {
            id: s.ref.espnId,
            uid: `s:600~l:${s.ref.espnId}`,
            name: s.ref.name,
            abbreviation: s.ref.abbreviation,
            shortName: s.ref.abbreviation,
            slug: s.ref.slug,
            season: seasonObject(s),
            year: s.season.year,
            teams: s.clubs.map((club) => ({ team: fullTeam(club) })),
          },
        ],
      },
    ],
  };
}

const ordinalRank = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

export function rosterPayload(s: LeagueSeason, club: DemoClub) {
  const row = s.table.find((r) => r.club.id === club.id)!;
  // When the roster was asked for, as ESPN stamps it; the record and place below are as of then too.
  const stamp = new Date(s.clockMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    timestamp: stamp,
    status: 'success',
    season: { year: s.season.year, displayName: s.season.displayName, type: s.season.type, name: s.season.displayName },
    athletes: club.players.map((p) => ({
      id: p.id,
      uid: `s:600~a:${p.id}`,
      firstName: p.firstName,
      lastName: p.lastName,
      fullName: p.displayName,
      displayName: p.displayName,
      shortName: p.shortName,
      age: p.age,
      dateOfBirth: p.dateOfBirth,
      gender: 'MALE',
      citizenship: p.citizenship.name,
      citizenshipCountry: { abbreviation: p.citizenship.abbreviation },
      jersey: p.jersey,
      position: positionObject(p),
      injuries: [],
      status: { id: '1', name: 'Active', type: 'active', abbreviation: 'Active' },
    })),
    team: {
      ...fullTeam(club),
      logo: club.logo,
      recordSummary: recordString(resultsBy(s, club.id, s.clockMs)),
      seasonSummary: s.season.displayName,
      standingSummary: `${ordinalRank(row.rank)} in ${s.ref.name}`,
    },
    coach: [
      {
        id: club.coach.id,
        firstName: club.coach.firstName,
        lastName: club.coach.lastName,
        experience: club.coach.experience,
      },
    ],
  };
}

function zone(rank: number, size: number): { color: string; description: string; rank: number } | undefined {
  if (rank <= 4) return { color: '#81D6AC', description: 'Continental Cup (demo)', rank };
  if (rank === 5) return { color: '#B2D7F5', description: 'Continental Shield (demo)', rank };
  if (rank > size - 3) return { color: '#FF7F84', description: 'Relegation (demo)', rank };
  return undefined;
}

function entry(row: TableRow, size: number) {
  const gd = row.gf - row.ga;
  const stat = (
    name: string,
    displayName: string,
    abbreviation: string,
    value: number,
    displayValue = String(value),
  ) => ({
    name,
    displayName,
    shortDisplayName: abbreviation,
    abbreviation,
    type: name.toLowerCase(),
    value,
    displayValue,
  });
  const note = zone(row.rank, size);
  const club = row.club;
  return {
    team: {
      id: club.id,
      uid: `s:600~t:${club.id}`,
      location: club.location,
      name: club.name,
      abbreviation: club.abbreviation,
      displayName: club.displayName,
      shortDisplayName: club.shortDisplayName,
      color: club.color,
      alternateColor: club.alternateColor,
      isActive: true,
      logos: logos(club),
    },
    ...(note ? { note } : {}),
    stats: [
      stat('gamesPlayed', 'Games Played', 'GP', row.gp),
      stat('wins', 'Wins', 'W', row.w),
      stat('ties', 'Draws', 'D', row.d),
      stat('losses', 'Losses', 'L', row.l),
      stat('pointsFor', 'Goals For', 'F', row.gf),
      stat('pointsAgainst', 'Goals Against', 'A', row.ga),
      stat('pointDifferential', 'Goal Difference', 'GD', gd, gd > 0 ? `+${gd}` : String(gd)),
      stat('points', 'Points', 'P', row.pts),
      stat('rankChange', 'Rank Change', 'RC', 0),
      stat('rank', 'Rank', 'R', row.rank),
      stat('deductions', 'Point Deductions', 'PD', 0, ''),
      stat('ppg', 'Points Per Game', 'PPG', row.gp ? Math.round((row.pts / row.gp) * 100) / 100 : 0),
      {
        name: 'overall',
        displayName: 'Overall',
        shortDisplayName: 'OVER',
        abbreviation: 'Total',
        type: 'total',
        summary: `${row.w}-${row.d}-${row.l}`,
        displayValue: `${row.w}-${row.d}-${row.l}`,
      },
    ],
  };
}

export function standingsPayload(s: LeagueSeason) {
  const start = `${new Date(s.season.startMs).toISOString().slice(0, 16)}Z`;
  const end = `${new Date(s.season.endMs).toISOString().slice(0, 16)}Z`;
  return {
    uid: `s:600~l:${s.ref.espnId}`,
    id: s.ref.espnId,
    name: s.ref.name,
    abbreviation: s.ref.abbreviation,
    season: { year: s.season.year, startDate: start, endDate: end, displayName: s.season.displayName },
    seasons: [{ year: s.season.year, displayName: s.season.displayName }],
    children: [
      {
        uid: `s:600~l:${s.ref.espnId}~g:1`,
        id: '1',
        name: `${s.ref.name} ${s.season.displayName.split(' ')[0]}`,
        abbreviation: s.season.displayName.split(' ')[0],
        standings: {
          id: '0',
          name: 'overall',
          displayName: 'Overall Standings',
          season: s.season.year,
          seasonType: s.season.type,
          seasonDisplayName: s.season.displayName,
          entries: s.table.map((row) => entry(row, s.table.length)),
        },
      },
    ],
  };
}
