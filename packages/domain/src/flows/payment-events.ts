import { confirmPaymentTask } from '../orders/index.js';
import { addJob, jobKey } from '../core/jobs.js';
import type { PaymentEventType } from '../core/ports/payments.js';
import { handlePaymentEvent, handlePaymentEventTask, registerPaymentEventHandlers, type PaymentEventHandler } from '../payments/index.js';
import { onAccountUpdated, onChargeRefunded, onDispute, onPayoutFailed, onRefundUpdated, onTransferReversed } from './settlement.js';

/**
 * Payment events: what the provider tells us, from its arrival to what it changes.
 *
 *   arrive   Stripe's signed webhooks (POST /webhooks/stripe, /webhooks/stripe/connect), or the sandbox through the test helpers
 *            → payments.recordPaymentEvents                stored once by the provider's event id
 *                                                          → addJob `handle-payment-event` (same transaction)
 *   handle   the `handle-payment-event` job: payments.handlePaymentEvent
 *                                                          the event row locked; its handler from the table
 *                                                          below runs and the event is marked handled in one
 *                                                          transaction (a retry or duplicate changes nothing)
 *   confirm  payment_intent.succeeded → addJob `confirm-payment` → orders' confirm-payment job:
 *            pending_payment → purchased by the order table (ledger charge and paid notices:
 *            flows/settlement.ts, flows/order-notices.ts; → addJob `auto-cancel-order`), or a payment
 *            after its window: kept in history and refunded (→ addJob `refund-order`)
 *   fail     payment_intent.payment_failed, payment_intent.canceled: recorded only
 *   refund   charge.refunded → flows/settlement.ts onChargeRefunded (refunds outside the service)
 *   dispute  charge.dispute.created/updated/closed → flows/settlement.ts onDispute (chargebacks; lost after
 *            the payout → addJob `reverse-transfer`)
 *   failed   refund.failed, charge.refund.updated → onRefundUpdated (ledger `refund_failed`; the team emailed; reconcile names it)
 *   reversed transfer.reversed → onTransferReversed (ledger `transfer_reversal`, once per reversal)
 *   bank     payout.failed (a seller's connected account) → onPayoutFailed (the seller is emailed)
 *   account  account.updated → flows/settlement.ts onAccountUpdated (payout setup; waiting payouts paid)
 */

const recordOnly =
  (why: string): PaymentEventHandler =>
  async () =>
    `recorded: ${why}`;

/**
 * `payment_intent.succeeded`: the buyer paid. The order moves in its own job, `confirm-payment`
 * (key `confirm-payment:<order id>`), added in this handler's transaction: the order table decides
 * (pending_payment → purchased; a payment after its window is refunded; anything else changes nothing).
 */
export const onPaymentSucceeded: PaymentEventHandler = async (event, ctx) => {
  if (!event.order_id) return 'ignored: the payment names no order';
  const payload = { marketplace_id: ctx.marketplaceId, order_id: event.order_id, ...(event.payment_id ? { payment_id: event.payment_id } : {}) };
  await addJob(ctx.em, confirmPaymentTask, payload, { jobKey: jobKey(confirmPaymentTask, event.order_id) });
  return `confirm-payment queued for order ${event.order_id}`;
};

/**
 * What each provider event leads to, by type: exactly the types of `HANDLED_PAYMENT_EVENTS` (the one
 * list, which the go-live check and the OpenAPI document read too); any other type is stored and ignored.
 * Connect accounts, refunds and disputes are settlement's (flows/settlement.ts). The payments
 * module stores events and runs them once; this table, above the modules, says what each one means.
 */
export const PAYMENT_EVENT_HANDLERS: Readonly<Record<PaymentEventType, PaymentEventHandler>> = {
  'payment_intent.succeeded': onPaymentSucceeded,
  // the buyer may try again with the same client secret until the payment window ends
  'payment_intent.payment_failed': recordOnly('payment failed; the order keeps waiting for payment'),
  // we cancel payments ourselves when the payment window ends: the order moved already
  'payment_intent.canceled': recordOnly('payment canceled'),
  'account.updated': onAccountUpdated,
  'charge.refunded': onChargeRefunded,
  'charge.dispute.created': onDispute,
  'charge.dispute.updated': onDispute,
  'charge.dispute.closed': onDispute,
  'charge.refund.updated': onRefundUpdated,
  'refund.failed': onRefundUpdated,
  'transfer.reversed': onTransferReversed,
  // a connected account's event: arrives on the Connect endpoint, handled the same way
  'payout.failed': onPayoutFailed,
};

export function paymentEventHandler(type: string): PaymentEventHandler | undefined {
  return Object.hasOwn(PAYMENT_EVENT_HANDLERS, type) ? PAYMENT_EVENT_HANDLERS[type as PaymentEventType] : undefined;
}

registerPaymentEventHandlers(paymentEventHandler);

export { handlePaymentEvent, handlePaymentEventTask };
