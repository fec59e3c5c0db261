/** The demo's clubs: identity, colours, venue, squad and coach, all derived from (seed, league). */
import type { LeagueRef } from '../../../reference/leagues.js';
import { LEAGUE_SLUGS } from '../../../reference/leagues.js';
import { COUNTRIES, LEAGUE_REGION, clubName, countryNamed, personName, regionSlice, townsFor } from './names.js';
import type { Country, Region } from './names.js';
import type { Rng } from './random.js';
import { rngFor } from './random.js';

export type Pos = 'G' | 'D' | 'M' | 'F';

export const POSITIONS: Record<Pos, { id: string; name: string; abbreviation: Pos }> = {
  G: { id: '1', name: 'Goalkeeper', abbreviation: 'G' },
  D: { id: '2', name: 'Defender', abbreviation: 'D' },
  M: { id: '3', name: 'Midfielder', abbreviation: 'M' },
  F: { id: '4', name: 'Forward', abbreviation: 'F' },
};

export interface DemoPlayer {
  id: string;
  clubId: string;
  firstName: string;
  lastName: string;
  displayName: string;
  shortName: string;
  jersey: string;
  pos: Pos;
  age: number;
  dateOfBirth: string;
  citizenship: Country;
}

export interface DemoVenue {
  id: string;
  fullName: string;
  city: string;
  country: string;
  capacity: number;
}

export interface DemoClub {
  id: string;
  index: number;
  slug: string;
  location: string;
  name: string;
  displayName: string;
  shortDisplayName: string;
  abbreviation: string;
  color: string;
  alternateColor: string;
  logo: string;
  darkLogo: string;
  venue: DemoVenue;
  /** Relative playing strength; drives goal expectations. */
  strength: number;
  players: DemoPlayer[];
  coach: { id: string; firstName: string; lastName: string; experience: number };
}

/**
 * Club counts per league (18 or 20, even, so every matchday pairs everyone). Fixed rather than
 * random so the demo's size is predictable: 7 × 20 + 9 × 18 clubs give 5,414 matches at scale 1.
 */
const CLUB_COUNT: Record<string, number> = {
  'arg.1': 20,
  'bra.1': 20,
  'eng.1': 20,
  'esp.1': 20,
  'ita.1': 20,
  'jpn.1': 20,
  'usa.1': 20,
};
export const clubCount = (slug: string): number => CLUB_COUNT[slug] ?? 18;

const PALETTE = [
  'c8102e',
  '003f87',
  '0b6e4f',
  'f2a900',
  '6a1b9a',
  'e35205',
  '1d1d1b',
  '00a3e0',
  '7a0019',
  'ffffff',
  '005c3c',
  'd4af37',
  '8a1538',
  '1b365d',
  'ef3340',
  '4b2e83',
  '00857d',
  'fdda24',
  '5c2d91',
  'a6192e',
];

/** Reserved `.invalid` host: the demo must not point at anyone's real artwork. */
export const DEMO_ASSET_HOST = 'https://demo.invalid';

function abbreviationFor(town: string, taken: Set<string>): string {
  const letters = town
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase();
  const candidates = [
    letters.slice(0, 3),
    letters[0]! + letters.slice(2, 4),
    letters[0]! + letters[1]! + letters.at(-1)!,
    letters[0]! + letters.slice(-2),
  ];
  for (let i = 0; i < letters.length; i++) candidates.push(letters[0]! + letters[1]! + letters[i]!);
  const pick = candidates.find((c) => c.length === 3 && !taken.has(c)) ?? `${letters.slice(0, 2)}${taken.size % 10}`;
  taken.add(pick);
  return pick;
}

const slugify = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole years between a birth date and a day. */
function ageOn(birthMs: number, dayMs: number): number {
  const b = new Date(birthMs);
  const r = new Date(dayMs);
  let age = r.getUTCFullYear() - b.getUTCFullYear();
  if (r.getUTCMonth() < b.getUTCMonth() || (r.getUTCMonth() === b.getUTCMonth() && r.getUTCDate() < b.getUTCDate()))
    age--;
  return age;
}

function makePlayer(
  rng: Rng,
  club: { id: string },
  n: number,
  pos: Pos,
  jersey: number,
  home: Country,
  seasonStartMs: number,
): DemoPlayer {
  // Roughly a quarter of a squad comes from abroad, as in most top divisions.
  const citizenship = rng.chance(0.27) ? rng.pick(COUNTRIES.filter((c) => c.name !== home.name)) : home;
  const { firstName, lastName } = personName(rng, citizenship.region);
  // Birth dates hang off 1 January of the season's first year, so every season's squad is of
  // plausible age; ages are as of the season's start and do not move while the season runs.
  const anchor = Date.UTC(new Date(seasonStartMs).getUTCFullYear(), 0, 1);
  const birthMs = anchor - rng.int(17 * 365 + 30, 36 * 365) * 86_400_000;
  return {
    id: `${club.id}${String(n).padStart(2, '0')}`,
    clubId: club.id,
    firstName,
    lastName,
    displayName: `${firstName} ${lastName}`,
    shortName: `${firstName.charAt(0)}. ${lastName}`,
    jersey: String(jersey),
    pos,
    age: ageOn(birthMs, seasonStartMs),
    dateOfBirth: `${isoDay(birthMs)}T00:00Z`,
    citizenship,
  };
}

function makeSquad(rng: Rng, club: { id: string }, home: Country, seasonStartMs: number): DemoPlayer[] {
  const counts: Array<[Pos, number]> = [
    ['G', 3],
    ['D', rng.int(7, 8)],
    ['M', rng.int(7, 9)],
    ['F', rng.int(5, 6)],
  ];
  const gkNumbers = [1, 13, rng.pick([25, 30, 31, 40])];
  const free = rng.shuffle(Array.from({ length: 44 }, (_, i) => i + 2).filter((j) => !gkNumbers.includes(j)));
  const squad: DemoPlayer[] = [];
  for (const [pos, count] of counts) {
    for (let i = 0; i < count; i++) {
      const jersey = pos === 'G' ? gkNumbers[i]! : free.pop()!;
      squad.push(makePlayer(rng, club, squad.length + 1, pos, jersey, home, seasonStartMs));
    }
  }
  return squad;
}

export interface LeagueClubs {
  region: Region;
  country: Country;
  clubs: DemoClub[];
  officials: string[];
}

export function buildClubs(seed: number, ref: LeagueRef, leagueIndex: number, seasonStartMs: number): LeagueClubs {
  const region = LEAGUE_REGION[ref.slug] ?? 'en';
  const country = countryNamed(ref.country, region);
  const n = clubCount(ref.slug);
  const slice = regionSlice(ref.slug, LEAGUE_SLUGS);
  const towns = townsFor(seed, region, slice.index, slice.count, n);
  const rng = rngFor(seed, 'clubs', ref.slug);
  const taken = new Set<string>();
  const clubs = towns.map((town, k): DemoClub => {
    const id = String(900000 + leagueIndex * 100 + k + 1);
    const displayName = clubName(rng, region, town);
    const [color, alternateColor] = rng.shuffle([...PALETTE]).slice(0, 2) as [string, string];
    const clubRng = rngFor(seed, 'club', id);
    const squad = makeSquad(clubRng, { id }, country, seasonStartMs);
    const coach = personName(clubRng, clubRng.chance(0.7) ? region : clubRng.pick(COUNTRIES).region);
    return {
      id,
      index: k,
      slug: `${ref.slug.split('.')[0]}.${slugify(displayName)}`,
      location: town,
      name: displayName,
      displayName,
      shortDisplayName: town,
      abbreviation: abbreviationFor(town, taken),
      color,
      alternateColor,
      logo: `${DEMO_ASSET_HOST}/i/teamlogos/soccer/500/${id}.png`,
      darkLogo: `${DEMO_ASSET_HOST}/i/teamlogos/soccer/500-dark/${id}.png`,
      venue: {
        id: String(Number(id) + 100000),
        fullName: `${town} ${rng.pick(['Park', 'Stadium', 'Arena', 'Ground', 'Field'])}`,
        city: town,
        country: ref.country,
        capacity: rng.int(12, 70) * 1000,
      },
      strength: 0.65 + rng.next() * 0.75,
      players: squad,
      coach: { id: `${id}90`, ...coach, experience: clubRng.int(1, 24) },
    };
  });
  const officials = Array.from({ length: 10 }, () => {
    const p = personName(rng, region);
    return `${p.firstName} ${p.lastName}`;
  });
  return { region, country, clubs, officials };
}
