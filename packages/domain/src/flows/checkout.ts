import type { Order } from '@hm/db/entities';
import type { CommandContext, UserCommandContext } from '../core/context.js';
import { ConflictError, DomainError } from '../core/errors.js';
import { PaymentError, type CreatedPayment } from '../core/ports/payments.js';
import { confirmWithoutPayment, openOrder, priceOrder, recordPayment, withdrawOrder, type PlaceOrderInput, type PricedOrder } from '../orders/index.js';
import { createPayout } from '../payouts/index.js';

/**
 * Checkout (spec, order rules 1 and 2): `POST /v1/me/orders/quote` and `POST /v1/me/orders`.
 *
 * A newcomer's map, step by step (each step is one module's command; the jobs it schedules are the
 * boundaries where the story continues later, in another process):
 *
 *   quote    orders.priceOrder('quote')                  the same pricing as placing, nothing locked
 *   ── one transaction ──
 *   1 price  orders.priceOrder('place')                  the listing, then the voucher, locked (always that order)
 *   2 place  orders.openOrder                            units taken from the stock, the order `pending_payment`
 *                                                        with its voucher (a voucher's use is the order naming it)
 *                                                        → addJob `expire-payment` at the end of the payment window
 *   3 payout payouts.createPayout                        the seller's figures fixed at the sale (commission, storage)
 *   4 free   orders.confirmWithoutPayment (total 0 only) purchased at once by the order table (its paid effects:
 *                                                        notices, → addJob `auto-cancel-order`)
 *   ── commit ──
 *   5 pay    payments port createPayment                 idempotent by the order id; outside any transaction
 *            orders.recordPayment                        its id and client secret kept on the order
 *   on failure of 5: orders.withdrawOrder                units back, the expiry job and the order (and payout) gone
 *
 *   later    the provider's payment_intent.succeeded → flows/payment-events.ts → addJob `confirm-payment`
 *            → purchased (flows/settlement.ts records the charge in the ledger)
 *
 * Why in two steps, with a compensation, instead of one transaction: the provider is called over
 * the network, and holding the listing's row lock during that call would queue every other buyer of
 * the listing behind the provider's latency (and a commit failing after the call would leave a
 * payment without an order). Concurrent buyers of the last unit wait on the listing's lock in step 1
 * and then see no stock. If the provider fails (outage, timeout, refusal) the order is withdrawn and
 * the buyer gets 503 (or 409 when refused for good): nothing stays reserved. Were even the withdrawal
 * to fail, the expiry job still ends the reservation after the payment window, as for any unpaid order.
 */

/** POST /v1/me/orders/quote: the order priced exactly as placing would price it; nothing is written. */
export function quoteOrder(ctx: UserCommandContext, input: PlaceOrderInput): Promise<PricedOrder> {
  return priceOrder(ctx, input, 'quote');
}

/** POST /v1/me/orders: the order placed and its payment started; a total of 0 answers an empty `client_secret`. */
export async function checkout(ctx: UserCommandContext, input: PlaceOrderInput): Promise<{ order: Order; clientSecret: string }> {
  const order = await ctx.em.transactional(async (em) => {
    const now = ctx.clock.now();
    const priced = await priceOrder({ ...ctx, em }, input, 'place'); // 1
    const o = await openOrder(em, { marketplace: ctx.marketplace, buyerId: ctx.user.id, paymentProvider: ctx.payments.name, now }, priced); // 2
    await createPayout(em, ctx.marketplace, priced.listing, o, now); // 3
    await em.flush();
    if (o.total === 0) await confirmWithoutPayment(em, ctx.marketplace, o, now); // 4
    return o;
  });
  if (order.total === 0) return { order, clientSecret: '' };

  let payment;
  try {
    payment = await createOrderPayment(ctx, order); // 5
  } catch (e) {
    await withdrawOrder(ctx.em, order.id);
    throw e instanceof PaymentError ? paymentProblem(e) : e;
  }
  await recordPayment(ctx.em, order, payment);
  return { order, clientSecret: payment.clientSecret };
}

/**
 * Step 5's payment at the provider, idempotent by the order id: asked again for the same order (a
 * start that carries on after `kill -9`, the demo's disputed order), it is the same payment.
 */
export function createOrderPayment(ctx: CommandContext, order: Order): Promise<CreatedPayment> {
  return ctx.payments.createPayment({ id: order.id, marketplaceId: ctx.marketplace.id, orderId: order.id, amount: order.total, currency: order.currency });
}

function paymentProblem(e: PaymentError): DomainError {
  if (e.retryable) return new DomainError('service_unavailable', 'Payments are unavailable right now: nothing was reserved or charged. Try again in a moment.', { retryAfterSeconds: 5 });
  return new ConflictError('The payment provider refused to start this payment; nothing was reserved or charged.');
}
