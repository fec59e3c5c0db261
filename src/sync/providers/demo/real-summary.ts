/**
 * Real weight (issue #50): the summary and board payloads at ESPN's sizes and proportions. Each
 * builds on the light payload (which stays byte for byte what it was) and gives its sections what
 * ESPN's carry: whole matchday squads with ESPN's fourteen per-player statistics, commentary at
 * ESPN's count drawn from the touch-level stream, news with images and categories, a recap article,
 * leaders, odds from two fictional books, broadcasts, videos, the head-to-head record, the table.
 * Names stay fictional; links point at the demo's asset host.
 */
import type { DemoClub, DemoPlayer } from './clubs.js';
import { DEMO_ASSET_HOST } from './clubs.js';
import type { MatchView } from './payloads-board.js';
import type { LeagueSeason } from './progress.js';
import { hashSeed, rngFor } from './random.js';
import { SOURCE, isGoal, playClock, playId, positionObject, wallclock } from './shapes.js';
import { emptyPlayer, playerTallies } from './stats.js';
import type { PlayerTally } from './stats.js';
import { playTexts } from './texts.js';
import type { Side } from './timeline.js';
import { COMMENTARY_KINDS, FILLER_TYPES, KEY_FILLER_KINDS, fillerText, touchStream } from './real-stream.js';
import type { Filler } from './real-stream.js';
import { streamNow } from './real-plays.js';
import { summaryPlay } from './payloads-summary.js';

type Obj = Record<string, unknown>;
const H = DEMO_ASSET_HOST;

/** A stable GUID-shaped id from labels. */
export function guid(...parts: Array<string | number>): string {
  const hex = [0, 1, 2, 3]
    .map((i) =>
      hashSeed(...parts, i)
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const slugOf = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const link = (rel: string[], href: string, text: string, extra: Obj = {}) => ({
  language: 'en-US',
  rel,
  href,
  text,
  shortText: text,
  isExternal: false,
  isPremium: false,
  ...extra,
});

export function teamLinks(club: DemoClub) {
  const slug = club.slug;
  return [
    {
      rel: ['clubhouse', 'desktop', 'team'],
      href: `${H}/soccer/club/_/id/${club.id}/${slug}`,
      text: 'Clubhouse',
      isExternal: false,
      isPremium: false,
      isHidden: false,
    },
    {
      rel: ['stats', 'desktop', 'team'],
      href: `${H}/soccer/team/stats/_/id/${club.id}/${slug}`,
      text: 'Stats',
      isExternal: false,
      isPremium: false,
      isHidden: false,
    },
    {
      rel: ['schedule', 'desktop', 'team'],
      href: `${H}/soccer/team/fixtures/_/id/${club.id}/${slug}`,
      text: 'Fixtures',
      isExternal: false,
      isPremium: false,
      isHidden: false,
    },
    {
      rel: ['squad', 'desktop', 'team'],
      href: `${H}/soccer/team/squad/_/id/${club.id}/${slug}`,
      text: 'Squad',
      isExternal: false,
      isPremium: false,
      isHidden: false,
    },
  ];
}

export const teamLogos = (club: DemoClub) => [
  { href: club.logo, width: 500, height: 500, alt: '', rel: ['full', 'default'], lastUpdated: '2024-07-01T12:00Z' },
  { href: club.darkLogo, width: 500, height: 500, alt: '', rel: ['full', 'dark'], lastUpdated: '2024-07-01T12:00Z' },
];

const shortLinks = (club: DemoClub) => [
  { href: `${H}/soccer/team/_/id/${club.id}/${club.slug}`, text: 'Clubhouse' },
  { href: `${H}/soccer/team/fixtures/_/id/${club.id}/${club.slug}`, text: 'Fixtures' },
];

function athleteFull(s: LeagueSeason, p: DemoPlayer, eventId: string) {
  return {
    id: p.id,
    uid: `s:600~a:${p.id}`,
    guid: guid(s.seed, 'athlete', p.id),
    lastName: p.lastName,
    fullName: p.displayName,
    displayName: p.displayName,
    shortName: p.shortName,
    links: [
      link(
        ['playercard', 'desktop', 'athlete'],
        `${H}/soccer/player/_/id/${p.id}/${slugOf(p.displayName)}`,
        'Player Card',
      ),
    ],
    jerseyImages: [false, true].map((dark) => ({
      href: `${H}/sports/soccer/leagues/${s.ref.slug}/events/${eventId}/athletes/${p.id}/jersey.png?darkMode=${dark}`,
      rel: ['full', dark ? 'dark' : 'default'],
      width: 1440,
      height: 1440,
    })),
  };
}

/** ESPN's fourteen per-player statistics, with its names and our own descriptions. */
const PLAYER_STATS: Array<[string, string, string, string, (t: PlayerTally, x: Extra) => number]> = [
  [
    'appearances',
    'Appearances',
    'APP',
    'How many times the player has appeared in a match, as starter or substitute.',
    (_t, x) => x.app,
  ],
  [
    'foulsCommitted',
    'Fouls Committed',
    'FC',
    'How many fouls the player or team has committed in the match.',
    (t) => t.foulsCommitted,
  ],
  [
    'foulsSuffered',
    'Fouls Suffered',
    'FA',
    'How many times the player or team has been fouled in the match.',
    (t) => t.foulsSuffered,
  ],
  ['ownGoals', 'Own Goals', 'OG', 'How many goals the player has put into his own side’s net.', (t) => t.ownGoals],
  ['redCards', 'Red Cards', 'RC', 'How many red cards the referee has shown to the player in the match.', (t) => t.red],
  [
    'subIns',
    'Substitute Appearances',
    'SUB',
    'How many times the player has come on from the bench in a match.',
    (_t, x) => x.subIn,
  ],
  [
    'yellowCards',
    'Yellow Cards',
    'YC',
    'How many yellow cards the referee has shown to the player so far.',
    (t) => t.yellow,
  ],
  [
    'goalsConceded',
    'Goals Against',
    'GA',
    'How many goals the goalkeeper has let in while on the pitch.',
    (t) => t.conceded,
  ],
  ['saves', 'Saves', 'SV', 'How many shots on target the goalkeeper has kept out of the net.', (t) => t.saves],
  [
    'shotsFaced',
    'Shots Faced',
    'SHF',
    'How many shots on target the goalkeeper has had to deal with.',
    (t) => t.saves + t.conceded,
  ],
  ['goalAssists', 'Assists', 'A', 'How many passes by the player have led directly to a goal.', (t) => t.assists],
  [
    'shotsOnTarget',
    'Shots On Target',
    'ST',
    'How many of the player’s attempts were on target or went in.',
    (t) => t.onTarget,
  ],
  ['totalGoals', 'Total Goals', 'G', 'How many goals the player has scored against the opposing side.', (t) => t.goals],
  [
    'totalShots',
    'Total Shots',
    'SH',
    'How many attempts at goal the player has made, on or off target.',
    (t) => t.shots,
  ],
];
interface Extra {
  app: number;
  subIn: number;
}
const ZERO = emptyPlayer();

function fullStats(t: PlayerTally | undefined, x: Extra) {
  return PLAYER_STATS.map(([name, displayName, abbreviation, description, get]) => {
    const value = get(t ?? ZERO, x);
    return {
      name,
      displayName,
      shortDisplayName: abbreviation,
      description,
      abbreviation,
      value,
      displayValue: String(value),
    };
  });
}

function rosters(s: LeagueSeason, v: MatchView, light: Obj[]) {
  const tallies = v.script ? playerTallies(v.script, v.events) : new Map<string, PlayerTally>();
  return light.map((side, i) => {
    const club = i === 0 ? v.m.home : v.m.away;
    const entries = side.roster as Array<Obj & { athlete: { id: string }; starter: boolean; subbedIn: boolean }>;
    const byId = new Map(club.players.map((p) => [p.id, p]));
    const listed = new Set(entries.map((e) => e.athlete.id));
    const enrich = (e: Obj & { athlete: { id: string }; starter: boolean; subbedIn: boolean }) => {
      const p = byId.get(e.athlete.id)!;
      const played = e.starter || e.subbedIn;
      return {
        ...e,
        athlete: { ...(e.athlete as Obj), ...athleteFull(s, p, v.m.id) },
        media: {},
        stats: fullStats(tallies.get(p.id), { app: played ? 1 : 0, subIn: e.subbedIn ? 1 : 0 }),
      };
    };
    // The rest of the matchday squad: named, never on the pitch.
    const rest = entries.length
      ? club.players
          .filter((p) => !listed.has(p.id))
          .map((p) => ({
            active: true,
            starter: false,
            jersey: p.jersey,
            athlete: {
              id: p.id,
              uid: `s:600~a:${p.id}`,
              lastName: p.lastName,
              fullName: p.displayName,
              displayName: p.displayName,
            },
            position: { name: 'Substitute', displayName: 'Substitute', abbreviation: 'SUB' },
            subbedIn: false,
            subbedOut: false,
            formationPlace: '0',
            stats: [],
          }))
      : [];
    return {
      ...side,
      team: { ...(side.team as Obj), links: teamLinks(club), logos: teamLogos(club) },
      roster: [...entries, ...rest].map((e) => enrich(e as never)),
      uniform: { type: i === 0 ? 'home' : 'away', color: club.color, alternateColor: club.alternateColor },
    };
  });
}

/** A play as the summary's commentary and key events carry it, with ESPN's field positions. */
function streamPlayObject(
  s: LeagueSeason,
  v: MatchView,
  p: { ev?: import('./timeline.js').MatchEvent; filler?: Filler },
  withIds: boolean,
) {
  const clubs = [v.m.home, v.m.away];
  const stream = touchStream(s.seed, v.script!);
  if (p.ev) {
    const e = p.ev;
    const spot = stream.at.get(e.n)!;
    return {
      ...summaryPlay(v, e, withIds),
      ...(spot.x || spot.y
        ? {
            ...(e.kind.startsWith('shot') || isGoal(e) ? { goalPositionY: spot.y2 } : {}),
            fieldPositionX: spot.x,
            fieldPositionY: spot.y,
            fieldPosition2X: spot.x2,
            fieldPosition2Y: spot.y2,
          }
        : {}),
    };
  }
  const f = p.filler!;
  const c = playClock({ period: f.period, t: f.t, kind: 'foul' });
  const texts = fillerText(f, (side: Side) => clubs[side]!.displayName, c.clock.displayValue);
  const type = FILLER_TYPES[f.kind];
  return {
    id: f.id,
    type: { id: type.id, text: type.text, type: type.type },
    text: texts.text,
    shortText: texts.short,
    period: { number: f.period },
    clock: c.clock,
    scoringPlay: false,
    ...(f.team === null
      ? {}
      : {
          team: withIds
            ? { id: clubs[f.team]!.id, displayName: clubs[f.team]!.displayName }
            : { displayName: clubs[f.team]!.displayName },
        }),
    ...(f.player
      ? {
          participants: [
            {
              athlete: withIds
                ? { id: f.player.id, displayName: f.player.displayName }
                : { displayName: f.player.displayName },
            },
          ],
        }
      : {}),
    source: SOURCE,
    wallclock: wallclock(v.m, f.period, f.t),
    shootout: false,
    ...(f.x || f.y ? { fieldPositionX: f.x, fieldPositionY: f.y, fieldPosition2X: f.x2, fieldPosition2Y: f.y2 } : {}),
  };
}

function commentary(s: LeagueSeason, v: MatchView) {
  if (!v.script) return [];
  const lines = streamNow(s, v).filter((p) => p.ev || (p.filler.key && COMMENTARY_KINDS.has(p.filler.kind)));
  return [
    { sequence: 0, time: { value: 0, displayValue: '' }, text: 'Lineups are announced and players are warming up.' },
    ...lines.map((p, i) => {
      const play = streamPlayObject(s, v, p, false);
      return { sequence: i + 1, time: play.clock, text: play.text, play };
    }),
  ];
}

function keyEvents(s: LeagueSeason, v: MatchView, light: Obj[]) {
  if (!v.script) return light;
  const ids = new Set(light.map((e) => e.id));
  const stream = streamNow(s, v);
  return stream
    .filter((p) => (p.ev ? ids.has(playId(v.m, p.ev)) : p.filler.key && KEY_FILLER_KINDS.has(p.filler.kind)))
    .map((p) => streamPlayObject(s, v, p, true));
}

function header(s: LeagueSeason, v: MatchView, light: Obj) {
  const comps = light.competitions as Obj[];
  const comp = comps[0]!;
  const clubs = [v.m.home, v.m.away];
  const gameSlug = `${v.m.away.slug}-${v.m.home.slug}`;
  const gameLinks = [
    'summary',
    'recap',
    'boxscore',
    'lineups',
    'commentary',
    'stats',
    'matchstats',
    'playbyplay',
    'videos',
    'preview',
  ].map((kind) =>
    link(
      [kind, 'desktop', 'event'],
      `${H}/soccer/${kind}/_/gameId/${v.m.id}/${gameSlug}`,
      kind[0]!.toUpperCase() + kind.slice(1),
    ),
  );
  return {
    ...light,
    competitions: [
      {
        ...comp,
        conferenceCompetition: false,
        onWatchESPN: false,
        competitors: (comp.competitors as Obj[]).map((c, i) => ({
          ...c,
          team: {
            ...(c.team as Obj),
            guid: guid(s.seed, 'club', clubs[i]!.id),
            location: clubs[i]!.location,
            name: clubs[i]!.name,
            shortDisplayName: clubs[i]!.shortDisplayName,
            color: clubs[i]!.color,
            alternateColor: clubs[i]!.alternateColor,
            logos: teamLogos(clubs[i]!),
            links: teamLinks(clubs[i]!),
          },
        })),
        details: ((comp.details as Obj[]) ?? []).map((d) => ({
          ...d,
          team: { ...(d.team as Obj), ...teamBrief(clubs.find((c) => c.id === (d.team as { id: string }).id)!) },
        })),
        boxscoreMinutes: true,
        shotMapAvailable: v.script !== null,
      },
    ],
    links: gameLinks,
  };
}

const teamBrief = (c: DemoClub) => ({
  uid: `s:600~t:${c.id}`,
  location: c.location,
  name: c.name,
  abbreviation: c.abbreviation,
  displayName: c.displayName,
});

function boxscore(s: LeagueSeason, v: MatchView, light: Obj) {
  const form = (light.form as Array<Obj & { events: Obj[] }>).map((f) => ({
    ...f,
    events: f.events.map((e) => {
      const opp = s.clubById.get((e.opponent as { id: string }).id)!;
      return {
        ...e,
        links: [{ href: `${H}/soccer/match/_/gameId/${e.id}/${slugOf(String(e.id))}`, text: 'Summary' }],
        homeAggregateScore: '0',
        awayAggregateScore: '0',
        homeShootoutScore: '0',
        awayShootoutScore: '0',
        competitionName: `${s.season.displayName} ${s.ref.name}`,
        opponent: { ...(e.opponent as Obj), links: shortLinks(opp), logos: teamLogos(opp) },
        opponentLogo: opp.logo,
      };
    }),
  }));
  const teams = (light.teams as Obj[]).map((t, i) => {
    const club = i === 0 ? v.m.home : v.m.away;
    return {
      ...t,
      team: {
        ...(t.team as Obj),
        uniform: { type: i === 0 ? 'home' : 'away', color: club.color, alternateColor: club.alternateColor },
      },
    };
  });
  return { form, teams };
}

function gameInfo(s: LeagueSeason, light: Obj) {
  const venue = light.venue as Obj;
  const officials = light.officials as Obj[];
  return {
    venue: { ...venue, guid: guid(s.seed, 'venue', String(venue.id)), images: [] },
    attendance: light.attendance,
    officials: officials.slice(0, 1),
  };
}

const BOOKS = [
  { id: 'demo-1', name: 'Demo Book One (fictional)' },
  { id: 'demo-2', name: 'Demo Book Two (fictional)' },
];

function oddsLines(v: MatchView, light: Obj[]) {
  const base = light[0] as Obj & { homeTeamOdds: Obj; awayTeamOdds: Obj; drawOdds: Obj };
  if (!base) return [];
  return BOOKS.map((book, i) => {
    const shift = i * 5;
    const ml = (o: Obj) => Number(o.moneyLine) + (Number(o.moneyLine) > 0 ? shift : -shift);
    const bet = (side: string, n: number) =>
      link(
        [side, 'desktop', 'bets', book.id],
        `${H}/bets/${book.id}/event/${v.m.id}?outcome=${n}&source=demo&placement=widget`,
        `${side[0]!.toUpperCase()}${side.slice(1)} Bet`,
        { isExternal: true },
      );
    const price = (n: number) => ({
      value: n,
      displayValue: n > 0 ? `+${n}` : String(n),
      alternateDisplayValue: String(n),
      decimal: Math.round((n > 0 ? 1 + n / 100 : 1 - 100 / n) * 100) / 100,
      fraction: `${Math.abs(n)}/100`,
      american: String(n),
    });
    const line = (n: number, home: boolean) => ({
      moneyLine: price(n),
      pointSpread: {
        value: home ? -0.5 : 0.5,
        displayValue: home ? '-0.5' : '+0.5',
        alternateDisplayValue: home ? '-0.5' : '+0.5',
      },
      spread: price(home ? -110 - shift : -110 + shift),
    });
    const team = (o: Obj, home: boolean) => ({
      ...o,
      moneyLine: ml(o),
      spreadOdds: home ? -110 - shift : -110 + shift,
      team: { $ref: `${H}/v2/sports/soccer/teams/${home ? v.m.home.id : v.m.away.id}` },
      favoriteAtOpen: o.favorite,
      open: line(ml(o), home),
      close: line(ml(o), home),
      current: line(ml(o), home),
    });
    return {
      ...base,
      provider: {
        id: book.id,
        name: book.name,
        priority: i + 1,
        logos: [
          { href: `${H}/i/betting/${book.id}_light.svg`, rel: ['light'] },
          { href: `${H}/i/betting/${book.id}_dark.svg`, rel: ['dark'] },
        ],
      },
      overOdds: 130 + shift,
      underOdds: -160 - shift,
      awayTeamOdds: team(base.awayTeamOdds, false),
      homeTeamOdds: team(base.homeTeamOdds, true),
      drawOdds: {
        ...base.drawOdds,
        open: { value: base.drawOdds.moneyLine },
        close: { value: base.drawOdds.moneyLine },
      },
      links: [bet('home', 1), bet('away', 3), bet('draw', 2), bet('over', 4), bet('under', 5)],
      moneylineWinner: false,
      spreadWinner: false,
    };
  });
}

const BROADCASTS = [
  ['1', 'TV', 'Television', 'television', 'DSTV', 'Demo Sports TV'],
  ['1', 'TV', 'Television', 'television', 'DSTV2', 'Demo Sports TV 2'],
  ['4', 'STREAMING', 'Streaming', 'streaming', 'DSTR', 'Demo Stream+'],
].map(([id, shortName, longName, slug, callLetters, name]) => ({
  type: { id, shortName, longName, slug },
  market: {},
  media: { callLetters, name, shortName: callLetters },
  lang: 'en',
  region: 'us',
  isNational: false,
}));

function leaders(s: LeagueSeason, v: MatchView, light: Obj[]) {
  if (!v.script) return light;
  const tallies = playerTallies(v.script, v.events);
  return v.script.lineups.map((l, side) => {
    const rng = rngFor(s.seed, 'leaders', v.m.id, side);
    const squad = [...l.starters];
    const stat = (name: string, displayName: string, abbreviation: string, value: number) => ({
      name,
      displayName,
      shortDisplayName: abbreviation,
      description: `${displayName} recorded for the player in this match.`,
      abbreviation,
      value,
      displayValue: String(value),
    });
    const categories: Array<[string, string, string, (p: DemoPlayer) => number]> = [
      ['totalShots', 'Total Shots', 'SHOT', (p) => tallies.get(p.id)?.shots ?? 0],
      [
        'accuratePasses',
        'Accurate Passes',
        'AP',
        (p) => (hashSeed(s.seed, 'passes', v.m.id, p.id) % 60) + (p.pos === 'M' ? 25 : 5),
      ],
      [
        'totalTackles',
        'Tackles',
        'TK',
        (p) => (hashSeed(s.seed, 'tackles', v.m.id, p.id) % 6) + (p.pos === 'D' ? 2 : 0),
      ],
      ['foulsSuffered', 'Fouls Suffered', 'FA', (p) => tallies.get(p.id)?.foulsSuffered ?? 0],
      ['saves', 'Saves', 'SV', (p) => tallies.get(p.id)?.saves ?? 0],
    ];
    return {
      team: {
        id: l.club.id,
        uid: `s:600~t:${l.club.id}`,
        displayName: l.club.displayName,
        abbreviation: l.club.abbreviation,
        links: shortLinks(l.club),
        logo: l.club.logo,
      },
      leaders: categories.map(([name, displayName, abbr, get]) => {
        const best = squad.map((p) => ({ p, n: get(p) })).sort((a, b) => b.n - a.n || (a.p.id < b.p.id ? -1 : 1))[0]!;
        const second = rng.int(0, Math.max(0, best.n));
        return {
          name,
          displayName,
          leaders: [
            {
              displayValue: String(best.n),
              athlete: {
                ...athleteFull(s, best.p, v.m.id),
                jersey: best.p.jersey,
                position: positionObject(best.p),
                status: { id: '1', name: 'Active', type: 'active', abbreviation: 'Active' },
              },
              statistics: [
                stat(name, displayName, abbr, best.n),
                stat(`${name}Secondary`, `${displayName} (second half)`, `${abbr}2`, second),
              ],
              mainStat: { value: String(best.n), label: abbr },
              summary: `${best.n} ${abbr}, ${second} ${abbr}2`,
            },
          ],
          advantage: side === 0,
        };
      }),
    };
  });
}

/** Sentences from the match's own commentary, for the recap and the news. */
function storyParagraphs(s: LeagueSeason, v: MatchView): string[] {
  const clubs = [v.m.home, v.m.away];
  const lines = streamNow(s, v)
    .filter((p) => p.ev || (p.filler.key && COMMENTARY_KINDS.has(p.filler.kind)))
    .map((p) => {
      const minute = p.ev
        ? playClock(p.ev).clock.displayValue
        : playClock({ period: p.filler.period, t: p.filler.t, kind: 'foul' }).clock.displayValue;
      const text = p.ev
        ? playTexts(v.script!, p.ev).text
        : fillerText(p.filler, (side: Side) => clubs[side]!.displayName, minute).text;
      return minute ? `${minute} ${text}` : text;
    });
  const paras: string[] = [];
  for (let i = 0; i < lines.length; i += 3) paras.push(`<p>${lines.slice(i, i + 3).join(' ')}</p>`);
  const [h, a] = v.events.length ? [v.events.at(-1)!.home, v.events.at(-1)!.away] : [0, 0];
  paras.unshift(
    `<p>${v.m.home.displayName} and ${v.m.away.displayName} met at ${v.m.home.venue.fullName} on matchday ${v.m.matchday + 1} of the ${s.ref.name}; it ended ${h}-${a}. This is demo data: the clubs, the players and the match are fictional.</p>`,
  );
  return paras;
}

function images(s: LeagueSeason, id: string, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    dataSourceIdentifier: guid(s.seed, 'img', id, i).slice(0, 13).replace('-', ''),
    id: Number(`${id.slice(-6)}${i}`),
    type: 'header',
    name: `Demo image ${i + 1} [1296x729]`,
    caption: 'A placeholder image for a fictional demo match; no photograph exists.',
    alt: 'A placeholder image for a fictional demo match; no photograph exists.',
    credit: 'Demo Data Service',
    height: 729,
    width: 1296,
    url: `${H}/photo/${id}/${i}_1296x729_16-9.jpg`,
  }));
}

function categories(s: LeagueSeason, v: MatchView) {
  const club = (c: DemoClub) => ({
    id: Number(c.id),
    type: 'team',
    uid: `s:600~t:${c.id}`,
    guid: guid(s.seed, 'club', c.id),
    description: c.displayName,
    sportId: 600,
    teamId: Number(c.id),
    team: {
      id: Number(c.id),
      description: c.displayName,
      links: { web: { teams: { href: `${H}/soccer/club/_/id/${c.id}/${c.slug}` } } },
    },
  });
  return [
    {
      id: Number(s.ref.espnId),
      type: 'league',
      uid: `s:600~l:${s.ref.espnId}`,
      guid: guid(s.seed, 'league', s.ref.slug),
      description: s.ref.name,
      sportId: 600,
      leagueId: Number(s.ref.espnId),
      league: {
        id: Number(s.ref.espnId),
        description: s.ref.name,
        links: { web: { leagues: { href: `${H}/soccer/league/_/name/${s.ref.slug}` } } },
      },
    },
    club(v.m.home),
    club(v.m.away),
  ];
}

/** Two players of the match per story, as ESPN tags its stories with athletes. */
function athleteCategories(s: LeagueSeason, v: MatchView, k: number) {
  const squad = v.script ? [...v.script.lineups[k % 2]!.starters] : [];
  return squad.slice(k % 5, (k % 5) + 2).map((p) => ({
    id: Number(p.id),
    type: 'athlete',
    uid: `s:600~a:${p.id}`,
    guid: guid(s.seed, 'athlete', p.id),
    description: p.displayName,
    sportId: 600,
    athleteId: Number(p.id),
    athlete: {
      id: Number(p.id),
      description: p.displayName,
      links: { web: { athletes: { href: `${H}/soccer/player/_/id/${p.id}/${slugOf(p.displayName)}` } } },
    },
  }));
}

function newsArticle(s: LeagueSeason, v: MatchView, k: number, at: string) {
  const id = `${v.m.id}${k}`;
  const subject = k % 2 ? v.m.away : v.m.home;
  const headline = `${subject.displayName}: ${['what the result means', 'talking points', 'player ratings', 'the manager’s verdict', 'the numbers behind the match', 'what comes next'][k % 6]} (${v.m.home.abbreviation} v ${v.m.away.abbreviation})`;
  return {
    id: Number(id),
    nowId: `1-${id}`,
    contentKey: `${id}-1-6-1`,
    dataSourceIdentifier: guid(s.seed, 'news', id).replaceAll('-', '').slice(0, 13),
    type: 'Story',
    headline,
    description: `Demo data: a generated story about ${subject.displayName} after a fictional ${s.ref.name} match on matchday ${v.m.matchday + 1}.`,
    lastModified: at,
    published: at,
    images: images(s, id, 4),
    categories: [...categories(s, v), ...athleteCategories(s, v, k)],
    premium: false,
    links: {
      web: { href: `${H}/soccer/story/_/id/${id}/${slugOf(headline)}` },
      mobile: { href: `${H}/m/soccer/story/_/id/${id}` },
      api: { news: { href: `${H}/apis/news/v2/stories/${id}` }, self: { href: `${H}/apis/news/v2/stories/${id}` } },
      app: { sportscenter: { href: `demo://x-callback-url/showStory?uid=${id}` } },
    },
  };
}

function news(s: LeagueSeason, v: MatchView, light: Obj) {
  if (v.clock.status !== 'full') return light;
  const at = wallclock(v.m, 2, v.m.a2 * 60 + 5400);
  return { ...light, articles: Array.from({ length: 6 }, (_, k) => newsArticle(s, v, k, at)) };
}

function article(s: LeagueSeason, v: MatchView, clips: unknown[]) {
  const at = wallclock(v.m, 2, v.m.a2 * 60 + 5400);
  const [h, a] = [v.events.at(-1)!.home, v.events.at(-1)!.away];
  const headline = `${v.m.home.displayName} ${h}-${a} ${v.m.away.displayName}`;
  return {
    id: Number(v.m.id),
    nowId: `1-${v.m.id}`,
    contentKey: `${v.m.id}-1-21-1`,
    dataSourceIdentifier: guid(s.seed, 'recap', v.m.id).replaceAll('-', '').slice(0, 13),
    type: 'Recap',
    gameId: v.m.id,
    headline,
    description: `Demo data: a generated recap of a fictional ${s.ref.name} match on matchday ${v.m.matchday + 1}.`,
    linkText: headline,
    categorized: at,
    originallyPosted: at,
    lastModified: at,
    published: at,
    section: 'Soccer',
    images: images(s, v.m.id, 4),
    video: clips.slice(0, 1),
    categories: categories(s, v),
    keywords: [s.ref.name, v.m.home.displayName, v.m.away.displayName],
    story: storyParagraphs(s, v).join('\n'),
    premium: false,
    isLiveBlog: false,
    links: {
      web: { href: `${H}/soccer/report/_/gameId/${v.m.id}` },
      mobile: { href: `${H}/m/soccer/report/_/gameId/${v.m.id}` },
    },
    byline: 'Demo Data Service',
    allowComments: false,
    allowSearch: false,
    allowContentReactions: false,
  };
}

function videos(s: LeagueSeason, v: MatchView, light: Obj[]) {
  if (v.clock.status !== 'full') return light;
  const [h, a] = [v.events.at(-1)!.home, v.events.at(-1)!.away];
  const at = wallclock(v.m, 2, v.m.a2 * 60 + 5400);
  const titles = ['Highlights', 'Reaction', 'Goals and key moments', 'Analysis'];
  return titles.map((title, k) => {
    const id = Number(`${v.m.id}${k}`);
    const slug = `dm_${v.m.id}_${k}_${slugOf(`${title} ${v.m.home.abbreviation} ${v.m.away.abbreviation}`).replaceAll('-', '_')}`;
    const media = `${H}/motion/${v.m.id}/${slug}/${slug}`;
    return {
      id,
      cerebroId: guid(s.seed, 'video', id).replaceAll('-', '').slice(0, 24),
      source: 'demo',
      headline: `${title}: ${v.m.home.displayName} ${h}-${a} ${v.m.away.displayName}`,
      description: 'Demo data: fictional match, no footage exists.',
      lastModified: at,
      originalPublishDate: at,
      duration: 60 + (hashSeed(s.seed, 'vid', id) % 240),
      timeRestrictions: { embargoDate: at, expirationDate: at },
      deviceRestrictions: { type: 'whitelist', devices: ['settop', 'tablet', 'handset', 'ipad', 'desktop'] },
      thumbnail: `${media}.jpg`,
      links: {
        web: {
          href: `${H}/video/clip/_/id/${id}`,
          self: { href: `${H}/video/clip/_/id/${id}`, dsi: { href: `${H}/video/clip?id=${id}` } },
        },
        mobile: {
          href: `${H}/video/auth/${id}/asset`,
          source: { href: `${media}.mp4` },
          alert: { href: `${H}/general/video/videoAlert?vid=${id}` },
          streaming: { href: `${H}/video/auth/${id}/asset?streaming=true` },
          progressiveDownload: { href: `${H}/video/auth/${id}/asset?download=true` },
        },
        api: { self: { href: `${H}/v1/video/clips/${id}` }, artwork: { href: `${H}/artwork/collections/media/${id}` } },
        source: {
          href: `${media}_360p30_1464k.mp4`,
          mezzanine: { href: `${media}.mp4` },
          flash: { href: `${media}.smil` },
          hds: { href: `${media}_rel.smil/manifest.f4m` },
          HLS: {
            href: `${media}/playlist.m3u8`,
            HD: { href: `${media}/playlist.m3u8?hd=1` },
            cmaf: { href: `${media}/cmaf.m3u8` },
          },
          HD: { href: `${media}_720p30_2896k.mp4` },
          full: { href: `${media}_360p30_1464k.mp4` },
        },
        sportscenter: { href: `demo://x-callback-url/showVideo?videoID=${id}` },
      },
      ad: { sport: 'soccer', bundle: 'demo' },
      tracking: {
        sportName: 'soccer',
        leagueName: s.ref.name,
        coverageType: 'Final Game Highlight',
        trackingName: `${s.ref.slug}_${title}`,
        trackingId: `dm_${id}`,
      },
      posterImages: {
        default: { href: `${media}.jpg`, width: 576, height: 324 },
        full: { href: `${media}.jpg` },
        wide: { href: `${media}_5x2.jpg` },
        square: { href: `${media}_1x1.jpg` },
      },
    };
  });
}

function headToHead(s: LeagueSeason, v: MatchView) {
  const rng = rngFor(s.seed, 'h2h', v.m.id);
  const meetings = rng.int(2, 3);
  return [v.m.home, v.m.away].map((club) => ({
    team: {
      id: club.id,
      uid: `s:600~t:${club.id}`,
      displayName: club.displayName,
      abbreviation: club.abbreviation,
      links: shortLinks(club),
      logo: club.logo,
      logos: teamLogos(club),
    },
    events: Array.from({ length: meetings }, (_, k) => {
      const hg = rng.int(0, 3);
      const ag = rng.int(0, 3);
      const year = s.season.year - 1 - k;
      const id = `${v.m.id.slice(0, -2)}${String(90 + k)}`;
      return {
        id,
        links: [{ href: `${H}/soccer/match/_/gameId/${id}`, text: 'Gamecast' }],
        atVs: k % 2 ? '@' : 'vs',
        gameDate: `${year}-0${3 + k}-1${k}T15:00Z`,
        score: `${hg}-${ag}`,
        homeTeamId: k % 2 ? v.m.away.id : v.m.home.id,
        awayTeamId: k % 2 ? v.m.home.id : v.m.away.id,
        homeTeamScore: String(hg),
        awayTeamScore: String(ag),
        gameResult: hg > ag ? 'W' : hg < ag ? 'L' : 'D',
        leagueName: s.ref.name,
        leagueAbbreviation: s.ref.abbreviation,
      };
    }),
  }));
}

function standings(s: LeagueSeason) {
  return {
    fullViewLink: { text: 'Full Table', href: `${H}/soccer/table/_/league/${s.ref.slug}` },
    header: `${s.ref.name} Standings`,
    groups: [
      {
        standings: {
          entries: s.clubs.map((c) => ({
            team: c.displayName,
            link: `${H}/soccer/team/_/id/${c.id}/${c.slug}`,
            id: c.id,
            uid: `s:600~t:${c.id}`,
            stats: [{ name: 'rank', abbreviation: 'R', displayValue: String(c.index + 1) }],
            logo: [{ href: c.logo }],
          })),
        },
        header: s.ref.name,
        href: `${H}/soccer/table/_/league/${s.ref.slug}`,
      },
    ],
  };
}

/** The light summary at ESPN's weight. */
export function realSummary(s: LeagueSeason, v: MatchView, light: Record<string, unknown>) {
  const done = v.clock.status === 'full';
  const odds = oddsLines(v, light.odds as Obj[]);
  const clips = videos(s, v, light.videos as Obj[]);
  return {
    ...light,
    header: header(s, v, light.header as Obj),
    boxscore: boxscore(s, v, light.boxscore as Obj),
    keyEvents: keyEvents(s, v, light.keyEvents as Obj[]),
    rosters: rosters(s, v, light.rosters as Obj[]),
    gameInfo: gameInfo(s, light.gameInfo as Obj),
    commentary: commentary(s, v),
    broadcasts: BROADCASTS,
    odds,
    hasOdds: odds.length > 0,
    pickcenter: odds.map(({ links: _links, ...rest }) => rest),
    leaders: leaders(s, v, light.leaders as Obj[]),
    news: news(s, v, light.news as Obj),
    ...(done ? { article: article(s, v, clips) } : {}),
    videos: clips,
    headToHeadGames: headToHead(s, v),
    standings: standings(s),
    meta: {
      gp_topic: `gp-soccer-${s.ref.slug}-${v.m.id}`,
      gameSwitcherEnabled: true,
      picker_topic: `picker-soccer-${s.ref.slug}`,
      lastUpdatedAt: v.m.date,
      firstPlayWallClock: v.m.date,
      lastPlayWallClock: v.m.date,
      gameState: v.clock.status === 'pre' ? 'pre' : done ? 'post' : 'in',
      syncUrl: `${H}/fauxcast/stats/${s.ref.espnId}/${v.m.id}/en/us/`,
    },
  };
}
