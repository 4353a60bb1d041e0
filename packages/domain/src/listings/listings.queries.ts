import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** A blocked seller's listings leave the shop (and come back on unblock): one statement for all of them. */
export async function setSellerBlocked(em: EntityManager, sellerId: string, blocked: boolean): Promise<void> {
  const sql = tenantSql(em);
  await sql`update listings set seller_blocked = ${blocked} where marketplace_id = ${sql.marketplace} and seller_id = ${sellerId}`;
}
