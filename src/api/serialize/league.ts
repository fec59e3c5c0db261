/** League records as every endpoint embeds them. */
import type { StoreReader } from '../../store/read/reader.js';
import type { Coverage, LeagueRow } from '../../store/read/types.js';
import { ApiError } from '../route.js';

/**
 * A league as other responses embed it (docs/json-api.md, "Conventions"): identity, nothing that
 * moves with each sync.
 */
export interface LeagueRefBody {
  id: string;
  uid: string;
  name: string;
  abbreviation: string;
  slug: string;
  country: string;
  kind: string;
  logo: string | null;
  season: { year: number; displayName: string } | null;
  active: boolean;
}

/** A league as /leagues lists it: its LeagueRef, when its data last changed, and what is stored. */
export interface LeagueBody extends LeagueRefBody {
  lastSyncedAt: string | null;
  coverage: Coverage;
}

export function leagueRef(row: LeagueRow): LeagueRefBody {
  return {
    id: row.espnId,
    uid: `s:600~l:${row.espnId}`,
    name: row.name,
    abbreviation: row.abbreviation,
    slug: row.slug,
    country: row.country,
    kind: row.kind,
    logo: row.logo,
    season: row.season ? { year: row.season.year, displayName: row.season.displayName } : null,
    // Every league in the store is one the service covers.
    active: true,
  };
}

export function leagueBody(row: LeagueRow, coverage: Coverage): LeagueBody {
  return { ...leagueRef(row), lastSyncedAt: row.lastSyncedAt, coverage: { ...coverage } };
}

/** The league named in the path, as a LeagueRef, or 404. */
export function requireLeague(store: StoreReader, slug: string): { row: LeagueRow; ref: LeagueRefBody } {
  const row = store.league(slug);
  if (!row) throw new ApiError(404, 'League not found');
  return { row, ref: leagueRef(row) };
}

/** Plain code-unit order, then id: the same bytes on every machine, whatever its locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
