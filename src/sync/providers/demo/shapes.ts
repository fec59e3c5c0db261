/** ESPN shapes shared by several demo payloads: league and team objects, statuses, play clocks. */
import { POSITIONS } from './clubs.js';
import type { DemoClub, DemoPlayer } from './clubs.js';
import type { DemoMatch } from './season.js';
import type { LeagueSeason } from './progress.js';
import type { MatchClock } from './match-clock.js';
import type { Kind, MatchEvent } from './timeline.js';
import { periodEnd } from './timeline.js';

export const CORE = 'http://sports.core.api.espn.com/v2/sports/soccer';
export const SOURCE = { id: '38', description: 'SA.ENVOY' };

export function leagueObject(s: LeagueSeason) {
  return {
    id: s.ref.espnId,
    uid: `s:600~l:${s.ref.espnId}`,
    name: s.ref.name,
    abbreviation: s.ref.abbreviation,
    midsizeName: s.ref.slug.toUpperCase(),
    slug: s.ref.slug,
    season: seasonObject(s),
  };
}

export function seasonObject(s: LeagueSeason) {
  return { year: s.season.year, displayName: s.season.displayName };
}

export function venueObject(club: DemoClub) {
  const v = club.venue;
  return { id: v.id, fullName: v.fullName, address: { city: v.city, country: v.country } };
}

export function logos(club: DemoClub) {
  return [
    { href: club.logo, width: 500, height: 500, alt: '', rel: ['full', 'default'] },
    { href: club.darkLogo, width: 500, height: 500, alt: '', rel: ['full', 'dark'] },
  ];
}

/** The whole club, as the team list and the roster describe it. */
export function fullTeam(club: DemoClub) {
  return {
    id: club.id,
    uid: `s:600~t:${club.id}`,
    slug: club.slug,
    location: club.location,
    name: club.name,
    abbreviation: club.abbreviation,
    displayName: club.displayName,
    shortDisplayName: club.shortDisplayName,
    color: club.color,
    alternateColor: club.alternateColor,
    isActive: true,
    isAllStar: false,
    logos: logos(club),
    venue: venueObject(club),
  };
}

/** The club as a scoreboard competitor carries it (single `logo`, venue). */
export function boardTeam(club: DemoClub) {
  return {
    id: club.id,
    uid: `s:600~t:${club.id}`,
    abbreviation: club.abbreviation,
    displayName: club.displayName,
    shortDisplayName: club.shortDisplayName,
    name: club.name,
    location: club.location,
    color: club.color,
    alternateColor: club.alternateColor,
    isActive: true,
    logo: club.logo,
    venue: venueObject(club),
  };
}

export const teamRef = (s: LeagueSeason, id: string) => ({
  $ref: `${CORE}/leagues/${s.ref.slug}/seasons/${s.season.year}/teams/${id}?lang=en&region=us`,
});
export const athleteRef = (s: LeagueSeason, id: string) => ({
  $ref: `${CORE}/leagues/${s.ref.slug}/seasons/${s.season.year}/athletes/${id}?lang=en&region=us`,
});

export function positionObject(p: DemoPlayer) {
  const pos = POSITIONS[p.pos];
  return { id: pos.id, name: pos.name, displayName: pos.name, abbreviation: pos.abbreviation };
}

/** The play clock as ESPN writes it: the clock stops at 45'/90' and stoppage goes into `addedClock`. */
export function playClock(ev: Pick<MatchEvent, 'period' | 't' | 'kind'>) {
  const cap = ev.period === 1 ? 2700 : 5400;
  const added = Math.max(0, ev.t - cap);
  const value = Math.min(ev.t, cap);
  let displayValue: string;
  if (ev.kind === 'kickoff') displayValue = '';
  else if (added > 0) displayValue = `${cap / 60}'+${Math.ceil(added / 60)}'`;
  else displayValue = `${Math.max(1, Math.ceil(value / 60))}'`;
  return {
    clock: { value, displayValue },
    addedClock: { value: added, displayValue: added > 0 ? String(Math.ceil(added / 60)) : '' },
  };
}

/** Wall-clock time of a match moment: kickoff, plus the half-time break for period 2. */
export function wallclock(m: DemoMatch, period: number, t: number): string {
  const seconds = period === 1 ? t : periodEnd(m, 1) + 900 + (t - 2700);
  return new Date(m.kickoffMs + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Month and weekday names as the demo writes a kickoff's detail ("Sat, March 21st at 3:00 PM UTC"). */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

function kickoffTexts(ms: number): { detail: string; shortDetail: string } {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const time = `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'} UTC`;
  return {
    detail: `${DAYS[d.getUTCDay()]}, ${MONTHS[d.getUTCMonth()]} ${ordinal(d.getUTCDate())} at ${time}`,
    shortDetail: `${d.getUTCMonth() + 1}/${d.getUTCDate()} - ${time}`,
  };
}

export function statusObject(m: DemoMatch, clock: MatchClock) {
  const type = (
    id: string,
    name: string,
    state: string,
    completed: boolean,
    description: string,
    detail: string,
    shortDetail = detail,
  ) => ({
    id,
    name,
    state,
    completed,
    description,
    detail,
    shortDetail,
  });
  if (m.postponed) {
    return {
      clock: 0,
      displayClock: "0'",
      period: 0,
      type: type('6', 'STATUS_POSTPONED', 'post', false, 'Postponed', 'Postponed'),
    };
  }
  switch (clock.status) {
    case 'pre': {
      const t = kickoffTexts(m.kickoffMs);
      return {
        clock: 0,
        displayClock: "0'",
        period: 0,
        type: type('1', 'STATUS_SCHEDULED', 'pre', false, 'Scheduled', t.detail, t.shortDetail),
      };
    }
    case 'first': {
      const c = playClock({ period: 1, t: clock.t, kind: 'foul' });
      return {
        clock: c.clock.value,
        displayClock: c.clock.displayValue,
        period: 1,
        type: type('25', 'STATUS_FIRST_HALF', 'in', false, 'First Half', c.clock.displayValue),
      };
    }
    case 'half':
      return {
        clock: 2700,
        displayClock: 'HT',
        period: 1,
        type: type('23', 'STATUS_HALFTIME', 'in', false, 'Halftime', 'HT'),
      };
    case 'second': {
      const c = playClock({ period: 2, t: clock.t, kind: 'foul' });
      return {
        clock: c.clock.value,
        displayClock: c.clock.displayValue,
        period: 2,
        type: type('26', 'STATUS_SECOND_HALF', 'in', false, 'Second Half', c.clock.displayValue),
      };
    }
    case 'full':
      return {
        clock: 5400,
        displayClock: `90'+${m.a2}'`,
        period: 2,
        type: type('28', 'STATUS_FULL_TIME', 'post', true, 'Full Time', 'FT'),
      };
  }
}

export const PLAY_TYPES: Record<Kind, { id: string; text: string; type: string }> = {
  kickoff: { id: '80', text: 'Kickoff', type: 'kickoff' },
  halftime: { id: '81', text: 'Halftime', type: 'halftime' },
  start2: { id: '82', text: 'Start 2nd Half', type: 'start-2nd-half' },
  end: { id: '83', text: 'End Regular Time', type: 'end-regular-time' },
  goal: { id: '70', text: 'Goal', type: 'goal' },
  penalty: { id: '98', text: 'Penalty - Scored', type: 'penalty-goal' },
  'own-goal': { id: '97', text: 'Own Goal', type: 'own-goal' },
  yellow: { id: '94', text: 'Yellow Card', type: 'yellow-card' },
  red: { id: '93', text: 'Red Card', type: 'red-card' },
  sub: { id: '76', text: 'Substitution', type: 'substitution' },
  foul: { id: '66', text: 'Foul', type: 'foul' },
  'shot-on': { id: '106', text: 'Shot On Target', type: 'shot-on-target' },
  'shot-off': { id: '117', text: 'Shot Off Target', type: 'shot-off-target' },
  'shot-blocked': { id: '135', text: 'Shot Blocked', type: 'shot-blocked' },
  corner: { id: '95', text: 'Corner Awarded', type: 'corner-awarded' },
  offside: { id: '68', text: 'Offside', type: 'offside' },
};

export function playType(ev: MatchEvent) {
  if (ev.kind === 'goal' && ev.flag === 'header') return { id: '137', text: 'Goal - Header', type: 'goal' };
  return PLAY_TYPES[ev.kind];
}

export const playId = (m: DemoMatch, ev: MatchEvent) => `${m.id}${String(ev.n).padStart(4, '0')}`;

export const isGoal = (ev: MatchEvent) => ev.kind === 'goal' || ev.kind === 'penalty' || ev.kind === 'own-goal';
export const isKey = (ev: MatchEvent) =>
  isGoal(ev) ||
  ev.kind === 'yellow' ||
  ev.kind === 'red' ||
  ev.kind === 'sub' ||
  ev.kind === 'kickoff' ||
  ev.kind === 'halftime' ||
  ev.kind === 'start2' ||
  ev.kind === 'end';
