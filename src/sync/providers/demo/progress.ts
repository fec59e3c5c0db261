/**
 * What the clock decides about a fixed season (season.ts): which matches are over, the table they
 * make, and what each club's form was going into a match. Everything else about a season ignores
 * the clock.
 */
import type { DemoClub } from './clubs.js';
import type { ClubResult, DemoMatch, DemoSeason } from './season.js';

export type Phase = 'post' | 'in' | 'pre' | 'postponed';

export interface TableRow {
  club: DemoClub;
  gp: number;
  w: number;
  d: number;
  l: number;
  gf: number;
  ga: number;
  pts: number;
  rank: number;
}

/** A season as it stands at one instant. */
export interface LeagueSeason extends DemoSeason {
  clockMs: number;
  table: TableRow[];
}

export function phaseAt(m: DemoMatch, clockMs: number): Phase {
  if (m.postponed) return 'postponed';
  if (clockMs < m.kickoffMs) return 'pre';
  return clockMs >= m.endMs ? 'post' : 'in';
}

export function atClock(season: DemoSeason, clockMs: number): LeagueSeason {
  return { ...season, clockMs, table: tabulate(season, clockMs) };
}

/** The table from the matches finished by the clock (3/1/0). */
function tabulate(s: DemoSeason, clockMs: number): TableRow[] {
  const rows = s.clubs.map((club) => {
    const row = { club, gp: 0, w: 0, d: 0, l: 0, gf: 0, ga: 0, pts: 0, rank: 0 };
    for (const r of s.results.get(club.id) ?? []) {
      if (r.endMs > clockMs) continue;
      const m = r.match;
      const home = m.home.id === club.id;
      row.gp++;
      row.gf += home ? m.goals[0] : m.goals[1];
      row.ga += home ? m.goals[1] : m.goals[0];
      if (r.result === 'W') row.w++;
      else if (r.result === 'D') row.d++;
      else row.l++;
      row.pts += r.result === 'W' ? 3 : r.result === 'D' ? 1 : 0;
    }
    return row;
  });
  const table = rows.sort(
    (a, b) =>
      b.pts - a.pts ||
      b.gf - b.ga - (a.gf - a.ga) ||
      b.gf - a.gf ||
      b.w - a.w ||
      (a.club.displayName < b.club.displayName ? -1 : 1),
  );
  table.forEach((row, i) => {
    row.rank = i + 1;
  });
  return table;
}

/** A club's results of the matches over by an instant, in kickoff order. */
export function resultsBy(s: DemoSeason, clubId: string, ms: number): ClubResult[] {
  return (s.results.get(clubId) ?? []).filter((r) => r.endMs <= ms);
}

/**
 * A club's results going into a match: every match of its that ended before this one kicks off.
 * Undefined until all of those have been played by the clock — so a match learns its form once,
 * when the club's previous match ends, and keeps it for good; the postponed match never does.
 */
export function resultsBefore(s: LeagueSeason, clubId: string, m: DemoMatch): ClubResult[] | undefined {
  if (m.postponed) return undefined;
  const before = resultsBy(s, clubId, m.kickoffMs);
  return before.some((r) => r.endMs > s.clockMs) ? undefined : before;
}

/** The last five, oldest first ("WDLWW"). */
export function formString(results: ClubResult[]): string {
  return results
    .slice(-5)
    .map((r) => r.result)
    .join('');
}

/** W-D-L, as ESPN's record summaries write it. */
export function recordString(results: ClubResult[]): string {
  const count = (x: string) => results.filter((r) => r.result === x).length;
  return `${count('W')}-${count('D')}-${count('L')}`;
}
