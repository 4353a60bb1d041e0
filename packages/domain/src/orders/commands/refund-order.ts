import { OrderSchema, type Order } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';

/** The refund's id at the provider's side (its idempotency key): one refund per order, however often the job runs. */
export const refundIdOf = (orderId: string) => `refund_${orderId}`;

/**
 * The orders module's side of refunding a paid order (the refund-order job is flows/settlement.ts's):
 * the order to refund with its payment, or why it is skipped — refunded already, not canceled (nor
 * paid after its window), or without a payment. The whole payment goes back, less what was refunded
 * outside the service before (the provider refunds what is left).
 */
export async function orderToRefund(em: EntityManager, orderId: string): Promise<{ order: Order; paymentId: string; amount: number } | { skipped: string }> {
  const order = await em.findOne(OrderSchema, { id: orderId });
  if (!order) return { skipped: 'no such order' };
  if (order.refundId) return { skipped: `refunded already (${order.refundId})` };
  const paidLate = order.status === 'payment_expired' && order.history.some((h) => h.transition === 'confirm-payment');
  if (order.status !== 'canceled' && !paidLate) return { skipped: `the order is ${order.status}` };
  if (!order.paymentId) return { skipped: 'the order has no payment' };
  return { order, paymentId: order.paymentId, amount: order.total - order.refundedOutside };
}

/** Keeps the provider's refund id on the order (a refunded order is left alone by later runs). The caller flushes. */
export function markRefunded(order: Order, providerId: string, now: Date): void {
  order.refundId = providerId;
  order.refundedAt = now;
}
