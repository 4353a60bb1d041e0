import { z } from 'zod';
import { defineTask } from '../../core/tasks.js';
import { systemMove } from './move-order.js';

/**
 * The `confirm-payment` job (key `confirm-payment:<order id>`), added when the provider's
 * `payment_intent.succeeded` event is handled: pending_payment → purchased by the order table
 * (paid emails, the never-sent timer). Late or twice changes nothing: the table has no
 * confirm-payment from purchased, so the move is skipped. A payment confirmed after its window
 * ended (`payment_expired`) is recorded in history once and refunded (order.machine.ts).
 */
export const confirmPaymentTask = defineTask({
  name: 'confirm-payment',
  payload: z.object({ marketplace_id: z.uuid(), order_id: z.uuid(), payment_id: z.string().optional() }),
  run: (p, ctx) =>
    systemMove(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }, 'confirm-payment', {
      check: (o) => (p.payment_id && o.paymentId && o.paymentId !== p.payment_id ? `payment ${p.payment_id} is not this order's (${o.paymentId})` : undefined),
    }),
});
