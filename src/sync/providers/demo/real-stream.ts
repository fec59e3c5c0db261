/**
 * Real weight (issue #50): a match's touch-level play stream. Between the script's events (which all
 * stay in the stream, with their ids) come the touches ESPN's feed records — passes, ball touches,
 * tackles, clearances, throw-ins — each with field coordinates, by players on the pitch at that
 * moment and at the running score. A recent match's core pages carry the whole stream (~1,000–1,600
 * plays); an older one's are pruned to the key plays (~150–250), as ESPN prunes its feed. The
 * summary's commentary is drawn from the same stream.
 */
import type { DemoMatch } from './season.js';
import type { DemoPlayer } from './clubs.js';
import { rngFor } from './random.js';
import type { Rng } from './random.js';
import type { MatchEvent, MatchScript, Side } from './timeline.js';
import { eventKey } from './timeline.js';

export interface FillerType {
  id: string;
  text: string;
  type: string;
  /** The participant's role, where ESPN names one. */
  role?: string;
  /** The play has an end point (fieldPosition2X/Y). */
  to?: boolean;
}

/** ESPN's type ids and names for the touches (as in a recorded mex.1 touch-level stream). */
export const FILLER_TYPES = {
  pass: { id: '118', text: 'Pass', type: 'pass', role: 'passer', to: true },
  touch: { id: '177', text: 'Ball touch', type: 'ball-touch' },
  out: { id: '176', text: 'Out', type: 'out' },
  throwIn: { id: '124', text: 'Throw In', type: 'throw-in', role: 'thrower', to: true },
  takeOn: { id: '178', text: 'Take On', type: 'take-on' },
  tackle: { id: '148', text: 'Tackle', type: 'tackle' },
  dispossessed: { id: '196', text: 'Dispossessed', type: 'dispossessed' },
  attemptedTackle: { id: '182', text: 'Attempted tackle', type: 'attempted-tackle' },
  cross: { id: '65', text: 'Cross', type: 'cross', to: true },
  clear: { id: '63', text: 'Clear', type: 'clear' },
  goalKick: { id: '110', text: 'Goal Kick', type: 'goal-kick', to: true },
  blockedPass: { id: '162', text: 'Blocked Pass', type: 'blocked-pass', role: 'defender' },
  aerial: { id: '181', text: 'Aerial', type: 'aerial' },
  interception: { id: '179', text: 'Interception', type: 'interception' },
  save: { id: '77', text: 'Save', type: 'save' },
  freeKick: { id: '96', text: 'Free Kick', type: 'free-kick', role: 'kicker', to: true },
  startDelay: { id: '129', text: 'Start Delay', type: 'start-delay' },
  endDelay: { id: '130', text: 'End Delay', type: 'end-delay' },
  handBall: { id: '69', text: 'Hand Ball', type: 'hand-ball' },
} satisfies Record<string, FillerType>;
export type FillerKind = keyof typeof FILLER_TYPES;

/** Relative frequencies of the open-play touches (shaped on the recorded touch-level stream). */
const TOUCH_MIX: Array<[FillerKind, number]> = [
  ['pass', 560],
  ['touch', 60],
  ['out', 40],
  ['throwIn', 55],
  ['takeOn', 30],
  ['tackle', 40],
  ['dispossessed', 24],
  ['attemptedTackle', 19],
  ['cross', 18],
  ['clear', 36],
  ['goalKick', 18],
  ['blockedPass', 22],
  ['aerial', 24],
  ['interception', 16],
];
const TOUCH_TOTAL = TOUCH_MIX.reduce((n, [, w]) => n + w, 0);

/** Kinds a pruned (older) stream keeps besides the script's events, as ESPN's pruned streams do. */
const PRUNED_KINDS = new Set<FillerKind>(['throwIn', 'freeKick', 'blockedPass', 'save', 'goalKick']);
/** Kinds that also make a commentary line. */
export const COMMENTARY_KINDS = new Set<FillerKind>(['freeKick', 'startDelay', 'endDelay', 'handBall']);
/** Kinds that ESPN also lists among the summary's key events. */
export const KEY_FILLER_KINDS = new Set<FillerKind>(['startDelay', 'endDelay']);

export interface Filler {
  kind: FillerKind;
  id: string;
  period: 1 | 2;
  t: number;
  team: Side | null;
  player: DemoPlayer | null;
  home: number;
  away: number;
  x: number;
  y: number;
  x2: number;
  y2: number;
  /** Kept when the stream is pruned. */
  key: boolean;
  variant: number;
}

export type StreamPlay = { ev: MatchEvent; filler?: undefined } | { ev?: undefined; filler: Filler };

export interface TouchStream {
  plays: StreamPlay[];
  /** Coordinates of the script's events, by event number. */
  at: Map<number, { x: number; y: number; x2: number; y2: number }>;
}

const coord = (rng: Rng, lo = 0, hi = 100) => Math.round((lo + rng.next() * (hi - lo)) * 10) / 10;

/** Where a script event happened, in ESPN's 0–100 field coordinates, attacking left to right. */
function eventSpot(rng: Rng, ev: MatchEvent) {
  switch (ev.kind) {
    case 'goal':
    case 'penalty':
    case 'own-goal':
    case 'shot-on':
    case 'shot-off':
    case 'shot-blocked':
      return { x: coord(rng, 70, 95), y: coord(rng, 25, 75), x2: 100, y2: coord(rng, 44, 56) };
    case 'corner':
      return { x: 99.5, y: rng.chance(0.5) ? 0.5 : 99.5, x2: coord(rng, 85, 98), y2: coord(rng, 35, 65) };
    case 'offside':
      return { x: coord(rng, 40, 70), y: coord(rng), x2: coord(rng, 75, 95), y2: coord(rng, 20, 80) };
    case 'foul':
    case 'yellow':
    case 'red':
      return { x: coord(rng, 20, 85), y: coord(rng), x2: 0, y2: 0 };
    default:
      return { x: 0, y: 0, x2: 0, y2: 0 };
  }
}

const CACHE = new WeakMap<MatchScript, TouchStream>();

/** The whole match's stream (cached per script): the script's events with the touches between them. */
export function touchStream(seed: number, script: MatchScript): TouchStream {
  const cached = CACHE.get(script);
  if (cached) return cached;
  const m: DemoMatch = script.match;
  const rng = rngFor(seed, 'touch-stream', m.id);
  const events = script.events;
  const target = rng.int(1050, 1600);
  const prunedTarget = rng.int(150, 250);
  const commentaryTarget = rng.int(91, 102);
  // Open play runs from kickoff to half-time and from the restart to the final whistle.
  const halftime = events.find((e) => e.kind === 'halftime');
  const start2 = events.find((e) => e.kind === 'start2');
  const end = events.at(-1)!;
  const playSeconds = (halftime?.t ?? 2700) + (end.t - (start2?.t ?? 2700));
  const perSecond = Math.max(0, target - events.length) / Math.max(1, playSeconds);

  const onPitch: [DemoPlayer[], DemoPlayer[]] = [[...script.lineups[0].starters], [...script.lineups[1].starters]];
  const plays: StreamPlay[] = [];
  const at = new Map<number, { x: number; y: number; x2: number; y2: number }>();
  let carry = 0;
  let prev: MatchEvent | undefined;
  let side: Side = rng.chance(0.5) ? 0 : 1;
  const homeShare = script.possession / 100;

  for (const ev of events) {
    // Touches between the previous event and this one, if the ball was in play.
    if (prev && prev.kind !== 'halftime' && prev.kind !== 'end' && ev.period === prev.period) {
      carry += (ev.t - prev.t) * perSecond;
      const count = Math.floor(carry);
      carry -= count;
      for (let k = 1; k <= count; k++) {
        const t = prev.t + Math.floor(((ev.t - prev.t) * k) / (count + 1));
        if (rng.chance(0.12)) side = rng.chance(homeShare) ? 0 : 1;
        let r = rng.next() * TOUCH_TOTAL;
        let kind: FillerKind = 'pass';
        for (const [k2, w] of TOUCH_MIX) {
          r -= w;
          if (r < 0) {
            kind = k2;
            break;
          }
        }
        const team = side;
        const squad = onPitch[team];
        const player =
          kind === 'goalKick' ? (squad.find((p) => p.pos === 'G') ?? squad[0]!) : squad[rng.int(0, squad.length - 1)]!;
        const x = coord(rng);
        const y = coord(rng);
        const type: FillerType = FILLER_TYPES[kind];
        plays.push({
          filler: {
            kind,
            id: `${m.id}${String(prev.n).padStart(4, '0')}${String(k).padStart(3, '0')}`,
            period: ev.period,
            t,
            team,
            player: player ?? null,
            home: prev.home,
            away: prev.away,
            x,
            y,
            x2: type.to ? coord(rng) : 0,
            y2: type.to ? coord(rng) : 0,
            key: false,
            variant: rng.int(0, 1_000_000),
          },
        });
      }
    }
    at.set(ev.n, eventSpot(rng, ev));
    plays.push({ ev });
    // Who is on the pitch from here on.
    if (ev.kind === 'sub') {
      const s = ev.actors[0]!.side;
      onPitch[s] = onPitch[s].map((p) => (p === ev.actors[1]!.player ? ev.actors[0]!.player : p));
    } else if (ev.kind === 'red') {
      const s = ev.actors[0]!.side;
      onPitch[s] = onPitch[s].filter((p) => p !== ev.actors[0]!.player);
    }
    prev = ev;
  }

  // Commentary-worthy touches: free kicks won, delays, hand balls, up to ESPN's count of lines.
  const fillers = plays.filter((p): p is { filler: Filler } => p.filler !== undefined).map((p) => p.filler);
  const lines = Math.max(0, commentaryTarget - 1 - events.length);
  const step = fillers.length / Math.max(1, lines);
  const mark = (f: Filler, kind: FillerKind) => {
    f.kind = kind;
    if (kind === 'startDelay' || kind === 'endDelay') f.x = f.y = 0;
    f.x2 = kind === 'freeKick' ? coord(rng) : 0;
    f.y2 = kind === 'freeKick' ? coord(rng) : 0;
    f.key = true;
  };
  for (let i = 0; i < lines && fillers.length; i++) {
    const at = Math.min(fillers.length - 1, Math.floor(i * step + rng.next() * step));
    const f = fillers[at]!;
    if (f.key) continue;
    const r = rng.next();
    const next = fillers[at + 1];
    // A delay is a pair of lines: it starts, and a few touches later it is over.
    if (r >= 0.9 && next && !next.key && i + 1 < lines) {
      mark(f, 'startDelay');
      mark(next, 'endDelay');
      i++;
    } else mark(f, r < 0.8 ? 'freeKick' : 'handBall');
  }
  // The pruned stream: the script's events, the commentary touches and set pieces up to its target.
  let keep = prunedTarget - events.length - fillers.filter((f) => f.key).length;
  const candidates = fillers.filter((f) => !f.key && PRUNED_KINDS.has(f.kind));
  const every = candidates.length / Math.max(1, keep);
  for (let i = 0; keep > 0 && i < candidates.length; i++) {
    if (Math.floor(i / every) !== Math.floor((i + 1) / every) || every <= 1) {
      candidates[i]!.key = true;
      keep--;
    }
  }
  const stream = { plays, at };
  CACHE.set(script, stream);
  return stream;
}

/** The plays of the stream that have happened by the clock (the stream up to the last visible moment). */
export function visiblePlays(
  stream: TouchStream,
  visible: readonly MatchEvent[],
  clockKey: number | null,
): StreamPlay[] {
  if (clockKey === null) return stream.plays;
  const last = visible.at(-1);
  if (!last) return [];
  return stream.plays.filter((p) => (p.ev ? p.ev.n <= last.n : eventKey(p.filler.period, p.filler.t) <= clockKey));
}

/** A touch's commentary-style text, as ESPN writes the feed's touches. */
export function fillerText(f: Filler, team: (side: Side) => string, minute: string): { text: string; short: string } {
  const who = f.player ? f.player.displayName : '';
  const side = f.team === null ? '' : team(f.team);
  switch (f.kind) {
    case 'freeKick':
      return {
        text: `${who} (${side}) wins a free kick ${f.variant % 3 === 0 ? 'on the left wing' : f.variant % 3 === 1 ? 'on the right wing' : 'in the defensive half'}.`,
        short: `${who} Free Kick`,
      };
    case 'startDelay':
      return {
        text: `Delay in match because of an injury ${who} (${side}).`,
        short: 'Start Delay',
      };
    case 'endDelay':
      return { text: 'Delay over. They are ready to continue.', short: 'End Delay' };
    case 'handBall':
      return { text: `${who} (${side}) hand ball.`, short: `${who} Hand Ball` };
    default: {
      const type = FILLER_TYPES[f.kind];
      return { text: `${who} (${side}) ${type.text} at ${minute}`, short: `${who} ${type.text}` };
    }
  }
}
