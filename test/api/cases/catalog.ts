import { LEAGUE_REF_KEYS } from './general.js';
/** docs/json-api.md leagues and meta. */
import { expect } from 'vitest';
import { SNAPSHOT_AT } from '../helpers/api-store.js';
import type { ContractCase } from './types.js';

/** A league in the catalogue: its LeagueRef, then what only /leagues carries. */
const LEAGUE_KEYS = [...LEAGUE_REF_KEYS, 'lastSyncedAt', 'coverage'];
const SIXTEEN = [
  'arg.1',
  'bel.1',
  'bra.1',
  'ned.1',
  'eng.1',
  'fra.1',
  'ger.1',
  'ita.1',
  'jpn.1',
  'usa.1',
  'mex.1',
  'por.1',
  'ksa.1',
  'sco.1',
  'esp.1',
  'tur.1',
];

const slugs = (b: any) => b.leagues.map((l: { slug: string }) => l.slug);

export const CATALOG_CASES: ContractCase[] = [
  {
    name: 'lists the club leagues by name with their coverage by default',
    url: '/get/soccer/leagues',
    status: 200,
    cache: 'public, max-age=60',
    check: (b) => {
      expect(Object.keys(b)).toEqual(['meta', 'leagues']);
      expect(b.meta).toEqual({ kind: 'club', availableOnly: false, count: 16, generatedAt: SNAPSHOT_AT });
      expect(slugs(b)).toEqual(SIXTEEN);
      const eng = b.leagues.find((l: { slug: string }) => l.slug === 'eng.1');
      expect(Object.keys(eng)).toEqual(LEAGUE_KEYS);
      expect(eng).toMatchObject({
        id: '700',
        uid: 's:600~l:700',
        name: 'English Premier League',
        country: 'England',
        kind: 'club',
        active: true,
      });
      expect(eng.season).toEqual({ year: 2025, displayName: '2025-26 English Premier League' });
      // Four clubs play in its matches though the catalogue (one roster) names only one.
      expect(eng.coverage).toEqual({ matches: 4, clubs: 4, dedicatedClubs: 1, standingsGroups: 1, hasData: true });
      const ger = b.leagues.find((l: { slug: string }) => l.slug === 'ger.1');
      expect(ger.coverage).toEqual({ matches: 0, clubs: 0, dedicatedClubs: 0, standingsGroups: 0, hasData: false });
      expect(ger.lastSyncedAt).toBeNull();
    },
  },
  {
    name: 'available=true keeps only leagues with data',
    url: '/get/soccer/leagues?available=true',
    status: 200,
    check: (b) => {
      expect(slugs(b)).toEqual(['eng.1', 'esp.1']);
      expect(b.meta).toMatchObject({ availableOnly: true, count: 2 });
      expect(b.leagues[1].coverage).toEqual({
        matches: 4,
        clubs: 4,
        dedicatedClubs: 3,
        standingsGroups: 2,
        hasData: true,
      });
    },
  },
  {
    name: 'kind is case-insensitive and all includes every kind',
    url: '/get/soccer/leagues?kind=ALL',
    status: 200,
    check: (b) => expect(b.meta).toMatchObject({ kind: 'all', count: 16 }),
  },
  {
    name: 'kind=international lists none of the 16 club leagues',
    url: '/get/soccer/leagues?kind=international',
    status: 200,
    check: (b) => expect(b.leagues).toEqual([]),
  },
  {
    name: 'an unknown kind is 400',
    url: '/get/soccer/leagues?kind=cup',
    status: 400,
    error: 'kind must be club, international, or all',
  },
  ...['TRUE', 'yes', '1', 'False'].map(
    (v): ContractCase => ({
      name: 'available must be exactly true or false',
      url: `/get/soccer/leagues?available=${v}`,
      status: 400,
      error: 'available must be true or false',
    }),
  ),
  {
    name: 'meta describes the service and counts what the store holds',
    url: '/get/soccer/meta',
    status: 200,
    cache: 'public, max-age=60',
    check: (b) => {
      expect(Object.keys(b)).toEqual(['service', 'coverage', 'features', 'lastSuccessfulSyncAt', 'generatedAt']);
      expect(b.service).toMatchObject({ version: '2.0.0', dataSource: 'files', upstreamCallsDuringRequest: false });
      expect(b.coverage).toEqual({
        competitions: 16,
        activeClubCompetitions: 16,
        activeInternationalCompetitions: 0,
        competitionsWithMatches: 2,
        dedicatedClubDocuments: 4,
        matches: 8,
        playByPlayEvents: 8,
        standingsGroups: 3,
      });
      expect(b.features.length).toBeGreaterThan(0);
      expect(b.lastSuccessfulSyncAt).toBe(SNAPSHOT_AT);
      expect(b.generatedAt).toBe(SNAPSHOT_AT);
    },
  },
];
