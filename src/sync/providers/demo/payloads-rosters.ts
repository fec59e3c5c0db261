/** The summary payload's rosters: each side's line-up, substitutions, and the match statistics of those who played. */
import type { DemoPlayer } from './clubs.js';
import { competitor } from './payloads-board.js';
import type { MatchView } from './payloads-board.js';
import type { LeagueSeason } from './progress.js';
import { playClock, positionObject } from './shapes.js';
import { playerTallies } from './stats.js';
import type { PlayerTally } from './stats.js';
import type { Lineup, Side } from './timeline.js';

function stat(name: string, abbreviation: string, value: number) {
  return { name, abbreviation, value, displayValue: String(value) };
}

/** A player's match statistics; players who never came on have none, which keeps lineups compact. */
function playerStats(p: DemoPlayer, t: PlayerTally | undefined, played: boolean) {
  if (!played) return [];
  const out = [
    stat('appearances', 'APP', 1),
    stat('totalGoals', 'G', t?.goals ?? 0),
    stat('goalAssists', 'A', t?.assists ?? 0),
    stat('totalShots', 'SH', t?.shots ?? 0),
    stat('yellowCards', 'YC', t?.yellow ?? 0),
    stat('redCards', 'RC', t?.red ?? 0),
  ];
  if (t?.ownGoals) out.push(stat('ownGoals', 'OG', t.ownGoals));
  if (p.pos === 'G') out.push(stat('saves', 'SV', t?.saves ?? 0), stat('goalsConceded', 'GA', t?.conceded ?? 0));
  return out;
}

function lineupSide(v: MatchView, lineup: Lineup, tallies: Map<string, PlayerTally>) {
  const subs = v.events.filter((e) => e.kind === 'sub' && e.team === lineup.side);
  const inFor = new Map(subs.map((e) => [e.actors[0]!.player.id, e.actors[1]!.player]));
  const outFor = new Map(subs.map((e) => [e.actors[1]!.player.id, e.actors[0]!.player]));
  const ref = (p: DemoPlayer) => ({ jersey: p.jersey, athlete: { id: p.id, displayName: p.displayName } });
  const entry = (p: DemoPlayer, starter: boolean, place: number) => {
    const cameOn = inFor.has(p.id);
    const plays = v.events
      .filter(
        (e) =>
          (e.kind === 'sub' ||
            e.kind === 'yellow' ||
            e.kind === 'red' ||
            e.kind === 'goal' ||
            e.kind === 'penalty' ||
            e.kind === 'own-goal') &&
          e.actors.some((a, i) => a.player === p && (i === 0 || e.kind === 'sub')),
      )
      .map((e) => ({
        clock: { displayValue: playClock(e).clock.displayValue },
        scoringPlay: e.kind === 'goal' || e.kind === 'penalty' || e.kind === 'own-goal',
        substitution: e.kind === 'sub',
        redCard: e.kind === 'red',
        yellowCard: e.kind === 'yellow',
        penaltyKick: e.kind === 'penalty',
        ownGoal: e.kind === 'own-goal',
      }));
    return {
      active: true,
      starter,
      jersey: p.jersey,
      athlete: {
        id: p.id,
        uid: `s:600~a:${p.id}`,
        lastName: p.lastName,
        fullName: p.displayName,
        displayName: p.displayName,
      },
      position: starter ? positionObject(p) : { name: 'Substitute', displayName: 'Substitute', abbreviation: 'SUB' },
      subbedIn: cameOn,
      subbedOut: outFor.has(p.id),
      ...(cameOn ? { subbedInFor: ref(inFor.get(p.id)!) } : {}),
      ...(outFor.has(p.id) ? { subbedOutFor: ref(outFor.get(p.id)!) } : {}),
      formationPlace: String(place),
      ...(plays.length ? { plays } : {}),
      stats: playerStats(p, tallies.get(p.id), starter || cameOn),
    };
  };
  return [...lineup.starters.map((p, i) => entry(p, true, i + 1)), ...lineup.bench.map((p) => entry(p, false, 0))];
}

export function rosters(s: LeagueSeason, v: MatchView) {
  const tallies = v.script ? playerTallies(v.script, v.events) : new Map<string, PlayerTally>();
  return ([0, 1] as Side[]).map((side) => {
    const club = side === 0 ? v.m.home : v.m.away;
    const c = competitor(s, v, side);
    const lineup = v.script?.lineups[side];
    return {
      homeAway: c.homeAway,
      winner: c.winner,
      team: {
        id: club.id,
        uid: `s:600~t:${club.id}`,
        abbreviation: club.abbreviation,
        displayName: club.displayName,
        shortDisplayName: club.shortDisplayName,
        color: club.color,
        alternateColor: club.alternateColor,
        logo: club.logo,
      },
      // Line-ups are announced shortly before kickoff; until then the sides have none.
      ...(lineup ? { formation: lineup.formation } : {}),
      roster: lineup ? lineupSide(v, lineup, tallies) : [],
    };
  });
}
