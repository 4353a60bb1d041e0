import { announceOrderCreated } from '../order.events.js';
import { OrderSchema, type Marketplace, type Order } from '@hm/db/entities';
import type { EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import type { CreatedPayment } from '../../core/ports/payments.js';
import { jobKey, removeJob } from '../../core/jobs.js';
import { orderMachine, PLACING } from '../order.machine.js';
import { PAYMENT_WINDOW_MS } from '../order.timers.js';
import { lockAndCountAwaitingPayment, returnUnits } from '../orders.queries.js';
import { ConflictError } from '../../core/errors.js';
import { abuseLimitsOf } from '../../marketplace/index.js';
import type { PricedOrder } from '../pricing/price-order.js';
import { expirePaymentTask, keepTimers, moveOrder } from './move-order.js';

/**
 * The orders module's steps of placing an order; flows/checkout.ts runs them in order, with the
 * other modules' steps between them (payout figures, the provider's payment).
 */

/**
 * Takes the priced units from the listing's stock (the listing is locked by the pricing: exact, and
 * a sold-out listing leaves the shop) and writes the order `pending_payment` with its history, its
 * voucher (a voucher's use is the order naming it) and its payment-expiry timer (the `expire-payment`
 * job), all in the caller's transaction. The payment is not started yet. A buyer with the marketplace's
 * cap of orders awaiting payment (`abuse_limits.pending_orders_per_buyer`, default 3) gets 409 instead:
 * one account cannot hold a shop's stock out of sale.
 */
export async function openOrder(em: EntityManager, ref: { marketplace: Marketplace; buyerId: string; paymentProvider: string; now: Date }, priced: PricedOrder): Promise<Order> {
  const { now } = ref;
  const cap = abuseLimitsOf(ref.marketplace).pending_orders_per_buyer;
  if ((await lockAndCountAwaitingPayment(em, ref.buyerId, now)) >= cap) {
    throw new ConflictError(`You already have ${cap} orders awaiting payment, the most this marketplace allows at once. Pay for one of them or let it expire (each waits 15 minutes), then order again.`);
  }
  priced.listing.stock -= priced.quantity;
  const o = em.create(OrderSchema, {
    marketplaceId: ref.marketplace.id,
    listingId: priced.listing.id,
    buyerId: ref.buyerId,
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
    paymentProvider: ref.paymentProvider,
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
  await keepTimers(em, o, undefined); // entering the first state: its timer, in this transaction
  await announceOrderCreated(em, ref.marketplace, o, now);
  return o;
}

/**
 * An order with nothing to pay (a voucher covers it all): no provider payment; paid at once by
 * `system` through the order table, so its paid effects (notices, the never-sent timer) are those of
 * any payment.
 */
export async function confirmWithoutPayment(em: EntityManager, marketplace: Marketplace, o: Order, now: Date): Promise<void> {
  await moveOrder(o, 'confirm-payment', 'system', { em, marketplace, now, data: { payment: 'none: the total is 0' } });
  await em.flush();
}

/** Keeps the provider's payment (id and client secret) on the placed order, outside any transaction. */
export async function recordPayment(em: EntityManager, order: Order, payment: CreatedPayment): Promise<void> {
  order.paymentId = payment.providerId;
  order.paymentClientSecret = payment.clientSecret;
  await em.nativeUpdate(OrderSchema, { id: order.id }, { paymentId: payment.providerId, paymentClientSecret: payment.clientSecret });
}

/**
 * Undoes opening an order whose payment could not start: the order never existed for the buyer
 * (they got an error), so the units go back, its expiry job goes and its row goes, in one
 * transaction. Its payout row goes with it (the database cascades from the order).
 */
export async function withdrawOrder(em: EntityManager, orderId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const o = await tx.findOne(OrderSchema, { id: orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!o) return;
    await returnUnits(tx, o.listingId, o.quantity);
    await removeJob(tx, jobKey(expirePaymentTask, o.id));
    tx.remove(o);
    await tx.flush();
  });
}
