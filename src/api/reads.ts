/**
 * What a response reads, as topics (docs/publishing.md, "Incremental builds"): each route declares
 * in the route table the topics its pre-rendered responses read, and each row of the store's change
 * log names the topics it touched. A response must be rendered again when the two meet; every other
 * file of the published build is still exactly its answer.
 */
import type { ChangeRow } from '../store/snapshots.js';

export const topic = {
  /** Anything at all changed: a new snapshot (aggregates, freshness, the change feed). */
  any: 'any',
  /** A change this code cannot place: every response must be rendered again. */
  everything: '*',
  match: (league: string, id: string) => `match:${league}:${id}`,
  /** A match's progress (pre, in, post) alone. */
  state: (league: string, id: string) => `state:${league}:${id}`,
  summary: (league: string, id: string) => `summary:${league}:${id}`,
  plays: (league: string, id: string) => `plays:${league}:${id}`,
  /** Which of a match's plays its summary names key events. */
  keyEvents: (league: string, id: string) => `key-events:${league}:${id}`,
  /** The matches of one league's scoreboard day. */
  day: (league: string, date: string) => `day:${league}:${date}`,
  /** Any match of the league. */
  matches: (league: string) => `matches:${league}`,
  /** Which matches the league has, in kickoff order. */
  order: (league: string) => `order:${league}`,
  /** The league's own record (season, ids). */
  league: (league: string) => `league:${league}`,
  /** Which clubs the league's catalogue lists. */
  catalogue: (league: string) => `catalogue:${league}`,
  /** A club's record or coach, whichever league's payload brought it. */
  club: (id: string) => `club:${id}`,
  /** Any club record. */
  clubs: 'clubs',
  roster: (id: string) => `roster:${id}`,
  standings: (league: string) => `standings:${league}`,
} as const;

/** The topics one change log row touches. */
export function topicsOfChange(row: ChangeRow): string[] {
  const { kind, league, key } = row;
  switch (kind) {
    case 'match':
      return [topic.match(league, key), topic.matches(league)];
    case 'state':
      return [topic.state(league, key)];
    case 'day':
      return [topic.day(league, key), topic.matches(league)];
    case 'order':
      return [topic.order(league), topic.matches(league)];
    case 'summary':
      return [topic.summary(league, key)];
    case 'plays':
      return [topic.plays(league, key)];
    case 'key-events':
      return [topic.keyEvents(league, key)];
    case 'club':
      return [topic.club(key), topic.clubs];
    case 'roster':
      return [topic.roster(key)];
    case 'catalogue':
      return [topic.catalogue(league)];
    case 'league':
      return [topic.league(league)];
    case 'standings':
      return [topic.standings(league)];
    default:
      // A kind this code does not know (a newer writer): assume it touched everything.
      return [topic.everything];
  }
}

/** Whether a response that reads `reads` must be rendered again after changes to `changed`. */
export function affected(reads: readonly string[], changed: ReadonlySet<string>): boolean {
  if (changed.has(topic.everything)) return true;
  // A loop, not reads.some(…): a build asks this of every file it plans.
  for (const t of reads) if (changed.has(t)) return true;
  return false;
}
