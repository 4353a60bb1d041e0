import { PayoutSchema, type Payout } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import { entityRows } from '../core/entity-rows.js';

/** The payouts of these orders, by order id (one query for a page of orders). */
export async function payoutsOf(em: EntityManager, orderIds: string[]): Promise<Map<string, Payout>> {
  const payouts = orderIds.length ? await em.find(PayoutSchema, { orderId: { $in: orderIds } }) : [];
  return new Map(payouts.map((p) => [p.orderId, p]));
}

/** `payouts` rows → payout-shaped objects (not entities: for reads that change nothing). */
const payoutRows = entityRows<Payout>(PayoutSchema, ['subtotal', 'commission', 'storageFee', 'amount', 'marketplaceShipping', 'voucher', 'transferAmount', 'reversalAmount']);

/** payoutsOf as plain rows, one statement: for a page read that changes nothing (the team's orders list). */
export async function payoutRowsOf(em: EntityManager, orderIds: string[]): Promise<Map<string, Payout>> {
  if (!orderIds.length) return new Map();
  const sql = tenantSql(em);
  const rows = payoutRows(em, await sql`select * from payouts where marketplace_id = ${sql.marketplace} and order_id = any(${`{${orderIds.join(',')}}`}::uuid[])`);
  return new Map(rows.map((p) => [p.orderId, p]));
}
