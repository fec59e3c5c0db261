/**
 * Real weight (issue #50): core API play pages from the touch-level stream (real-stream.ts). The
 * page format is the light one's (what src/espn/map-plays.ts parses); the plays gain ESPN's field
 * coordinates and participant positions, and the touches between the script's events. A match of
 * the clock's last two weeks carries the whole stream; an older one only its key plays.
 */
import type { MatchView } from './payloads-board.js';
import { item, playPages } from './payloads-plays.js';
import type { LeagueSeason } from './progress.js';
import { CORE, SOURCE, athleteRef, playClock, teamRef, wallclock } from './shapes.js';
import { FILLER_TYPES, fillerText, touchStream, visiblePlays } from './real-stream.js';
import type { Filler, StreamPlay } from './real-stream.js';
import { eventKey } from './timeline.js';
import type { Side } from './timeline.js';

/** Matches that kicked off within this long before the clock keep their touch-level stream. */
export const RECENT_MS = 14 * 86_400_000;

const POSITION_IDS: Record<string, string> = { G: '1', D: '3', M: '6', F: '9' };
const positionRef = (s: LeagueSeason, pos: string) => ({
  $ref: `${CORE}/leagues/${s.ref.slug}/positions/${POSITION_IDS[pos] ?? '0'}?lang=en&region=us`,
});

function fillerItem(s: LeagueSeason, v: MatchView, f: Filler, modified: string) {
  const { m } = v;
  const clubs = [m.home, m.away];
  const c = playClock({ period: f.period, t: f.t, kind: 'foul' });
  const type = FILLER_TYPES[f.kind];
  const texts = fillerText(f, (side: Side) => clubs[side]!.displayName, c.clock.displayValue);
  const delay = f.kind === 'startDelay' || f.kind === 'endDelay';
  return {
    $ref: `${CORE}/leagues/${s.ref.slug}/events/${m.id}/competitions/${m.id}/plays/${f.id}?lang=en&region=us`,
    id: f.id,
    type: { id: type.id, text: type.text, type: type.type },
    ...(delay
      ? {}
      : { text: texts.text, shortText: texts.short, alternativeText: texts.text, shortAlternativeText: texts.short }),
    awayScore: f.away,
    homeScore: f.home,
    period: { number: f.period },
    clock: c.clock,
    valid: true,
    scoringPlay: false,
    priority: false,
    scoreValue: 0,
    modified,
    ...(f.team === null ? {} : { team: teamRef(s, clubs[f.team]!.id) }),
    ...(f.player && !delay
      ? {
          participants: [
            {
              jersey: f.player.jersey,
              athlete: athleteRef(s, f.player.id),
              team: teamRef(s, clubs[f.team!]!.id),
              position: positionRef(s, f.player.pos),
              order: 1,
              ...('role' in type ? { type: type.role } : {}),
            },
          ],
        }
      : {}),
    source: SOURCE,
    substitution: false,
    wallclock: wallclock(m, f.period, f.t),
    statYardage: 0,
    addedClock: c.addedClock,
    redCard: false,
    yellowCard: false,
    penaltyKick: false,
    ownGoal: false,
    shootout: false,
    hasVideoTagging: false,
    modifiedDate: modified,
    ...(delay
      ? {}
      : {
          fieldPositionX: f.x,
          fieldPositionY: f.y,
          ...('to' in type ? { fieldPosition2X: f.x2, fieldPosition2Y: f.y2 } : {}),
        }),
  };
}

/** The stream's plays that have happened by the clock. */
export function streamNow(s: LeagueSeason, v: MatchView): StreamPlay[] {
  const stream = touchStream(s.seed, v.script!);
  const key = v.clock.status === 'full' ? null : eventKey(v.clock.period, v.clock.t);
  return visiblePlays(stream, v.events, key);
}

export function realPlaysPages(s: LeagueSeason, v: MatchView, clockMs: number): unknown[] {
  const { m } = v;
  const stream = touchStream(s.seed, v.script!);
  const recent = clockMs - m.kickoffMs <= RECENT_MS;
  const plays = streamNow(s, v).filter((p) => recent || p.ev || p.filler.key);
  const last = v.events.at(-1);
  const modified = last ? `${wallclock(m, last.period, last.t).slice(0, 16)}Z` : m.date;
  const items = plays.map((p) => {
    if (p.filler) return fillerItem(s, v, p.filler, modified);
    const base = item(s, v, p.ev, modified);
    const spot = stream.at.get(p.ev.n)!;
    return {
      ...base,
      ...(base.participants
        ? {
            participants: base.participants.map((part, i) => ({
              ...part,
              position: positionRef(s, p.ev.actors[i]!.player.pos),
            })),
          }
        : {}),
      ...(spot.x || spot.y
        ? { fieldPositionX: spot.x, fieldPositionY: spot.y, fieldPosition2X: spot.x2, fieldPosition2Y: spot.y2 }
        : {}),
    };
  });
  return playPages(s, m.id, items);
}
