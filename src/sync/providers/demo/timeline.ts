/**
 * One match's full script: lineups and every event (markers, goals, cards, substitutions, fouls,
 * shots, corners, offsides) in order, with the people involved and the running score. Scoreboard,
 * summary and plays are all views of this one script, which is what keeps them in agreement.
 * A live match shows the prefix of its script up to the reference instant.
 */
import type { DemoClub, DemoPlayer, Pos } from './clubs.js';
import type { Rng } from './random.js';
import { rngFor } from './random.js';
import type { DemoMatch, DemoSeason } from './season.js';

export type Side = 0 | 1;
export type Kind =
  | 'kickoff'
  | 'halftime'
  | 'start2'
  | 'end'
  | 'goal'
  | 'penalty'
  | 'own-goal'
  | 'yellow'
  | 'red'
  | 'sub'
  | 'foul'
  | 'shot-on'
  | 'shot-off'
  | 'shot-blocked'
  | 'corner'
  | 'offside';

export interface Actor {
  player: DemoPlayer;
  side: Side;
  role: string;
}

export interface MatchEvent {
  /** 1-based position in the full script; the play id is derived from it. */
  n: number;
  kind: Kind;
  period: 1 | 2;
  /** Match seconds: period 1 runs from 0, period 2 from 2700; stoppage runs past 2700 / 5400. */
  t: number;
  /** ESPN's team attribution (own goals: the team credited; corners: the team conceding). */
  team: Side | null;
  actors: Actor[];
  home: number;
  away: number;
  /** Variety for texts (shot detail, header, second yellow, injury, penalty foul). */
  flag?: 'header' | 'second-yellow' | 'injury' | 'penalty-foul';
  caught?: DemoPlayer;
  variant: number;
}

export interface Lineup {
  club: DemoClub;
  side: Side;
  formation: string;
  starters: DemoPlayer[];
  bench: DemoPlayer[];
}

export interface MatchScript {
  match: DemoMatch;
  lineups: [Lineup, Lineup];
  events: MatchEvent[];
  /** Home possession share in percent. */
  possession: number;
}

const FORMATIONS: Array<[string, number, number, number]> = [
  ['4-3-3', 4, 3, 3],
  ['4-4-2', 4, 4, 2],
  ['4-2-3-1', 4, 5, 1],
  ['3-5-2', 3, 5, 2],
  ['3-4-3', 3, 4, 3],
  ['5-3-2', 5, 3, 2],
];

const P1_END = 2700;
const P2_END = 5400;

export const periodEnd = (m: DemoMatch, period: 1 | 2) => (period === 1 ? P1_END + m.a1 * 60 : P2_END + m.a2 * 60);
export const eventKey = (period: number, t: number) => period * 100_000 + t;

function pickLineup(rng: Rng, club: DemoClub, side: Side): Lineup {
  const [formation, d, m, f] = rng.pick(FORMATIONS);
  const byPos = (pos: Pos) => club.players.filter((p) => p.pos === pos);
  // Earlier squad members are the regulars: a light shuffle keeps them likely starters.
  const ranked = (pos: Pos) =>
    byPos(pos)
      .map((p, i) => ({ p, k: i + rng.next() * 3 }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.p);
  const gks = ranked('G');
  const defs = ranked('D');
  const mids = ranked('M');
  const fwds = ranked('F');
  // A 5-man midfield borrows from the forwards when the squad is short of midfielders.
  const takeMid = Math.min(m, mids.length);
  const starters = [gks[0]!, ...defs.slice(0, d), ...mids.slice(0, takeMid), ...fwds.slice(0, f + (m - takeMid))];
  const rest = [...gks.slice(1, 2), ...defs.slice(d), ...mids.slice(takeMid), ...fwds.slice(f + (m - takeMid))];
  return { club, side, formation, starters, bench: rest.slice(0, 9) };
}

interface Raw {
  kind: Kind;
  period: 1 | 2;
  t: number;
  side: Side | null;
  order: number;
  flag?: MatchEvent['flag'];
}

const SCORER: Record<Pos, number> = { G: 0, D: 1, M: 3, F: 5 };
const ASSIST: Record<Pos, number> = { G: 0.1, D: 2, M: 4, F: 3 };
const FOULER: Record<Pos, number> = { G: 0.2, D: 3, M: 3, F: 2 };
const DEFENDER: Record<Pos, number> = { G: 1, D: 5, M: 2, F: 1 };
const CAUGHT: Record<Pos, number> = { G: 0, D: 0.3, M: 2, F: 5 };

export function buildScript(season: DemoSeason, m: DemoMatch): MatchScript {
  const rng = rngFor(season.seed, 'match', m.id);
  const lineups: [Lineup, Lineup] = [pickLineup(rng, m.home, 0), pickLineup(rng, m.away, 1)];
  const raws: Raw[] = [];
  let order = 0;
  const add = (kind: Kind, period: 1 | 2, t: number, side: Side | null, flag?: Raw['flag']) =>
    raws.push({ kind, period, t, side, order: order++, flag });
  const L1 = periodEnd(m, 1) - 2;
  const L2 = periodEnd(m, 2) - P1_END - 2;
  const anyTime = (): [1 | 2, number] => {
    const u = rng.int(1, L1 + L2);
    return u <= L1 ? [1, u] : [2, P1_END + (u - L1)];
  };

  add('kickoff', 1, 0, null);
  add('halftime', 1, periodEnd(m, 1), null);
  add('start2', 2, P1_END, null);
  add('end', 2, periodEnd(m, 2), null);

  m.goals.forEach((count, s) => {
    const side = s as Side;
    for (let i = 0; i < count; i++) {
      const [period, t] = anyTime();
      const r = rng.next();
      if (r < 0.07) add('own-goal', period, t, side);
      else if (r < 0.17) {
        // The foul that gave the penalty comes a little before the kick.
        const start = period === 1 ? 1 : P1_END + 1;
        add('foul', period, Math.max(start, t - rng.int(40, 120)), (1 - side) as Side, 'penalty-foul');
        add('penalty', period, t, side);
      } else add('goal', period, t, side, rng.chance(0.2) ? 'header' : undefined);
    }
  });

  const tilt = Math.sqrt(m.home.strength / m.away.strength);
  for (const side of [0, 1] as Side[]) {
    const f = side === 0 ? tilt : 1 / tilt;
    const counts: Array<[Kind, number]> = [
      // About a third of a real key-play stream (~50 plays a match): every kind of play, and a store of manageable size.
      ['foul', rng.poisson(5.5)],
      ['shot-off', rng.poisson(2.6 * f)],
      ['shot-blocked', rng.poisson(1.5 * f)],
      ['shot-on', rng.poisson(2 * f)],
      ['corner', rng.poisson(3 * f)],
      ['offside', rng.poisson(1.3)],
      ['yellow', rng.poisson(1.7)],
    ];
    for (const [kind, count] of counts) {
      for (let i = 0; i < count; i++) {
        const [period, t] = anyTime();
        // Corners are attributed to the team that concedes them, as ESPN does.
        add(kind, period, t, kind === 'corner' ? ((1 - side) as Side) : side);
      }
    }
    if (rng.chance(0.035)) add('red', ...anyTime(), side);
    if (rng.chance(0.12)) add('sub', 1, rng.int(15 * 60, 44 * 60), side, 'injury');
    // Substitutions come in a few windows: half-time, around the hour, and late on.
    const windows = [P1_END + 1, rng.int(55, 70) * 60, rng.int(71, 88) * 60].filter(() => rng.chance(0.8));
    if (windows.length === 0) windows.push(rng.int(60, 80) * 60);
    const subs = rng.int(3, 5);
    for (let i = 0; i < subs; i++) add('sub', 2, windows[i % windows.length]!, side);
  }

  const rank = (r: Raw) =>
    r.kind === 'kickoff' || r.kind === 'start2' ? 0 : r.kind === 'halftime' || r.kind === 'end' ? 2 : 1;
  raws.sort((a, b) => eventKey(a.period, a.t) - eventKey(b.period, b.t) || rank(a) - rank(b) || a.order - b.order);
  return { match: m, lineups, events: walk(rng, lineups, raws), possession: possession(rng, tilt) };
}

function possession(rng: Rng, tilt: number): number {
  const share = 50 + 12 * Math.log(tilt) + (rng.next() - 0.5) * 10;
  return Math.round(Math.min(70, Math.max(30, share)) * 10) / 10;
}

interface SideState {
  onPitch: DemoPlayer[];
  bench: DemoPlayer[];
  booked: Set<string>;
  /** Players who came on; they are not taken off again. */
  cameOn: Set<DemoPlayer>;
  subs: number;
}

/** Give each raw event its people, in match order, so only players on the pitch take part. */
function walk(rng: Rng, lineups: [Lineup, Lineup], raws: Raw[]): MatchEvent[] {
  const state: [SideState, SideState] = [0, 1].map((s) => ({
    onPitch: [...lineups[s]!.starters],
    bench: [...lineups[s]!.bench],
    booked: new Set<string>(),
    cameOn: new Set<DemoPlayer>(),
    subs: 0,
  })) as [SideState, SideState];
  const choose = (side: Side, weights: Record<Pos, number>, not?: DemoPlayer): DemoPlayer =>
    rng.weighted(state[side].onPitch, (p) => (p === not ? 0 : weights[p.pos])) ?? state[side].onPitch[0]!;
  const actor = (player: DemoPlayer, side: Side, role: string): Actor => ({ player, side, role });
  const score = [0, 0];
  const out: MatchEvent[] = [];

  for (const raw of raws) {
    const side = raw.side ?? 0;
    const other = (1 - side) as Side;
    const ev: MatchEvent = {
      n: 0,
      kind: raw.kind,
      period: raw.period,
      t: raw.t,
      team: raw.side,
      actors: [],
      home: 0,
      away: 0,
      variant: rng.int(0, 1_000_000),
      flag: raw.flag,
    };
    switch (raw.kind) {
      case 'goal':
      case 'penalty': {
        const scorer = choose(side, SCORER);
        ev.actors.push(actor(scorer, side, 'scorer'));
        if (raw.kind === 'goal' && rng.chance(0.75))
          ev.actors.push(actor(choose(side, ASSIST, scorer), side, 'assister'));
        score[side]!++;
        break;
      }
      case 'own-goal':
        ev.actors.push(actor(choose(other, DEFENDER), other, 'scorer'));
        score[side]!++;
        break;
      case 'yellow': {
        const st = state[side];
        const p = rng.weighted(st.onPitch, (x) => FOULER[x.pos] * (st.booked.has(x.id) ? 0.25 : 1))!;
        ev.actors.push(actor(p, side, 'carded'));
        if (st.booked.has(p.id)) {
          if (st.onPitch.length <= 9) continue;
          ev.kind = 'red';
          ev.flag = 'second-yellow';
          st.onPitch = st.onPitch.filter((x) => x !== p);
        } else st.booked.add(p.id);
        break;
      }
      case 'red': {
        const st = state[side];
        if (st.onPitch.length <= 9) continue;
        const p = choose(side, FOULER);
        ev.actors.push(actor(p, side, 'carded'));
        st.onPitch = st.onPitch.filter((x) => x !== p);
        break;
      }
      case 'sub': {
        const st = state[side];
        if (st.subs >= 5 || st.bench.length === 0) continue;
        const off = rng.weighted(st.onPitch, (x) => (x.pos === 'G' || st.cameOn.has(x) ? 0 : x.pos === 'F' ? 3 : 2));
        if (!off) continue;
        const on = rng.weighted(st.bench, (x) => (x.pos === 'G' ? 0 : x.pos === off.pos ? 4 : 1));
        if (!on) continue;
        st.onPitch = st.onPitch.map((x) => (x === off ? on : x));
        st.bench = st.bench.filter((x) => x !== on);
        st.cameOn.add(on);
        st.subs++;
        ev.actors.push(actor(on, side, 'subbed-in'), actor(off, side, 'subbed-out'));
        break;
      }
      case 'foul': {
        const fouler = raw.flag === 'penalty-foul' ? choose(side, DEFENDER) : choose(side, FOULER);
        ev.actors.push(actor(fouler, side, 'fouler'), actor(choose(other, FOULER), other, 'fouled'));
        break;
      }
      case 'shot-on':
      case 'shot-off':
      case 'shot-blocked': {
        const shooter = choose(side, SCORER);
        ev.actors.push(actor(shooter, side, 'shooter'));
        if (rng.chance(0.55)) ev.actors.push(actor(choose(side, ASSIST, shooter), side, 'assister'));
        break;
      }
      case 'corner':
        ev.actors.push(actor(choose(side, DEFENDER), side, 'corner-taker'));
        break;
      case 'offside': {
        const caught = choose(side, CAUGHT);
        ev.actors.push(actor(choose(side, ASSIST, caught), side, 'passer'));
        ev.caught = caught;
        break;
      }
      default:
        break;
    }
    ev.home = score[0]!;
    ev.away = score[1]!;
    ev.n = out.length + 1;
    out.push(ev);
  }
  return out;
}
