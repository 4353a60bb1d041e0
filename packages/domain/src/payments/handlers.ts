import type { EntityManager } from '@hm/db/orm';
import { confirmPaymentTask } from '../orders/commands/confirm-payment.js';
import { onAccountUpdated, onChargeRefunded, onDispute } from '../payouts/payout-events.js';
import { addJob, jobKey } from '../shared/jobs.js';
import type { TaskContext } from '../shared/tasks.js';
import type { PaymentEventRow } from './payment-events.queries.js';
import type { PaymentEventType } from './payments.js';

/** A stored event whose marketplace is known (events of no marketplace of ours never reach a handler). */
export type StoredPaymentEvent = PaymentEventRow & { marketplace_id: string };

/**
 * What a handler works with: the task's ports and an entity manager scoped to the event's
 * marketplace, inside the transaction that marks the event handled, so jobs it adds commit with
 * that mark (and a handler that throws leaves the event unhandled, for the job's retry).
 */
export interface PaymentEventContext extends TaskContext {
  em: EntityManager;
  marketplaceId: string;
}

/** Acts on one event type; says what happened (the event's stored `outcome`). Runs at most once per event. */
export type PaymentEventHandler = (event: StoredPaymentEvent, ctx: PaymentEventContext) => Promise<string>;

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
 * What each provider event leads to, by type; a type not listed here is stored and ignored.
 * Connect accounts, refunds and disputes are the payouts' (payouts/payout-events.ts).
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
};

export function paymentEventHandler(type: string): PaymentEventHandler | undefined {
  return Object.hasOwn(PAYMENT_EVENT_HANDLERS, type) ? PAYMENT_EVENT_HANDLERS[type as PaymentEventType] : undefined;
}
