/** Club records: catalogue entries, match competitors and standings entries share one shape. */
import type { ClubRecord, VenueRecord } from '../../store/records.js';
import type { CatalogSource } from '../../store/read/types.js';

export function venueBody(v: VenueRecord | null): VenueRecord | null {
  return v ? { id: v.id, fullName: v.fullName, address: { city: v.address.city, country: v.address.country } } : null;
}

export function clubBody(c: ClubRecord, catalogSource: CatalogSource) {
  return {
    id: c.id,
    uid: c.uid ?? null,
    name: c.name,
    displayName: c.displayName,
    shortDisplayName: c.shortDisplayName,
    abbreviation: c.abbreviation ?? null,
    location: c.location ?? null,
    country: c.country ?? null,
    city: c.city ?? null,
    logo: c.logo ?? null,
    color: c.color ?? null,
    alternateColor: c.alternateColor ?? null,
    foundedYear: c.foundedYear ?? null,
    venue: venueBody(c.venue ?? null),
    isActive: c.isActive !== false,
    catalogSource,
  };
}

/** A club named in a match or a table is `club-catalog` when the league's own catalogue lists it. */
export function embeddedClub(c: ClubRecord, catalogue: ReadonlySet<string>) {
  return clubBody(c, catalogue.has(c.id) ? 'club-catalog' : 'match-snapshot');
}
