/** Club records: catalogue entries, match competitors and standings entries share one shape. */
import type { ClubRecord, VenueRecord } from '../records.js';

/**
 * Where a club's shape says it comes from: the league's own catalogue, or only a match's snapshot.
 * A word of the shape (its `catalogSource`), which the read side hands out with each club row: so it
 * is defined here, and read/ imports it — shape/ never imports read/.
 */
export type CatalogSource = 'club-catalog' | 'match-snapshot';

export function venueBody(v: VenueRecord | null): VenueRecord | null {
  return v ? { id: v.id, fullName: v.fullName, address: { city: v.address.city, country: v.address.country } } : null;
}

export function clubBody<S = CatalogSource>(c: ClubRecord, catalogSource: S) {
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

/** What a club's `catalogSource` says, from its id (a stored event text leaves a hole there instead). */
export type SourceOf<S = CatalogSource> = (clubId: string) => S;

/** A club named in a match or a table is `club-catalog` when the league's own catalogue lists it. */
export const sourceIn =
  (catalogue: ReadonlySet<string>): SourceOf =>
  (id) =>
    catalogue.has(id) ? 'club-catalog' : 'match-snapshot';

export function embeddedClub<S = CatalogSource>(c: ClubRecord, sourceOf: SourceOf<S>) {
  return clubBody(c, sourceOf(c.id));
}
