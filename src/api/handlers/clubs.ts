/** /clubs and /clubs/{id}: a league's club catalogue (with the match-snapshot fallback) and one club. */
import type { StoreReader } from '../../store/read/reader.js';
import type { CoachRecord, PlayerRecord } from '../../store/records.js';
import type { HandlerResult } from '../route.js';
import { ApiError } from '../route.js';
import { clubBody } from '../../store/shape/club.js';
import { compareText, requireLeague } from '../serialize/league.js';

/** The ids of every club `/clubs` lists (each has a `/clubs/{id}`), sorted. */
export function listedClubIds(store: StoreReader, league: string): string[] {
  return store.clubs
    .list(league)
    .map((c) => c.record.id)
    .sort();
}

export function clubs(store: StoreReader, league: string): HandlerResult {
  const { ref } = requireLeague(store, league);
  const list = store.clubs
    .list(league)
    .map((c) => clubBody(c.record, c.catalogSource))
    .sort((a, b) => compareText(a.displayName, b.displayName) || compareText(a.id, b.id));
  const dedicated = list.filter((c) => c.catalogSource === 'club-catalog').length;
  return {
    body: {
      league: ref,
      clubs: list,
      meta: { count: list.length, dedicatedCatalogCount: dedicated, matchSnapshotFallback: dedicated < list.length },
    },
  };
}

const playerBody = (p: PlayerRecord) => ({
  id: p.id,
  displayName: p.displayName,
  shortName: p.shortName,
  jersey: p.jersey,
  position: p.position ? { name: p.position.name, abbreviation: p.position.abbreviation } : null,
  age: p.age,
  citizenship: p.citizenship,
});

const coachBody = (c: CoachRecord) => ({
  id: c.id,
  displayName: c.displayName,
  firstName: c.firstName,
  lastName: c.lastName,
  experience: c.experience,
});

export function club(store: StoreReader, league: string, clubId: string): HandlerResult {
  requireLeague(store, league);
  const found = store.clubs.detail(league, clubId);
  if (!found) throw new ApiError(404, 'Club not found');
  const roster = store.clubs.players(clubId).map(playerBody);
  return {
    body: {
      club: clubBody(found.record, found.catalogSource),
      roster,
      coach: found.coach ? coachBody(found.coach) : null,
      lastSyncedAt: found.lastSyncedAt,
      meta: { catalogSource: found.catalogSource, rosterAvailable: roster.length > 0 },
    },
  };
}
