import { ListingSchema, UserSchema, type Listing, type ListingStatus } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { entityRows } from '../core/entity-rows.js';
import { latestFirstRows, type RowFilter } from '../core/latest-first.queries.js';

/** `listings` rows → listing-shaped objects (not entities: for reads that change nothing). */
export const listingRows = entityRows<Listing>(ListingSchema, ['priceAmount', 'offerAmount']);

/** Who sells a listing, as the team sees it (the console's listings name the seller, not only the id). */
export interface ListingSeller {
  id: string;
  display_name: string;
  email: string;
}
export type TeamListing = Listing & { seller: ListingSeller };

/**
 * The team's listings page (GET /console/v1/listings) as plain SQL: one statement (the seller's name
 * and address joined in), rows made into listing-shaped objects without the ORM building the query
 * and hydrating, registering and snapshotting each entity (most of the page's CPU). `status`,
 * `statuses` and `wantsStorageWithSeller` filter as find-listings.ts' teamListingWhere; `after` is
 * the keyset's (updated_at, id); newest first.
 */
export async function teamListingRows(
  em: EntityManager,
  f: { status?: ListingStatus | undefined; statuses?: ListingStatus[] | undefined; wantsStorageWithSeller?: boolean; after?: [Date, string] | undefined; limit: number },
): Promise<TeamListing[]> {
  const filters: RowFilter[] = [];
  if (f.status) filters.push(['t.status = ?', f.status]);
  if (f.statuses) filters.push(['t.status = any(?::text[])', `{${f.statuses.join(',')}}`]);
  if (f.wantsStorageWithSeller) filters.push([`t.wants_storage and t.custody = 'seller'`]);
  const rows = await latestFirstRows(em, 'listings', 'updated_at', filters, f.after, f.limit, {
    columns: 'u.display_name as seller_display_name, u.email as seller_email',
    tables: 'join users u on u.id = t.seller_id and u.marketplace_id = t.marketplace_id',
  });
  return listingRows(em, rows).map((l, i) => Object.assign(l, { seller: { id: l.sellerId, display_name: String(rows[i]!.seller_display_name), email: String(rows[i]!.seller_email) } }));
}

/** One listing's seller for the team (a single listing's view, and the answer to every change). */
export async function listingSeller(em: EntityManager, l: Pick<Listing, 'sellerId'>): Promise<ListingSeller> {
  const u = await em.findOneOrFail(UserSchema, { id: l.sellerId });
  return { id: u.id, display_name: u.displayName, email: u.email };
}
