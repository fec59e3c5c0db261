/** The summary's boxscore: each side's recent form and its team statistics (string values, as ESPN's). */
import { started } from './payloads-board.js';
import type { MatchView } from './payloads-board.js';
import { rngFor } from './random.js';
import type { LeagueSeason } from './progress.js';
import { resultsBefore } from './progress.js';
import { teamTallies } from './stats.js';
import type { TeamTally } from './stats.js';
import type { Side } from './timeline.js';

const fraction = (n: number, d: number) => (d === 0 ? '0' : String(Math.round((n / d) * 100) / 100));

function teamStatistics(s: LeagueSeason, v: MatchView, side: Side, t: TeamTally) {
  const possession = side === 0 ? v.script!.possession : Math.round((100 - v.script!.possession) * 10) / 10;
  // Passing and tackling are not in the play stream; they only need to be plausible and stable.
  const rng = rngFor(s.seed, 'boxscore', v.m.id, side);
  const played = Math.min(1, v.clock.t / 5400);
  const passes = Math.round(possession * 9.5 * played * (0.9 + rng.next() * 0.2));
  const accurate = Math.round(passes * (0.72 + rng.next() * 0.18));
  const crosses = Math.round((10 + rng.int(0, 16)) * played);
  const accCrosses = Math.round(crosses * (0.15 + rng.next() * 0.2));
  const tackles = Math.round((12 + rng.int(0, 14)) * played);
  const wonTackles = Math.round(tackles * (0.5 + rng.next() * 0.3));
  const penaltyShots = v.events.filter((e) => e.kind === 'penalty' && e.team === side).length;
  const row = (name: string, label: string, value: number | string) => ({ name, displayValue: String(value), label });
  return [
    row('foulsCommitted', 'Fouls', t.fouls),
    row('yellowCards', 'Yellow Cards', t.yellow),
    row('redCards', 'Red Cards', t.red),
    row('offsides', 'Offsides', t.offsides),
    row('wonCorners', 'Corner Kicks', t.cornersWon),
    row('saves', 'Saves', t.saves),
    row('possessionPct', 'Possession', possession),
    row('totalShots', 'SHOTS', t.shots),
    row('shotsOnTarget', 'ON GOAL', t.onTarget),
    row('shotPct', 'On Target %', fraction(t.onTarget, t.shots)),
    row('penaltyKickGoals', 'Penalty Goals', t.penaltyGoals),
    row('penaltyKickShots', 'Penalty Kicks Taken', penaltyShots),
    row('accuratePasses', 'Accurate Passes', accurate),
    row('totalPasses', 'Passes', passes),
    row('passPct', 'Pass Completion %', fraction(accurate, passes)),
    row('accurateCrosses', 'Accurate Crosses', accCrosses),
    row('totalCrosses', 'Crosses', crosses),
    row('crossPct', 'Cross %', fraction(accCrosses, crosses)),
    row('blockedShots', 'Blocked', t.blocked),
    row('effectiveTackles', 'Effective Tackles', wonTackles),
    row('totalTackles', 'Tackles', tackles),
    row('tacklePct', 'Tackle %', fraction(wonTackles, tackles)),
  ];
}

function formSide(s: LeagueSeason, v: MatchView, side: Side) {
  const club = side === 0 ? v.m.home : v.m.away;
  const teamRef = (c: typeof club) => ({
    id: c.id,
    uid: `s:600~t:${c.id}`,
    displayName: c.displayName,
    abbreviation: c.abbreviation,
    logo: c.logo,
  });
  // Most recent first, as ESPN lists them.
  const events = (resultsBefore(s, club.id, v.m) ?? [])
    .slice(-5)
    .reverse()
    .map((r) => {
      const m = r.match;
      const home = m.home.id === club.id;
      const opponent = home ? m.away : m.home;
      return {
        id: m.id,
        atVs: home ? 'vs' : '@',
        gameDate: m.date,
        score: `${m.goals[0]}-${m.goals[1]}`,
        homeTeamId: m.home.id,
        awayTeamId: m.away.id,
        homeTeamScore: String(m.goals[0]),
        awayTeamScore: String(m.goals[1]),
        gameResult: r.result,
        opponent: teamRef(opponent),
        leagueName: s.ref.name,
        leagueAbbreviation: s.ref.abbreviation,
      };
    });
  return { displayOrder: side + 1, team: teamRef(club), events };
}

export function boxscore(s: LeagueSeason, v: MatchView) {
  const tallies = started(v) ? teamTallies(v.events) : null;
  return {
    form: [formSide(s, v, 0), formSide(s, v, 1)],
    teams: ([0, 1] as Side[]).map((side) => {
      const club = side === 0 ? v.m.home : v.m.away;
      return {
        team: {
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
          logo: club.logo,
        },
        homeAway: side === 0 ? 'home' : 'away',
        displayOrder: side + 1,
        statistics: tallies ? teamStatistics(s, v, side, tallies[side]) : [],
      };
    }),
  };
}
