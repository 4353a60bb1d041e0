import { OrderSchema, type Order, type OrderState } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { tenantSql } from '@hm/db/sql';
import { entityRows } from '../core/entity-rows.js';
import { latestFirstRows, type RowFilter } from '../core/latest-first.queries.js';

/** How many of a listing's units are held by orders waiting for payment (sold out vs reserved). */
export async function reservedUnits(em: EntityManager, listingId: string): Promise<number> {
  const sql = tenantSql(em);
  const [row] = await sql<{ units: number }>`select coalesce(sum(quantity), 0)::int as units from orders
     where marketplace_id = ${sql.marketplace} and listing_id = ${listingId} and status = 'pending_payment'`;
  return row!.units;
}

/** Gives units back to a listing (a payment window ended, a placing withdrawn): one atomic update, no read first. */
export async function returnUnits(em: EntityManager, listingId: string, units: number): Promise<void> {
  const sql = tenantSql(em);
  await sql`update listings set stock = stock + ${units} where marketplace_id = ${sql.marketplace} and id = ${listingId}`;
}

/**
 * Locks the buyer's row until the transaction ends (so concurrent placings by one buyer are
 * counted one after the other) and counts their orders still awaiting payment (a window past its end
 * no longer counts, even before its expiry job runs).
 */
export async function lockAndCountAwaitingPayment(em: EntityManager, buyerId: string, now: Date): Promise<number> {
  const sql = tenantSql(em);
  // `for no key update` conflicts with itself only: an order's foreign key to its buyer still inserts
  await sql`select id from users where marketplace_id = ${sql.marketplace} and id = ${buyerId} for no key update`;
  const [row] = await sql<{ n: number }>`select count(*)::int as n from orders
     where marketplace_id = ${sql.marketplace} and buyer_id = ${buyerId} and status = 'pending_payment' and payment_due_at > ${now}`;
  return row!.n;
}

/** `orders` rows → order-shaped objects (not entities: for reads that change nothing). */
const orderRows = entityRows<Order>(OrderSchema, ['total', 'refundedOutside']);

/**
 * The team's orders (GET /console/v1/orders, `orders list`, the attention list's queues) as plain
 * rows, newest first: one statement, the filters of console/operations.ts' orderWhere.
 */
export async function teamOrderRows(
  em: EntityManager,
  f: { state?: OrderState | undefined; chargeback?: boolean | undefined; enteredBefore?: Date | undefined; buyerId?: string | undefined; sellerId?: string | undefined; listingId?: string | undefined; limit: number },
): Promise<Order[]> {
  const filters: RowFilter[] = [];
  if (f.state) filters.push(['status = ?', f.state]);
  if (f.chargeback) filters.push(['chargeback is not null']);
  if (f.enteredBefore) filters.push(['state_entered_at < ?', f.enteredBefore]);
  if (f.buyerId) filters.push(['buyer_id = ?', f.buyerId]);
  if (f.sellerId) filters.push(['seller_id = ?', f.sellerId]);
  if (f.listingId) filters.push(['listing_id = ?', f.listingId]);
  return orderRows(em, await latestFirstRows(em, 'orders', 'created_at', filters, undefined, f.limit));
}
