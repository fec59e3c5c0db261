/** Team and player statistics counted from a match's events, so every statistic agrees with the plays. */
import type { MatchEvent, MatchScript } from './timeline.js';

export interface TeamTally {
  goals: number;
  shots: number;
  onTarget: number;
  blocked: number;
  fouls: number;
  yellow: number;
  red: number;
  cornersWon: number;
  offsides: number;
  saves: number;
  penaltyGoals: number;
  goalAssists: number;
  shotAssists: number;
}

export interface PlayerTally {
  goals: number;
  assists: number;
  shots: number;
  onTarget: number;
  foulsCommitted: number;
  foulsSuffered: number;
  yellow: number;
  red: number;
  ownGoals: number;
  offsides: number;
  saves: number;
  conceded: number;
}

const emptyTeam = (): TeamTally => ({
  goals: 0,
  shots: 0,
  onTarget: 0,
  blocked: 0,
  fouls: 0,
  yellow: 0,
  red: 0,
  cornersWon: 0,
  offsides: 0,
  saves: 0,
  penaltyGoals: 0,
  goalAssists: 0,
  shotAssists: 0,
});

export function teamTallies(events: readonly MatchEvent[]): [TeamTally, TeamTally] {
  const t: [TeamTally, TeamTally] = [emptyTeam(), emptyTeam()];
  for (const ev of events) {
    if (ev.team === null) continue;
    const side = t[ev.team];
    const opp = t[1 - ev.team]!;
    const assisted = ev.actors[1]?.role === 'assister';
    switch (ev.kind) {
      case 'goal':
      case 'penalty':
        side.goals++;
        side.shots++;
        side.onTarget++;
        if (ev.kind === 'penalty') side.penaltyGoals++;
        if (assisted) {
          side.goalAssists++;
          side.shotAssists++;
        }
        break;
      case 'own-goal':
        side.goals++;
        break;
      case 'shot-on':
        side.shots++;
        side.onTarget++;
        opp.saves++;
        if (assisted) side.shotAssists++;
        break;
      case 'shot-off':
      case 'shot-blocked':
        side.shots++;
        if (ev.kind === 'shot-blocked') side.blocked++;
        if (assisted) side.shotAssists++;
        break;
      case 'foul':
        side.fouls++;
        break;
      case 'yellow':
        side.yellow++;
        break;
      case 'red':
        side.red++;
        break;
      case 'corner':
        // Attributed to the conceding team; the other side won it.
        opp.cornersWon++;
        break;
      case 'offside':
        side.offsides++;
        break;
      default:
        break;
    }
  }
  return t;
}

/** A player's tally before anything happened to him. */
export const emptyPlayer = (): PlayerTally => ({
  goals: 0,
  assists: 0,
  shots: 0,
  onTarget: 0,
  foulsCommitted: 0,
  foulsSuffered: 0,
  yellow: 0,
  red: 0,
  ownGoals: 0,
  offsides: 0,
  saves: 0,
  conceded: 0,
});

/** Per player id. Saves and goals conceded go to each side's starting goalkeeper, who plays throughout. */
export function playerTallies(script: MatchScript, events: readonly MatchEvent[]): Map<string, PlayerTally> {
  const out = new Map<string, PlayerTally>();
  const get = (id: string) => {
    let p = out.get(id);
    if (!p) {
      p = emptyPlayer();
      out.set(id, p);
    }
    return p;
  };
  const keepers = script.lineups.map((l) => l.starters[0]!.id);
  for (const ev of events) {
    const [a, b] = ev.actors;
    switch (ev.kind) {
      case 'goal':
      case 'penalty':
        get(a!.player.id).goals++;
        get(a!.player.id).shots++;
        get(a!.player.id).onTarget++;
        if (b?.role === 'assister') get(b.player.id).assists++;
        get(keepers[1 - ev.team!]!).conceded++;
        break;
      case 'own-goal':
        get(a!.player.id).ownGoals++;
        get(keepers[1 - ev.team!]!).conceded++;
        break;
      case 'shot-on':
        get(a!.player.id).shots++;
        get(a!.player.id).onTarget++;
        get(keepers[1 - ev.team!]!).saves++;
        break;
      case 'shot-off':
      case 'shot-blocked':
        get(a!.player.id).shots++;
        break;
      case 'foul':
        get(a!.player.id).foulsCommitted++;
        get(b!.player.id).foulsSuffered++;
        break;
      case 'yellow':
        get(a!.player.id).yellow++;
        break;
      case 'red':
        get(a!.player.id).red++;
        break;
      case 'offside':
        if (ev.caught) get(ev.caught.id).offsides++;
        break;
      default:
        break;
    }
  }
  return out;
}
