import { OrderSchema, type Order } from '@hm/db/entities';
import { LockMode } from '@mikro-orm/core';
import type { UserCommandContext } from '../../core/context.js';
import { ConflictError, DomainError } from '../../core/errors.js';
import { PaymentError } from '../../core/ports/payments.js';
import { jobKey, removeJob } from '../../core/jobs.js';
import { orderMachine, PLACING } from '../order.machine.js';
import type { PlaceOrderInput } from '../order.schema.js';
import { PAYMENT_WINDOW_MS } from '../order.timers.js';
import { returnUnits } from '../orders.queries.js';
import { priceOrder } from '../pricing/price-order.js';
import { createPayout } from '../../payouts/index.js';
import { expirePaymentTask, keepTimers, moveOrder } from './move-order.js';

/**
 * POST /v1/me/orders (spec, order rule 1): reserves the stock and starts the payment.
 *
 * Why in two steps, with a compensation, instead of one transaction: the provider is called over
 * the network, and holding the listing's row lock during that call would queue every other buyer of
 * the listing behind the provider's latency (and a commit failing after the call would leave a
 * payment without an order). So:
 *  1. one transaction prices the order with the listing and voucher locked (priceOrder 'place'),
 *     takes the units from the stock, writes the order `pending_payment` with its history and its
 *     payment-expiry job; concurrent buyers of the last unit wait on the lock and then see no stock;
 *  2. the payment is created, idempotent by the order id; its id and client secret are stored.
 *  If the provider fails (outage, timeout, refusal), the order is withdrawn in one transaction: the
 *  units go back, the job goes, the row goes; the buyer gets 503 (or 409 when refused for good) and
 *  nothing stays reserved. Were even that to fail, the expiry job still ends the reservation after
 *  the payment window, as for any unpaid order.
 * An order whose total is 0 (a voucher covers it) starts no payment: it is confirmed by `system` in
 * step 1's transaction and answered with an empty `client_secret`.
 */
export async function placeOrder(ctx: UserCommandContext, input: PlaceOrderInput): Promise<{ order: Order; clientSecret: string }> {
  const order = await ctx.em.transactional(async (em) => {
    const now = ctx.clock.now();
    const priced = await priceOrder({ ...ctx, em }, input, 'place');
    priced.listing.stock -= priced.quantity; // the listing is locked: exact, and a sold-out listing leaves the shop (on_sale)
    const o = em.create(OrderSchema, {
      marketplaceId: ctx.marketplace.id,
      listingId: priced.listing.id,
      buyerId: ctx.user.id,
      sellerId: priced.listing.sellerId,
      status: orderMachine.initial,
      stateEnteredAt: now,
      quantity: priced.quantity,
      currency: priced.currency,
      total: priced.total,
      lineItems: priced.lineItems,
      delivery: priced.delivery,
      fulfilment: priced.fulfilment,
      buyerZone: priced.buyerZone,
      voucherId: priced.voucher?.id ?? null,
      history: [{ ...PLACING, to: orderMachine.initial, actor: 'buyer', at: now.toISOString() }],
      paymentProvider: ctx.payments.name,
      paymentId: null,
      paymentClientSecret: null,
      paymentDueAt: new Date(now.getTime() + PAYMENT_WINDOW_MS),
      paymentCancelPending: false,
      refundId: null,
      refundedAt: null,
      bookedDate: null,
      bookedWindow: null,
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    await createPayout(em, ctx.marketplace, priced.listing, o, now);
    await em.flush();
    await keepTimers(em, o, undefined); // the payment-expiry job, in this transaction
    if (o.total === 0) {
      // nothing to pay (a voucher covers it all): no provider payment; paid at once through the
      // order table, so its paid effects (notices, the never-sent timer) are those of any payment
      await moveOrder(o, 'confirm-payment', 'system', { em, marketplace: ctx.marketplace, now, data: { payment: 'none: the total is 0' } });
      await em.flush();
    }
    return o;
  });
  if (order.total === 0) return { order, clientSecret: '' };

  let payment;
  try {
    payment = await ctx.payments.createPayment({ id: order.id, marketplaceId: ctx.marketplace.id, orderId: order.id, amount: order.total, currency: order.currency });
  } catch (e) {
    await withdrawOrder(ctx, order.id);
    throw e instanceof PaymentError ? paymentProblem(e) : e;
  }
  order.paymentId = payment.providerId;
  order.paymentClientSecret = payment.clientSecret;
  await ctx.em.nativeUpdate(OrderSchema, { id: order.id }, { paymentId: payment.providerId, paymentClientSecret: payment.clientSecret });
  return { order, clientSecret: payment.clientSecret };
}

/** Undoes step 1 of placing: the order never existed for the buyer (they got an error), so its row goes. */
async function withdrawOrder(ctx: UserCommandContext, orderId: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const o = await em.findOne(OrderSchema, { id: orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!o) return;
    await returnUnits(em, o.listingId, o.quantity);
    await removeJob(em, jobKey(expirePaymentTask, o.id));
    em.remove(o);
    await em.flush();
  });
}

function paymentProblem(e: PaymentError): DomainError {
  if (e.retryable) return new DomainError('service_unavailable', 'Payments are unavailable right now: nothing was reserved or charged. Try again in a moment.', { retryAfterSeconds: 5 });
  return new ConflictError('The payment provider refused to start this payment; nothing was reserved or charged.');
}
