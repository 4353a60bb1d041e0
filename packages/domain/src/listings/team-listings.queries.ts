import { ListingSchema, type Listing, type ListingStatus } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { entityRows } from '../core/entity-rows.js';
import { latestFirstRows, type RowFilter } from '../core/latest-first.queries.js';

/** `listings` rows → listing-shaped objects (not entities: for reads that change nothing). */
export const listingRows = entityRows<Listing>(ListingSchema, ['priceAmount', 'offerAmount']);

/**
 * The team's listings page (GET /console/v1/listings) as plain SQL: one statement, rows made into
 * listing-shaped objects without the ORM building the query and hydrating, registering and
 * snapshotting each entity (most of the page's CPU). `status`, `statuses` and `wantsStorageWithSeller`
 * filter as find-listings.ts' teamListingWhere; `after` is the keyset's (updated_at, id); newest first.
 */
export async function teamListingRows(
  em: EntityManager,
  f: { status?: ListingStatus | undefined; statuses?: ListingStatus[] | undefined; wantsStorageWithSeller?: boolean; after?: [Date, string] | undefined; limit: number },
): Promise<Listing[]> {
  const filters: RowFilter[] = [];
  if (f.status) filters.push(['status = ?', f.status]);
  if (f.statuses) filters.push(['status = any(?::text[])', `{${f.statuses.join(',')}}`]);
  if (f.wantsStorageWithSeller) filters.push([`wants_storage and custody = 'seller'`]);
  return listingRows(em, await latestFirstRows(em, 'listings', 'updated_at', filters, f.after, f.limit));
}
