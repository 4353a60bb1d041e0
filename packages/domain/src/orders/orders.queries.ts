import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';

/** How many of a listing's units are held by orders waiting for payment (sold out vs reserved). */
export async function reservedUnits(em: EntityManager, listingId: string): Promise<number> {
  const sql = tenantSql(em);
  const [row] = await sql<{ units: number }>`select coalesce(sum(quantity), 0)::int as units from orders
     where marketplace_id = ${sql.marketplace} and listing_id = ${listingId} and status = 'pending_payment'`;
  return row!.units;
}
