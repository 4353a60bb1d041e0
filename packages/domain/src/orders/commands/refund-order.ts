import { z } from 'zod';
import { OrderSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import { appendLedger } from '../../payouts/index.js';

/** The refund's id at the provider's side (its idempotency key): one refund per order, however often the job runs. */
export const refundIdOf = (orderId: string) => `refund_${orderId}`;

/**
 * The `refund-order` job, added by the move that cancels a paid order (or records a payment that
 * came after its window): the whole payment back through the payments port, idempotent by a refund
 * id derived from the order, then the provider's refund id is kept on the order. A provider error
 * fails the job, which graphile-worker retries with backoff; a refunded order is left alone.
 */
export async function refundOrder(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }): Promise<string> {
  const em = tenantEm(ctx.orm, ref.marketplaceId);
  const order = await em.findOne(OrderSchema, { id: ref.orderId });
  if (!order) return 'skipped: no such order';
  if (order.refundId) return `skipped: refunded already (${order.refundId})`;
  const paidLate = order.status === 'payment_expired' && order.history.some((h) => h.transition === 'confirm-payment');
  if (order.status !== 'canceled' && !paidLate) return `skipped: the order is ${order.status}`;
  if (!order.paymentId) return 'skipped: the order has no payment';
  const { providerId } = await ctx.payments.refund({ id: refundIdOf(order.id), paymentId: order.paymentId });
  const now = ctx.clock.now();
  // the ledger first (the payment back, less what was refunded outside the service before: the
  // provider refunds what is left), written once by its reference: a run that stops before the
  // order is marked refunds again under the same id, gets the same refund and writes nothing new
  await appendLedger(em, [{ orderId: order.id, kind: 'refund', amount: order.total - order.refundedOutside, currency: order.currency, reference: providerId }], now);
  order.refundId = providerId;
  order.refundedAt = now;
  await em.flush();
  return `refunded (${providerId})`;
}

export const refundOrderTask = defineTask({
  name: 'refund-order',
  payload: z.object({ marketplace_id: z.uuid(), order_id: z.uuid() }),
  run: (p, ctx) => refundOrder(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }),
});
