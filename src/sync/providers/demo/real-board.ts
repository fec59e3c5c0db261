/** Real weight (issue #50): a scoreboard entry as rich as ESPN's (links, logos, headlines, athletes). */
import { DEMO_ASSET_HOST } from './clubs.js';
import type { MatchView } from './payloads-board.js';
import type { LeagueSeason } from './progress.js';
import { guid, teamLinks, teamLogos } from './real-summary.js';

type Obj = Record<string, unknown>;
const H = DEMO_ASSET_HOST;

export function realBoardEvent(s: LeagueSeason, v: MatchView, light: Obj) {
  const comp = (light.competitions as Obj[])[0]!;
  const clubs = [v.m.home, v.m.away];
  const done = v.clock.status === 'full';
  const eventLinks = ['summary', 'boxscore', 'lineups', 'commentary', 'stats', 'recap'].map((kind) => ({
    language: 'en-US',
    rel: [kind, 'desktop', 'event'],
    href: `${H}/soccer/${kind}/_/gameId/${v.m.id}`,
    text: kind[0]!.toUpperCase() + kind.slice(1),
    shortText: kind[0]!.toUpperCase() + kind.slice(1),
    isExternal: false,
    isPremium: false,
  }));
  return {
    ...light,
    competitions: [
      {
        ...comp,
        venue: { ...(comp.venue as Obj), address: { city: v.m.home.venue.city, country: v.m.home.venue.country } },
        geoBroadcasts: [
          {
            type: { id: '1', shortName: 'TV' },
            market: { id: '1', type: 'National' },
            media: {
              shortName: 'Demo Sports TV',
              logo: `${H}/i/broadcast/demo-sports-tv.png`,
              darkLogo: `${H}/i/broadcast/demo-sports-tv-dark.png`,
            },
            lang: 'en',
            region: 'us',
          },
        ],
        broadcast: 'Demo Sports TV',
        competitors: (comp.competitors as Obj[]).map((c, i) => ({
          ...c,
          team: {
            ...(c.team as Obj),
            guid: guid(s.seed, 'club', clubs[i]!.id),
            isActive: true,
            links: teamLinks(clubs[i]!),
            logos: teamLogos(clubs[i]!),
            venue: { id: clubs[i]!.venue.id },
          },
        })),
        details: (comp.details as Array<Obj & { athletesInvolved: Obj[] }>).map((d) => ({
          ...d,
          athletesInvolved: d.athletesInvolved.map((a) => ({
            ...a,
            links: [
              {
                rel: ['playercard', 'desktop', 'athlete'],
                href: `${H}/soccer/player/_/id/${a.id}`,
                text: 'Player Card',
              },
            ],
            headshot: `${H}/i/headshots/soccer/players/full/${a.id}.png`,
          })),
        })),
        ...(done
          ? {
              headlines: [
                {
                  type: 'Recap',
                  description: `Demo data: a generated recap of ${v.m.home.displayName} against ${v.m.away.displayName}, a fictional ${s.ref.name} match.`,
                  shortLinkText: `${v.m.home.displayName} v ${v.m.away.displayName}`,
                  video: [],
                },
              ],
            }
          : {}),
        playByPlayAthletes: v.script !== null,
      },
    ],
    links: eventLinks,
  };
}
