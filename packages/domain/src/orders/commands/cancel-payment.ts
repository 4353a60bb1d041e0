import { z } from 'zod';
import { OrderSchema } from '@hm/db/entities';
import { tenantEm } from '@hm/db/orm';
import { defineTask, type TaskContext } from '../../shared/tasks.js';

/**
 * The `cancel-payment` job, added when a payment window ends: the provider's payment is canceled
 * so the buyer can no longer pay it (a payment completed meanwhile is left alone by the port, and
 * its late confirmation is refunded). Idempotent at the provider, so running twice changes nothing.
 */
export async function cancelOrderPayment(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }): Promise<string> {
  const order = await tenantEm(ctx.orm, ref.marketplaceId).findOne(OrderSchema, { id: ref.orderId });
  if (!order) return 'skipped: no such order';
  if (order.status !== 'payment_expired') return `skipped: the order is ${order.status}`;
  if (!order.paymentId) return 'skipped: the order has no payment';
  await ctx.payments.cancelPayment(order.paymentId);
  return `canceled ${order.paymentId}`;
}

export const cancelPaymentTask = defineTask({
  name: 'cancel-payment',
  payload: z.object({ marketplace_id: z.uuid(), order_id: z.uuid() }),
  run: (p, ctx) => cancelOrderPayment(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }),
});
