/** The match summary payload (site API `…/summary?event=`), every section derived from the match script. */
import { DEMO_ASSET_HOST } from './clubs.js';
import { BROADCASTS, attendance, competitor, details, odds, started } from './payloads-board.js';
import type { MatchView } from './payloads-board.js';
import { boxscore } from './payloads-boxscore.js';
import { rosters } from './payloads-rosters.js';
import { rngFor } from './random.js';
import type { LeagueSeason } from './progress.js';
import {
  SOURCE,
  isGoal,
  isKey,
  playClock,
  playId,
  playType,
  positionObject,
  statusObject,
  wallclock,
} from './shapes.js';
import { playerTallies } from './stats.js';
import type { PlayerTally } from './stats.js';
import { playTexts } from './texts.js';
import type { MatchEvent, Side } from './timeline.js';

function headerCompetitor(s: LeagueSeason, v: MatchView, side: Side) {
  const c = competitor(s, v, side);
  const firstHalf = v.events.filter((e) => e.period === 1).at(-1);
  const atHalf = firstHalf ? [firstHalf.home, firstHalf.away][side]! : 0;
  const total = Number(c.score);
  const linescores = !started(v) ? [] : v.clock.period === 1 ? [atHalf] : [atHalf, total - atHalf];
  // Points as they stood at kickoff, like the W-D-L record: a finished match's summary never changes.
  const record = c.records[0]?.summary;
  const [w, d] = (record?.split('-').map(Number) ?? []) as [number, number];
  const points = String(3 * w + d);
  return {
    id: c.id,
    uid: c.uid,
    order: side,
    homeAway: c.homeAway,
    winner: c.winner,
    team: { ...c.team, ...(c.form === undefined ? {} : { form: c.form }) },
    score: c.score,
    linescores: linescores.map((n) => ({ displayValue: String(n) })),
    record: record
      ? [
          { type: 'total', summary: record, displayValue: record },
          { type: 'points', summary: points, displayValue: points },
        ]
      : [],
    possession: false,
  };
}

function header(s: LeagueSeason, v: MatchView) {
  const { m } = v;
  const uid = `s:600~l:${s.ref.espnId}~e:${m.id}`;
  const live = v.clock.status !== 'pre' && v.clock.status !== 'full';
  return {
    id: m.id,
    uid,
    season: { year: s.season.year, current: true, type: s.season.type, name: s.season.displayName },
    timeValid: true,
    competitions: [
      {
        id: m.id,
        uid: `${uid}~c:${m.id}`,
        date: m.date,
        neutralSite: false,
        boxscoreAvailable: started(v),
        commentaryAvailable: started(v),
        liveAvailable: live,
        recent: live,
        wallclockAvailable: started(v),
        boxscoreSource: 'full',
        playByPlaySource: started(v) ? 'full' : 'none',
        competitors: [headerCompetitor(s, v, 0), headerCompetitor(s, v, 1)],
        status: statusObject(m, v.clock),
        broadcasts: TV,
        details: details(v),
      },
    ],
    league: {
      id: s.ref.espnId,
      uid: `s:600~l:${s.ref.espnId}`,
      name: s.ref.name,
      abbreviation: s.ref.abbreviation,
      midsizeName: s.ref.slug.toUpperCase(),
      slug: s.ref.slug,
      isTournament: false,
    },
  };
}

const TV = [
  {
    type: { id: '1', shortName: 'TV' },
    market: { id: '1', type: 'National' },
    media: { shortName: BROADCASTS[0]!.names[0] },
    lang: 'en',
    region: 'us',
    isNational: true,
  },
];

/** A key event or commentary play; commentary plays carry names only, as ESPN's do. */
export function summaryPlay(v: MatchView, e: MatchEvent, withIds: boolean) {
  const texts = playTexts(v.script!, e);
  const clubs = [v.m.home, v.m.away];
  const c = playClock(e);
  return {
    id: playId(v.m, e),
    type: playType(e),
    text: texts.text,
    ...(texts.shortText ? { shortText: texts.shortText } : {}),
    period: { number: e.period },
    clock: c.clock,
    ...(c.addedClock.value ? { addedClock: c.addedClock } : {}),
    scoringPlay: isGoal(e),
    ...(e.team === null
      ? {}
      : {
          team: withIds
            ? { id: clubs[e.team]!.id, displayName: clubs[e.team]!.displayName }
            : { displayName: clubs[e.team]!.displayName },
        }),
    ...(e.actors.length
      ? {
          participants: e.actors.map((a) => ({
            athlete: withIds
              ? { id: a.player.id, displayName: a.player.displayName }
              : { displayName: a.player.displayName },
          })),
        }
      : {}),
    source: SOURCE,
    wallclock: wallclock(v.m, e.period, e.t),
    shootout: false,
  };
}

function gameInfo(s: LeagueSeason, v: MatchView) {
  const rng = rngFor(s.seed, 'officials', v.m.id);
  const crew = rng.shuffle([...s.officials]).slice(0, 4);
  const roles = ['Referee', 'Assistant Referee', 'Assistant Referee', 'Fourth Official'];
  const venue = v.m.home.venue;
  return {
    venue: {
      id: venue.id,
      fullName: venue.fullName,
      shortName: venue.fullName,
      address: { city: venue.city, country: venue.country },
    },
    attendance: attendance(s, v),
    officials: crew.map((name, i) => ({
      fullName: name,
      displayName: name,
      position: { name: roles[i], displayName: roles[i], id: String(i + 1) },
      order: i + 1,
    })),
  };
}

function commentary(v: MatchView) {
  if (!v.script) return [];
  return [
    { sequence: 0, time: { value: 0, displayValue: '' }, text: 'Lineups are announced and players are warming up.' },
    ...v.events.map((e, i) => ({
      sequence: i + 1,
      time: playClock(e).clock,
      text: playTexts(v.script!, e).text,
      // Goals and cards link their play; the keyEvents section has the full set with ids.
      ...(isGoal(e) || e.kind === 'yellow' || e.kind === 'red' ? { play: summaryPlay(v, e, false) } : {}),
    })),
  ];
}

function leaders(v: MatchView) {
  if (!v.script) return [];
  const tallies = playerTallies(v.script, v.events);
  const categories: Array<[string, string, string, (t: PlayerTally) => number]> = [
    ['totalGoals', 'Goals', 'G', (t) => t.goals],
    ['goalAssists', 'Assists', 'A', (t) => t.assists],
    ['totalShots', 'Shots', 'SHOT', (t) => t.shots],
    ['saves', 'Saves', 'SV', (t) => t.saves],
  ];
  return v.script.lineups.map((l) => {
    const squad = [...l.starters, ...l.bench];
    return {
      team: {
        id: l.club.id,
        uid: `s:600~t:${l.club.id}`,
        displayName: l.club.displayName,
        abbreviation: l.club.abbreviation,
        logo: l.club.logo,
      },
      leaders: categories.flatMap(([name, displayName, label, get]) => {
        const best = squad
          .map((p) => ({ p, n: get(tallies.get(p.id) ?? ({} as PlayerTally)) ?? 0 }))
          .filter((x) => x.n > 0)
          .sort((a, b) => b.n - a.n)[0];
        if (!best) return [];
        return [
          {
            name,
            displayName,
            leaders: [
              {
                displayValue: String(best.n),
                athlete: {
                  id: best.p.id,
                  uid: `s:600~a:${best.p.id}`,
                  displayName: best.p.displayName,
                  shortName: best.p.shortName,
                  jersey: best.p.jersey,
                  position: positionObject(best.p),
                },
                mainStat: { value: String(best.n), label },
                summary: `${best.n} ${label}`,
              },
            ],
          },
        ];
      }),
    };
  });
}

function news(s: LeagueSeason, v: MatchView) {
  const [h, a] = v.events.length ? [v.events.at(-1)!.home, v.events.at(-1)!.away] : [0, 0];
  const done = v.clock.status === 'full';
  const at = wallclock(v.m, 2, v.m.a2 * 60 + 5400);
  return {
    header: `${s.ref.name} News`,
    link: {
      language: 'en',
      rel: ['index', 'desktop', 'league'],
      href: `${DEMO_ASSET_HOST}/soccer/${s.ref.slug}/news`,
      text: `All ${s.ref.abbreviation} News`,
      shortText: 'All News',
      isExternal: false,
      isPremium: false,
    },
    articles: done
      ? [
          {
            id: Number(v.m.id),
            type: 'Recap',
            headline: `${v.m.home.displayName} ${h}-${a} ${v.m.away.displayName}`,
            description: `Demo data: a generated recap of a fictional ${s.ref.name} match on matchday ${v.m.matchday + 1}.`,
            lastModified: at,
            published: at,
            images: [],
            premium: false,
            links: { web: { href: `${DEMO_ASSET_HOST}/soccer/${s.ref.slug}/story/${v.m.id}` } },
          },
        ]
      : [],
  };
}

function videos(v: MatchView) {
  if (v.clock.status !== 'full') return [];
  const [h, a] = [v.events.at(-1)!.home, v.events.at(-1)!.away];
  return [
    {
      id: Number(v.m.id),
      headline: `Highlights: ${v.m.home.displayName} ${h}-${a} ${v.m.away.displayName}`,
      description: 'Demo data: fictional match, no footage exists.',
      duration: 0,
      thumbnail: `${DEMO_ASSET_HOST}/video/${v.m.id}.jpg`,
      links: { source: { href: `${DEMO_ASSET_HOST}/video/${v.m.id}.mp4` } },
    },
  ];
}

export function summaryPayload(s: LeagueSeason, v: MatchView) {
  return {
    header: header(s, v),
    boxscore: boxscore(s, v),
    keyEvents: v.script ? v.events.filter(isKey).map((e) => summaryPlay(v, e, true)) : [],
    rosters: rosters(s, v),
    gameInfo: gameInfo(s, v),
    commentary: commentary(v),
    broadcasts: TV,
    odds: odds(v),
    leaders: leaders(v),
    news: news(s, v),
    videos: videos(v),
    format: { regulation: { periods: 2, displayName: 'Half', slug: 'half', clock: 2700 } },
    wallclockAvailable: started(v),
  };
}
