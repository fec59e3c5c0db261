/**
 * Core API play pages (`…/competitions/{id}/plays?limit=1000&page=N`). Like the real core API, a
 * play names its team and people only through `$ref` links; names live in the summary's lineups.
 */
import type { MatchView } from './payloads-board.js';
import type { LeagueSeason } from './progress.js';
import { CORE, SOURCE, athleteRef, isGoal, playClock, playId, playType, teamRef, wallclock } from './shapes.js';
import { playTexts } from './texts.js';
import type { MatchEvent } from './timeline.js';

/** ESPN's largest page. */
export const PAGE_SIZE = 1000;

export function item(s: LeagueSeason, v: MatchView, e: MatchEvent, modified: string) {
  const { m } = v;
  const clubs = [m.home, m.away];
  const id = playId(m, e);
  const texts = playTexts(v.script!, e);
  const c = playClock(e);
  const goal = isGoal(e);
  return {
    $ref: `${CORE}/leagues/${s.ref.slug}/events/${m.id}/competitions/${m.id}/plays/${id}?lang=en&region=us`,
    id,
    type: playType(e),
    text: texts.text,
    ...(texts.shortText ? { shortText: texts.shortText } : {}),
    alternativeText: texts.text,
    ...(texts.shortText ? { shortAlternativeText: texts.shortText } : {}),
    awayScore: e.away,
    homeScore: e.home,
    period: { number: e.period },
    clock: c.clock,
    valid: true,
    scoringPlay: goal,
    priority: goal || e.kind === 'yellow' || e.kind === 'red' || e.kind === 'shot-on',
    scoreValue: goal ? 1 : 0,
    modified,
    ...(e.team === null ? {} : { team: teamRef(s, clubs[e.team]!.id) }),
    ...(e.actors.length
      ? {
          participants: e.actors.map((a, i) => ({
            jersey: a.player.jersey,
            athlete: athleteRef(s, a.player.id),
            team: teamRef(s, clubs[a.side]!.id),
            order: i + 1,
            type: a.role,
          })),
        }
      : {}),
    source: SOURCE,
    substitution: e.kind === 'sub',
    wallclock: wallclock(m, e.period, e.t),
    statYardage: 0,
    addedClock: c.addedClock,
    redCard: e.kind === 'red',
    yellowCard: e.kind === 'yellow',
    penaltyKick: e.kind === 'penalty',
    ownGoal: e.kind === 'own-goal',
    shootout: false,
    hasVideoTagging: false,
    modifiedDate: modified,
  };
}

/** Every page of the match's stream as it stands at the reference instant. */
export function playsPages(s: LeagueSeason, v: MatchView): unknown[] {
  const { m } = v;
  const last = v.events.at(-1);
  // The stream was last touched when its latest play happened.
  const modified = last ? `${wallclock(m, last.period, last.t).slice(0, 16)}Z` : m.date;
  return playPages(
    s,
    m.id,
    v.events.map((e) => item(s, v, e, modified)),
  );
}

/** A match's play items as ESPN's core API pages them (at least one page, empty when there are none). */
export function playPages(s: LeagueSeason, matchId: string, items: readonly unknown[]): unknown[] {
  const pageCount = Math.ceil(items.length / PAGE_SIZE);
  const pages: unknown[] = [];
  for (let page = 1; page <= Math.max(1, pageCount); page++) {
    pages.push({
      $ref: `${CORE}/leagues/${s.ref.slug}/events/${matchId}/competitions/${matchId}/plays?limit=${PAGE_SIZE}&page=${page}&lang=en&region=us`,
      count: items.length,
      pageIndex: pageCount === 0 ? 0 : page,
      pageSize: PAGE_SIZE,
      pageCount,
      items: items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    });
  }
  return pages;
}
