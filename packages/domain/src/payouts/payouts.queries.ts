import { PayoutSchema, type Payout } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';

/** The payouts of these orders, by order id (one query for a page of orders). */
export async function payoutsOf(em: EntityManager, orderIds: string[]): Promise<Map<string, Payout>> {
  const payouts = orderIds.length ? await em.find(PayoutSchema, { orderId: { $in: orderIds } }) : [];
  return new Map(payouts.map((p) => [p.orderId, p]));
}
