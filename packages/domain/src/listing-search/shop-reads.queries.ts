import { CatalogTermSchema, ListingImageSchema, ListingSchema, SiteSchema, type CatalogTerm, type Listing, type ListingImage, type Site } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import { columnsOf, entityRows } from '../core/entity-rows.js';
import { listingRows as listings } from '../listings/index.js';

/**
 * The shop's listing reads (a listing page, a search page) as plain SQL: rows made into objects of
 * the entities' shape, without the ORM building each query and hydrating, registering and
 * snapshotting every entity (half of a listing page's CPU in the profile, bench/results). Only for
 * reads of a request that changes nothing: the ORM's own finds flush pending changes first, these
 * do not. The rows go through the request's tenant handle (its transaction, row-level security).
 * A test (apps/api/test/shop.e2e.test.ts, "the shop reads its listings … by plain SQL") compares
 * what each returns with the ORM's find.
 */

const images = entityRows<ListingImage>(ListingImageSchema);
const terms = entityRows<CatalogTerm>(CatalogTermSchema);
const sites = entityRows<Site>(SiteSchema);
/**
 * A listing's columns the shop reads: not `*`, which also sends its search columns (two tsvectors, the
 * term ids and category path as arrays) for the mapper to drop — a search page's 24 rows spent more on
 * them than on what it shows.
 */
const LISTING_COLUMNS = columnsOf(ListingSchema);

/** A listing on sale in the marketplace, or null. */
export async function listingOnSale(em: EntityManager, id: string): Promise<Listing | null> {
  const sql = tenantSql(em);
  const [row] = listings(em, await sql.query(`select ${LISTING_COLUMNS} from listings where marketplace_id = ? and id = ? and on_sale limit 1`, [sql.marketplace, id]));
  return row ?? null;
}

/** Listings of the marketplace by id, in the order of `ids` (search decides the order). */
export async function listingRowsInOrder(em: EntityManager, ids: string[]): Promise<Listing[]> {
  if (ids.length === 0) return [];
  const sql = tenantSql(em);
  const rows = listings(em, await sql.query(`select ${LISTING_COLUMNS} from listings where marketplace_id = ? and id = any(?::uuid[])`, [sql.marketplace, `{${ids.join(',')}}`]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((l): l is Listing => !!l);
}

/** The listings' photos in their order (position, then upload). */
export async function imagesOf(em: EntityManager, listingIds: string[]): Promise<ListingImage[]> {
  const sql = tenantSql(em);
  return images(
    em,
    await sql`select * from listing_images where marketplace_id = ${sql.marketplace} and listing_id = any(${`{${listingIds.join(',')}}`}::uuid[]) order by position asc, created_at asc`,
  );
}

export async function termsByIds(em: EntityManager, ids: string[]): Promise<CatalogTerm[]> {
  const sql = tenantSql(em);
  return terms(em, await sql`select * from catalog_terms where marketplace_id = ${sql.marketplace} and id = any(${`{${ids.join(',')}}`}::uuid[])`);
}

export async function sitesByIds(em: EntityManager, ids: string[]): Promise<Site[]> {
  const sql = tenantSql(em);
  return sites(em, await sql`select * from sites where marketplace_id = ${sql.marketplace} and id = any(${`{${ids.join(',')}}`}::uuid[])`);
}

/** A user's public name ('' when there is none). */
export async function displayNameOf(em: EntityManager, userId: string): Promise<string> {
  const sql = tenantSql(em);
  const [row] = await sql<{ display_name: string | null }>`select display_name from users where marketplace_id = ${sql.marketplace} and id = ${userId} limit 1`;
  return row?.display_name ?? '';
}

/** loadRelations' reads (listing.mapper.ts) as the plain SQL above. */
export const shopRelationReads = (em: EntityManager) => ({
  images: (ids: string[]) => imagesOf(em, ids),
  terms: (ids: string[]) => termsByIds(em, ids),
  sites: (ids: string[]) => sitesByIds(em, ids),
});
