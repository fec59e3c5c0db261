/** Commentary lines for demo plays, in the style of ESPN's play-by-play texts. */
import type { MatchEvent, MatchScript } from './timeline.js';

const FOOT = ['right footed shot', 'left footed shot', 'right footed shot', 'header'];
const WHERE = [
  'from outside the box',
  'from the centre of the box',
  'from the left side of the box',
  'from the right side of the box',
  'from a difficult angle on the left',
  'from very close range',
];
const TARGET = [
  'to the bottom left corner',
  'to the bottom right corner',
  'to the top left corner',
  'to the high centre of the goal',
  'to the centre of the goal',
];
const MISS = [
  'is high and wide to the right',
  'misses to the left',
  'is just a bit too high',
  'is close, but misses to the right',
  'is too high',
];
const SAVE = ['centre', 'bottom left corner', 'bottom right corner', 'top centre'];
const CARD = ['for a bad foul', 'for a late challenge', 'for dissent', 'for time wasting', 'for a dangerous tackle'];

const nth = <T>(items: readonly T[], variant: number, salt = 1): T => items[Math.floor(variant / salt) % items.length]!;

export interface PlayTexts {
  text: string;
  shortText?: string;
}

export function playTexts(script: MatchScript, ev: MatchEvent): PlayTexts {
  const [home, away] = script.lineups.map((l) => l.club.displayName) as [string, string];
  const team = (side: number) => script.lineups[side]!.club.displayName;
  const scoreLine = `${home} ${ev.home}, ${away} ${ev.away}`;
  const a = ev.actors[0];
  const b = ev.actors[1];
  const who = a ? `${a.player.displayName} (${team(a.side)})` : '';
  const assisted = b?.role === 'assister' ? ` Assisted by ${b.player.displayName}.` : '';
  const v = ev.variant;
  switch (ev.kind) {
    case 'kickoff':
      return { text: 'First Half begins.' };
    case 'halftime':
      return { text: `First Half ends, ${scoreLine}.` };
    case 'start2':
      return { text: `Second Half begins ${scoreLine}.` };
    case 'end':
      return { text: `Second Half ends, ${scoreLine}.` };
    case 'goal': {
      const how = ev.flag === 'header' ? 'header' : nth(FOOT.slice(0, 3), v);
      return {
        text: `Goal! ${scoreLine}. ${who} ${how} ${nth(WHERE, v, 3)} ${nth(TARGET, v, 17)}.${assisted}`,
        shortText: `${a!.player.displayName} Goal`,
      };
    }
    case 'penalty':
      return {
        text: `Goal! ${scoreLine}. ${who} converts the penalty with a ${nth(FOOT.slice(0, 2), v)} ${nth(TARGET, v, 17)}.`,
        shortText: `${a!.player.displayName} Penalty - Scored`,
      };
    case 'own-goal':
      return {
        text: `Own Goal by ${a!.player.displayName}, ${team(a!.side)}. ${scoreLine}.`,
        shortText: `${a!.player.displayName} Own Goal`,
      };
    case 'yellow':
      return {
        text: `${who} is shown the yellow card ${nth(CARD, v)}.`,
        shortText: `${a!.player.displayName} Yellow Card`,
      };
    case 'red':
      return {
        text:
          ev.flag === 'second-yellow'
            ? `Second yellow card to ${who}.`
            : `${who} is shown the red card for serious foul play.`,
        shortText: `${a!.player.displayName} Red Card`,
      };
    case 'sub':
      return {
        text: `Substitution, ${team(a!.side)}. ${a!.player.displayName} replaces ${b!.player.displayName}${ev.flag === 'injury' ? ' because of an injury' : ''}.`,
        shortText: `${a!.player.displayName} Substitution`,
      };
    case 'foul':
      if (ev.flag === 'penalty-foul') {
        return {
          text: `Penalty conceded by ${who} after a foul in the penalty area.`,
          shortText: `${a!.player.displayName} Foul`,
        };
      }
      return {
        text: `${b!.player.displayName} (${team(b!.side)}) wins a free kick ${v % 2 ? 'in the defensive half' : 'in the attacking half'}.`,
        shortText: `${a!.player.displayName} Foul`,
      };
    case 'shot-on':
      return {
        text: `Attempt saved. ${who} ${nth(FOOT, v)} ${nth(WHERE, v, 3)} is saved in the ${nth(SAVE, v, 17)} of the goal.${assisted}`,
        shortText: `${a!.player.displayName} Shot On Target`,
      };
    case 'shot-off':
      return {
        text: `Attempt missed. ${who} ${nth(FOOT, v)} ${nth(WHERE, v, 3)} ${nth(MISS, v, 17)}.${assisted}`,
        shortText: `${a!.player.displayName} Shot Off Target`,
      };
    case 'shot-blocked':
      return {
        text: `Attempt blocked. ${who} ${nth(FOOT, v)} ${nth(WHERE, v, 3)} is blocked.${assisted}`,
        shortText: `${a!.player.displayName} Shot Blocked`,
      };
    case 'corner':
      return {
        text: `Corner, ${team(1 - a!.side)}. Conceded by ${a!.player.displayName}.`,
        shortText: `${a!.player.displayName} Corner Kick`,
      };
    case 'offside':
      return {
        text: `Offside, ${team(a!.side)}. ${a!.player.displayName} tries a through ball, but ${ev.caught?.displayName ?? 'a teammate'} is caught offside.`,
        shortText: `${a!.player.displayName} Offside`,
      };
  }
}
