import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** A blocked seller's listings leave the shop (and come back on unblock): one statement for all of them. */
export async function setSellerBlocked(em: EntityManager, sellerId: string, blocked: boolean): Promise<void> {
  const sql = tenantSql(em);
  await sql`update listings set seller_blocked = ${blocked} where marketplace_id = ${sql.marketplace} and seller_id = ${sellerId}`;
}

/** Units a seller's listing has sold (orders paid: purchased, delivered, received, disputed) and has reserved (orders awaiting payment), per listing. */
export async function unitsOf(em: EntityManager, listingIds: string[]): Promise<Map<string, { sold: number; reserved: number }>> {
  const out = new Map<string, { sold: number; reserved: number }>();
  if (listingIds.length === 0) return out;
  const sql = tenantSql(em);
  const rows = await sql<{ listing_id: string; sold: string; reserved: string }>`
    select listing_id,
      coalesce(sum(quantity) filter (where status in ('purchased', 'delivered', 'received', 'disputed')), 0) as sold,
      coalesce(sum(quantity) filter (where status = 'pending_payment'), 0) as reserved
    from orders where marketplace_id = ${sql.marketplace} and listing_id = any(${`{${listingIds.join(',')}}`}::uuid[])
    group by listing_id`;
  for (const r of rows) out.set(r.listing_id, { sold: Number(r.sold), reserved: Number(r.reserved) });
  return out;
}
