/** docs/json-api.md clubs, club detail and standings. */
import { expect } from 'vitest';
import type { ContractCase } from './types.js';

const CLUB_KEYS = [
  'id',
  'uid',
  'name',
  'displayName',
  'shortDisplayName',
  'abbreviation',
  'location',
  'country',
  'city',
  'logo',
  'color',
  'alternateColor',
  'foundedYear',
  'venue',
  'isActive',
  'catalogSource',
];

const clubPairs = (b: any) => b.clubs.map((c: { id: string; catalogSource: string }) => [c.id, c.catalogSource]);

export const CLUB_CASES: ContractCase[] = [
  {
    name: 'clubs: the catalogue plus clubs seen only in matches, by display name',
    url: '/get/soccer/esp.1/clubs',
    status: 200,
    cache: 'public, max-age=60',
    check: (b) => {
      expect(Object.keys(b)).toEqual(['league', 'clubs', 'meta']);
      // Code-unit order: every capital sorts before a lower-case initial.
      expect(clubPairs(b)).toEqual([
        ['2001', 'club-catalog'],
        ['2004', 'match-snapshot'],
        ['2003', 'club-catalog'],
        ['2002', 'club-catalog'],
      ]);
      expect(Object.keys(b.clubs[0])).toEqual(CLUB_KEYS);
      expect(b.meta).toEqual({ count: 4, dedicatedCatalogCount: 3, matchSnapshotFallback: true });
    },
  },
  {
    name: 'a league whose catalogue is one roster falls back to its matches for the rest',
    url: '/get/soccer/eng.1/clubs',
    status: 200,
    check: (b) => {
      expect(b.meta).toEqual({ count: 4, dedicatedCatalogCount: 1, matchSnapshotFallback: true });
      expect(b.clubs.find((c: { id: string }) => c.id === '1001').catalogSource).toBe('club-catalog');
    },
  },
  {
    name: 'a league without data has no clubs',
    url: '/get/soccer/ita.1/clubs',
    status: 200,
    check: (b) =>
      expect([b.clubs, b.meta]).toEqual([[], { count: 0, dedicatedCatalogCount: 0, matchSnapshotFallback: false }]),
  },
  {
    name: 'a catalogue club with its roster and coach',
    url: '/get/soccer/eng.1/clubs/1001',
    status: 200,
    cache: 'public, max-age=60',
    check: (b) => {
      expect(Object.keys(b)).toEqual(['club', 'roster', 'coach', 'lastSyncedAt', 'meta']);
      expect(b.club).toMatchObject({ id: '1001', displayName: 'Harbour Town', catalogSource: 'club-catalog' });
      expect(b.roster.map((p: { id: string }) => p.id)).toEqual(['5001', '5002', '7001']);
      expect(Object.keys(b.roster[0])).toEqual([
        'id',
        'displayName',
        'shortName',
        'jersey',
        'position',
        'age',
        'citizenship',
      ]);
      expect(b.coach).toMatchObject({ displayName: 'Eve Harbour' });
      expect(b.meta).toEqual({ catalogSource: 'club-catalog', rosterAvailable: true });
    },
  },
  {
    name: 'a club known only from matches has no roster and no coach',
    url: '/get/soccer/esp.1/clubs/2004',
    status: 200,
    check: (b) => {
      expect(b.club).toMatchObject({ id: '2004', displayName: 'Bosque FC', catalogSource: 'match-snapshot' });
      expect([b.roster, b.coach]).toEqual([[], null]);
      expect(b.meta).toEqual({ catalogSource: 'match-snapshot', rosterAvailable: false });
    },
  },
  {
    name: 'a club of another league is not found here',
    url: '/get/soccer/esp.1/clubs/1001',
    status: 404,
    error: 'Club not found',
  },
  { name: 'an unknown club is 404', url: '/get/soccer/eng.1/clubs/999999', status: 404, error: 'Club not found' },
  {
    name: 'club detail of an unknown league is 404',
    url: '/get/soccer/xxx.9/clubs/1001',
    status: 404,
    error: 'League not found',
  },
  {
    name: "standings default to the league's current season when it is stored, entries by rank",
    url: '/get/soccer/eng.1/standings',
    status: 200,
    cache: 'public, max-age=30',
    check: (b) => {
      expect(Object.keys(b)).toEqual(['id', 'name', 'abbreviation', 'season', 'children']);
      expect(b).toMatchObject({ id: '700', name: 'English Premier League', season: 2025 });
      const group = b.children[0];
      expect(Object.keys(group)).toEqual(['id', 'name', 'abbreviation', 'standings', 'lastSyncedAt']);
      expect(group.standings.season).toBe(2025);
      expect(group.standings.entries.map((e: { rank: number }) => e.rank)).toEqual([1, 2]);
      expect(Object.keys(group.standings.entries[0])).toEqual(['team', 'stats', 'note', 'rank']);
      expect(Object.keys(group.standings.entries[0].stats[0])).toEqual([
        'name',
        'abbreviation',
        'displayValue',
        'value',
      ]);
    },
  },
  {
    name: 'standings default to the latest stored season when the current one is not stored',
    url: '/get/soccer/esp.1/standings',
    status: 200,
    check: (b) => {
      expect(b.season).toBe(2025);
      expect(b.children[0].standings.entries.map((e: { team: { id: string } }) => e.team.id)).toEqual([
        '2003',
        '2002',
        '2001',
      ]);
    },
  },
  {
    name: 'season picks a stored season',
    url: '/get/soccer/esp.1/standings?season=2024',
    status: 200,
    check: (b) => expect([b.season, b.children[0].standings.season]).toEqual([2024, 2024]),
  },
  {
    name: 'a season with nothing stored has no groups',
    url: '/get/soccer/esp.1/standings?season=1999',
    status: 200,
    check: (b) => expect([b.season, b.children]).toEqual([1999, []]),
  },
  {
    name: 'a league without standings has no groups',
    url: '/get/soccer/ger.1/standings',
    status: 200,
    check: (b) => expect(b.children).toEqual([]),
  },
  {
    name: 'an empty season is the default',
    url: '/get/soccer/esp.1/standings?season=',
    status: 200,
    check: (b) => expect(b.season).toBe(2025),
  },
  ...['25', '20255', 'abcd', '2025.0'].map(
    (v): ContractCase => ({
      name: 'season must be four digits',
      url: `/get/soccer/eng.1/standings?season=${v}`,
      status: 400,
      error: 'season must be a four-digit year',
    }),
  ),
  {
    name: 'standings of an unknown league are 404',
    url: '/get/soccer/xxx.9/standings',
    status: 404,
    error: 'League not found',
  },
];
