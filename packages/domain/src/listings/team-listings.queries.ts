import { ListingSchema, type Listing, type ListingStatus } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import { entityRows } from '../core/entity-rows.js';

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
  const sql = tenantSql(em);
  const where: string[] = ['marketplace_id = ?'];
  const params: unknown[] = [sql.marketplace];
  const and = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (f.status) and('status = ?', f.status);
  if (f.statuses) and('status = any(?::text[])', `{${f.statuses.join(',')}}`);
  if (f.wantsStorageWithSeller) and(`wants_storage and custody = 'seller'`);
  if (f.after) and('(updated_at < ? or (updated_at = ? and id < ?))', f.after[0], f.after[0], f.after[1]);
  const rows = await sql.query(`select * from listings where ${where.join(' and ')} order by updated_at desc, id desc limit ?`, [...params, f.limit]);
  return listingRows(em, rows);
}
