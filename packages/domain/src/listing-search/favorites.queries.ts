import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** `favorites` (user + listing, no entity: rows only appear and disappear) and the listings' favourite counts. */

export async function isOnSale(em: EntityManager, listingId: string): Promise<boolean> {
  const sql = tenantSql(em);
  const rows = await sql.query(`select l.id from listings l where l.marketplace_id = ? and l.id = ? and l.on_sale`, [sql.marketplace, listingId]);
  return rows.length > 0;
}

/** Saves a favourite; true when the row is new (saving twice is fine and counts once). */
export async function insertFavorite(em: EntityManager, userId: string, listingId: string, at: Date): Promise<boolean> {
  const sql = tenantSql(em);
  const added = await sql`insert into favorites (marketplace_id, user_id, listing_id, created_at)
     values (${sql.marketplace}, ${userId}, ${listingId}, ${at}) on conflict do nothing returning listing_id`;
  return added.length > 0;
}

/** Removes a favourite; true when there was one. */
export async function deleteFavorite(em: EntityManager, userId: string, listingId: string): Promise<boolean> {
  const sql = tenantSql(em);
  const removed = await sql`delete from favorites
     where marketplace_id = ${sql.marketplace} and user_id = ${userId} and listing_id = ${listingId} returning listing_id`;
  return removed.length > 0;
}

/** Moves a listing's favourite count by one (never below zero). */
export async function bumpFavoriteCount(em: EntityManager, listingId: string, by: 1 | -1): Promise<void> {
  const sql = tenantSql(em);
  if (by > 0) await sql`update listings set favorite_count = favorite_count + 1 where marketplace_id = ${sql.marketplace} and id = ${listingId}`;
  else await sql`update listings set favorite_count = favorite_count - 1 where marketplace_id = ${sql.marketplace} and id = ${listingId} and favorite_count > 0`;
}

/** A page of the user's favourites, latest saved first, after the keyset `(saved at, listing id)` when given. */
export function favoritesPage(em: EntityManager, userId: string, limit: number, after?: [string, string]) {
  const sql = tenantSql(em);
  const keyset = after ? ' and (created_at, listing_id) < (?::timestamptz, ?::uuid)' : '';
  return sql.query<{ listing_id: string; created_at: Date }>(
    `select listing_id, created_at from favorites where marketplace_id = ? and user_id = ?${keyset} order by created_at desc, listing_id desc limit ?`,
    [sql.marketplace, userId, ...(after ?? []), limit],
  );
}

export async function countFavorites(em: EntityManager, userId: string): Promise<number> {
  const sql = tenantSql(em);
  const [row] = await sql<{ total: number }>`select count(*)::int as total from favorites where marketplace_id = ${sql.marketplace} and user_id = ${userId}`;
  return row!.total;
}

/** Which of these listings the user saved. */
export async function savedAmong(em: EntityManager, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const sql = tenantSql(em);
  const rows = await sql<{ listing_id: string }>`select listing_id from favorites
     where marketplace_id = ${sql.marketplace} and user_id = ${userId} and listing_id = any(${`{${ids.join(',')}}`}::uuid[])`;
  return new Set(rows.map((r) => r.listing_id));
}
