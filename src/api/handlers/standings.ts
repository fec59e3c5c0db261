/** /standings: a league's tables for one season, shaped like the provider's standings payload. */
import type { StoreReader } from '../../store/read/reader.js';
import type { HandlerResult } from '../route.js';
import { embeddedClub, sourceIn } from '../../store/shape/club.js';
import { statBody } from '../../store/shape/event.js';
import { requireLeague } from '../serialize/league.js';

/** The season asked for; else the league's current season if its table is stored; else the latest stored. */
export function defaultSeason(current: number | null, stored: readonly string[]): number | null {
  if (current !== null && stored.includes(String(current))) return current;
  const latest = stored[stored.length - 1];
  return latest !== undefined ? Number(latest) : current;
}

export function standings(store: StoreReader, league: string, season: number | null): HandlerResult {
  const { row } = requireLeague(store, league);
  const year = season ?? defaultSeason(row.season?.year ?? null, store.standings.seasons(league));
  const groups = year === null ? [] : store.standings.groups(league, String(year));
  const catalogue = store.catalogue(league);
  return {
    body: {
      id: row.espnId,
      name: row.name,
      abbreviation: row.abbreviation,
      season: year,
      children: groups.map(({ group, lastSyncedAt }) => ({
        id: group.id,
        name: group.name,
        abbreviation: group.abbreviation,
        standings: {
          season: group.season,
          entries: group.entries.map((e) => ({
            team: embeddedClub(e.team, sourceIn(catalogue)),
            stats: e.stats.map(statBody),
            note: e.note ? { color: e.note.color, description: e.note.description, rank: e.note.rank } : null,
            rank: e.rank,
          })),
        },
        lastSyncedAt,
      })),
    },
  };
}
