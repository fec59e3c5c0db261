/** The scoreboard payload (site API `…/scoreboard?dates=`), and the match pieces the summary reuses. */
import { rngFor } from './random.js';
import type { DemoMatch } from './season.js';
import type { LeagueSeason } from './progress.js';
import { formString, recordString, resultsBefore } from './progress.js';
import { boardTeam, isGoal, leagueObject, playClock, playType, statusObject, venueObject } from './shapes.js';
import { teamTallies } from './stats.js';
import type { TeamTally } from './stats.js';
import type { MatchClock } from './match-clock.js';
import type { MatchEvent, MatchScript, Side } from './timeline.js';

/** A match as it stands at the reference instant. */
export interface MatchView {
  m: DemoMatch;
  clock: MatchClock;
  /** Null before kickoff and for the postponed match: nothing has happened. */
  script: MatchScript | null;
  events: MatchEvent[];
}

export const started = (v: MatchView) => v.script !== null;

export function scoreNow(v: MatchView): [number, number] {
  const last = v.events.at(-1);
  return last ? [last.home, last.away] : [0, 0];
}

export function attendance(s: LeagueSeason, v: MatchView): number {
  if (!started(v)) return 0;
  const rng = rngFor(s.seed, 'attendance', v.m.id);
  return Math.round(v.m.home.venue.capacity * (0.55 + 0.43 * rng.next()));
}

function stat(name: string, abbreviation: string, value: number, display = String(value)) {
  return { name, abbreviation, displayValue: display, value };
}

function boardStats(t: TeamTally, possession: number, appearances: number) {
  return [
    stat('appearances', 'APP', appearances),
    stat('foulsCommitted', 'FC', t.fouls),
    stat('wonCorners', 'CW', t.cornersWon),
    stat('goalAssists', 'A', t.goalAssists),
    stat('possessionPct', 'PP', possession),
    stat('shotAssists', 'SHAST', t.shotAssists),
    stat('shotsOnTarget', 'ST', t.onTarget),
    stat('totalGoals', 'G', t.goals),
    stat('totalShots', 'SH', t.shots),
  ];
}

/** Players used so far: the starting eleven plus everyone who came on. */
function appearances(v: MatchView, side: Side): number {
  return 11 + v.events.filter((e) => e.kind === 'sub' && e.team === side).length;
}

export function competitor(s: LeagueSeason, v: MatchView, side: Side) {
  const club = side === 0 ? v.m.home : v.m.away;
  const [hg, ag] = scoreNow(v);
  const mine = side === 0 ? hg : ag;
  const theirs = side === 0 ? ag : hg;
  const tallies = started(v) ? teamTallies(v.events) : null;
  const before = resultsBefore(s, club.id, v.m);
  const possession = v.script
    ? side === 0
      ? v.script.possession
      : Math.round((100 - v.script.possession) * 10) / 10
    : 0;
  return {
    id: club.id,
    uid: `s:600~t:${club.id}`,
    type: 'team',
    order: side,
    homeAway: side === 0 ? 'home' : 'away',
    winner: v.clock.status === 'full' && mine > theirs,
    // Form and record going into the match; a fixture further ahead than the club's next has none yet.
    ...(before ? { form: formString(before) } : {}),
    // ESPN writes "0" before kickoff and for postponed matches; the status says whether it counts.
    score: String(mine),
    records: before
      ? [{ name: 'All Splits', abbreviation: 'Total', type: 'total', summary: recordString(before) }]
      : [],
    team: boardTeam(club),
    statistics: tallies ? boardStats(tallies[side], possession, appearances(v, side)) : [],
  };
}

/** Goals and cards, as the scoreboard's `details` lists them. */
export function details(v: MatchView) {
  const clubs = [v.m.home, v.m.away];
  return v.events
    .filter((e) => isGoal(e) || e.kind === 'yellow' || e.kind === 'red')
    .map((e) => {
      const t = playType(e);
      const a = e.actors[0]!;
      return {
        type: { id: t.id, text: t.text },
        clock: playClock(e).clock,
        team: { id: clubs[e.team!]!.id },
        scoreValue: isGoal(e) ? 1 : 0,
        scoringPlay: isGoal(e),
        redCard: e.kind === 'red',
        yellowCard: e.kind === 'yellow',
        penaltyKick: e.kind === 'penalty',
        ownGoal: e.kind === 'own-goal',
        shootout: false,
        athletesInvolved: [
          {
            id: a.player.id,
            displayName: a.player.displayName,
            shortName: a.player.shortName,
            fullName: a.player.displayName,
            jersey: a.player.jersey,
            team: { id: clubs[a.side]!.id },
            position: a.player.pos,
          },
        ],
      };
    });
}

const moneyLine = (p: number) => (p >= 0.5 ? -Math.round((100 * p) / (1 - p)) : Math.round((100 * (1 - p)) / p));

/** Pre-match odds from the clubs' strengths; the provider says plainly that they are made up. */
export function odds(v: MatchView) {
  const tilt = v.m.home.strength / v.m.away.strength;
  const draw = 0.27;
  const home = ((1 - draw) * (tilt * 1.15)) / (tilt * 1.15 + 1);
  const away = 1 - draw - home;
  const favourite = home >= away ? v.m.home : v.m.away;
  return [
    {
      provider: { id: 'demo', name: 'Demo Odds (fictional)', priority: 1 },
      details: `${favourite.abbreviation} -0.5`,
      overUnder: 2.5,
      spread: home >= away ? -0.5 : 0.5,
      homeTeamOdds: { favorite: home >= away, underdog: home < away, moneyLine: moneyLine(home), teamId: v.m.home.id },
      awayTeamOdds: { favorite: away > home, underdog: away <= home, moneyLine: moneyLine(away), teamId: v.m.away.id },
      drawOdds: { moneyLine: moneyLine(draw) },
    },
  ];
}

export const BROADCASTS = [{ market: 'national', names: ['Demo Sports TV'] }];

export function boardEvent(s: LeagueSeason, v: MatchView) {
  const { m } = v;
  const status = statusObject(m, v.clock);
  const uid = `s:600~l:${s.ref.espnId}~e:${m.id}`;
  return {
    id: m.id,
    uid,
    date: m.date,
    name: `${m.away.displayName} at ${m.home.displayName}`,
    shortName: `${m.away.abbreviation} @ ${m.home.abbreviation}`,
    season: { year: s.season.year, type: s.season.type, slug: s.season.slug },
    competitions: [
      {
        id: m.id,
        uid: `${uid}~c:${m.id}`,
        date: m.date,
        startDate: m.date,
        attendance: attendance(s, v),
        timeValid: true,
        recent: v.clock.status !== 'pre' && v.clock.status !== 'full',
        status,
        venue: venueObject(m.home),
        format: { regulation: { periods: 2 } },
        notes: [],
        broadcasts: BROADCASTS,
        competitors: [competitor(s, v, 0), competitor(s, v, 1)],
        details: details(v),
        odds: v.clock.status === 'pre' ? odds(v) : [],
        wasSuspended: false,
        playByPlayAvailable: started(v),
      },
    ],
    status,
    venue: { displayName: m.home.venue.fullName },
  };
}

export function scoreboardPayload(s: LeagueSeason, day: string, views: MatchView[]) {
  const league = leagueObject(s);
  const start = `${new Date(s.season.startMs).toISOString().slice(0, 16)}Z`;
  const end = `${new Date(s.season.endMs).toISOString().slice(0, 16)}Z`;
  return {
    leagues: [
      {
        ...league,
        season: {
          year: s.season.year,
          startDate: start,
          endDate: end,
          displayName: s.season.displayName,
          type: { id: '1', type: s.season.type, name: s.season.displayName, abbreviation: s.season.displayName },
        },
        calendarType: 'day',
        calendarIsWhitelist: true,
        calendarStartDate: start,
        calendarEndDate: end,
      },
    ],
    season: { type: s.season.type, year: s.season.year },
    day: { date: `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}` },
    events: views.map((v) => boardEvent(s, v)),
  };
}
