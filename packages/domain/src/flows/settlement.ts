import { z } from 'zod';
import { tenantEm } from '@hm/db/orm';
import { addJob, jobKey } from '../core/jobs.js';
import type { Effect } from '../core/state-machine.js';
import { defineTask, type TaskContext } from '../core/tasks.js';
import { lockOrder, markRefunded, ORDER_EFFECT_SLOTS, orderToRefund, recordChargeback, recordRefundOutside, refundIdOf, type OrderMachineTypes } from '../orders/index.js';
import type { PaymentEventHandler } from '../payments/index.js';
import { MarketplaceSchema, PayoutAccountSchema, UserSchema } from '@hm/db/entities';
import { queuePayoutFailedNotice, queueTeamAlert } from '../emails/index.js';
import { appendLedger, chargebackPayout, queuePaySeller, queueReversalIfPaid, updatePayoutAccount, type LedgerEntry } from '../payouts/index.js';

/**
 * Settlement: where an order's money goes once it is paid (Stripe "separate charges and
 * transfers"). Every movement is an append-only ledger row, written once by its reference.
 *
 *   paid      order confirm-payment (flows/payment-events.ts)   → ledger `charge` (recordCharge, below)
 *   received  order mark-received / mark-received-early / resolve-received (by the buyer, the team, or
 *             the `auto-receive-order` timer)                    → addJob `pay-seller` (paySellerAfterReceipt)
 *   pay       the `pay-seller` job: payouts.paySeller            lock → decide → commit → provider transfer
 *                                                                (idempotent by the order id) → paid + ledger
 *                                                                `transfer`, `commission`, `storage_fee`, …
 *   waiting   no ready payout account: the payout waits (`waiting_for_payout_details`);
 *             account.updated → payouts.updatePayoutAccount      → ready: addJob `pay-seller` per waiting payout
 *   canceled  order cancel / resolve-canceled, or a payment after its window
 *                                                              → addJob `refund-order` → provider refund → ledger `refund`
 *   outside   charge.dispute.* → orders.recordChargeback → ledger `chargeback` (withdrawn), `chargeback_reversal` (won),
 *                                `dispute_fee` → payouts.chargebackPayout (hold; release → addJob `pay-seller`)
 *             charge.refunded  → orders.recordRefundOutside → ledger `refund`; the seller is paid net of it
 *                                (payouts.paySeller: the one place every payable payout is paid)
 *
 * The order machine's table names `record-charge`, `pay-seller` and `refund` where they run
 * (orders/order.effects.ts); this file fills them. The provider events' handlers are listed in
 * flows/payment-events.ts.
 */

type OrderEffect = Effect<OrderMachineTypes>;

/** The buyer's payment is the ledger's first row of the order (also when it came too late and is refunded). */
const recordCharge: OrderEffect = async ({ entity, ctx, move }) => {
  await appendLedger(ctx.em, [{ orderId: entity.id, kind: 'charge', amount: entity.total, currency: entity.currency, reference: entity.paymentId ?? 'payment' }], move.at);
};

/** A received order pays its seller, by a job (key `pay-seller:<order id>`) that commits with the move. */
const paySellerAfterReceipt: OrderEffect = ({ entity, ctx }) => queuePaySeller(ctx.em, ctx.marketplace.id, entity.id);

/** Money goes back to the buyer by a job (idempotent by a refund id derived from the order). */
const refundByJob: OrderEffect = ({ entity, ctx }) => addJob(ctx.em, refundOrderTask, { marketplace_id: ctx.marketplace.id, order_id: entity.id }, { jobKey: jobKey(refundOrderTask, entity.id) });

/**
 * The `refund-order` job: the whole payment back through the payments port, idempotent by a refund
 * id derived from the order, then the provider's refund id is kept on the order. A provider error
 * fails the job, which graphile-worker retries with backoff; a refunded order is left alone.
 */
export async function refundOrder(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }): Promise<string> {
  const em = tenantEm(ctx.orm, ref.marketplaceId);
  const due = await orderToRefund(em, ref.orderId);
  if ('skipped' in due) return `skipped: ${due.skipped}`;
  const { providerId } = await ctx.payments.refund({ id: refundIdOf(due.order.id), paymentId: due.paymentId });
  const now = ctx.clock.now();
  // the ledger first, written once by its reference: a run that stops before the order is marked
  // refunds again under the same id, gets the same refund and writes nothing new
  await appendLedger(em, [{ orderId: due.order.id, kind: 'refund', amount: due.amount, currency: due.order.currency, reference: providerId }], now);
  markRefunded(due.order, providerId, now);
  await em.flush();
  return `refunded (${providerId})`;
}

export const refundOrderTask = defineTask({
  name: 'refund-order',
  payload: z.object({ marketplace_id: z.uuid(), order_id: z.uuid() }),
  run: (p, ctx) => refundOrder(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }),
});

ORDER_EFFECT_SLOTS.fill({ 'record-charge': recordCharge, 'pay-seller': paySellerAfterReceipt, refund: refundByJob });

/**
 * `account.updated`: the seller's payout setup follows the provider's account; an account becoming
 * ready pays the payouts that waited for it.
 */
export const onAccountUpdated: PaymentEventHandler = async (event, ctx) => {
  const update = await updatePayoutAccount(ctx.em, { provider: event.provider, data: event.data, eventAt: event.provider_created_at, now: ctx.clock.now() });
  if ('skipped' in update) return update.skipped;
  for (const orderId of update.waitingOrderIds) await queuePaySeller(ctx.em, ctx.marketplaceId, orderId);
  const paying = update.waitingOrderIds.length;
  return `payout account ${update.account.id}: ${update.was} → ${update.status}${update.due.length ? ` (due: ${update.due.join(', ')})` : ''}${paying ? `; pay-seller queued for ${paying} waiting payout(s)` : ''}`;
};

/**
 * `charge.dispute.*`: the order keeps the chargeback; an unpaid payout is held for the team; a
 * chargeback after payment is only recorded (operators find it with `orders list --chargeback`). A
 * dispute closed in the marketplace's favour releases the held payout: back to `pending`, and paid at
 * once when the order is received. A lost one keeps it held for the team.
 */
export const onDispute: PaymentEventHandler = async (event, ctx) => {
  if (!event.order_id) return 'ignored: the dispute names no order of ours';
  const order = await lockOrder(ctx.em, event.order_id);
  if (!order) return `ignored: no order ${event.order_id}`;
  const now = ctx.clock.now();
  const recorded = recordChargeback(order, event.data, now);
  if ('skipped' in recorded) return recorded.skipped;
  const { chargeback } = recorded;
  await appendLedger(ctx.em, disputeLedger(order.id, order.currency, event.data), now);
  const payout = await chargebackPayout(ctx.em, order.id, chargeback, now);
  let held = '';
  if (payout === 'held') held = '; payout held';
  else if (payout === 'released') {
    if (order.status === 'received') await queuePaySeller(ctx.em, ctx.marketplaceId, order.id);
    held = order.status === 'received' ? '; payout released, pay-seller queued' : '; payout released';
  } else if (payout === 'paid') {
    // lost after the seller was paid: taken back from the seller's transfer (a transfer still in flight: once it lands)
    const reversing = chargeback.status === 'lost' && (await queueReversalIfPaid(ctx.em, ctx.marketplaceId, order.id));
    held = reversing ? '; payout was paid already: reverse-transfer queued' : '; payout was paid already: recorded for the team';
  }
  await ctx.em.flush();
  return `order ${order.id}: chargeback ${chargeback.id} ${chargeback.status}${held}`;
};

/** Stripe's dispute statuses whose funds are withdrawn from the platform (an inquiry, `warning_*`, withdraws nothing). */
const WITHDRAWN = new Set(['needs_response', 'under_review', 'won', 'lost']);

/**
 * A dispute's money in the ledger, written once by the dispute's id: the disputed amount withdrawn
 * (`chargeback`) as soon as the dispute is a chargeback, reinstated (`chargeback_reversal`) when it
 * is won, and the provider's dispute fee when it reports one (Stripe: the fees of the dispute's
 * `balance_transactions`).
 */
export function disputeLedger(orderId: string, currency: string, data: Record<string, unknown>): LedgerEntry[] {
  const id = String(data.id ?? '');
  const status = String(data.status ?? '');
  const amount = Number(data.amount ?? 0);
  if (!id || !WITHDRAWN.has(status) || !(amount > 0)) return [];
  const row = (kind: LedgerEntry['kind'], value: number): LedgerEntry => ({ orderId, kind, amount: value, currency, reference: id });
  const fee = Array.isArray(data.balance_transactions) ? data.balance_transactions.reduce((sum: number, t: { fee?: unknown }) => sum + (Number(t?.fee) > 0 ? Number(t.fee) : 0), 0) : 0;
  return [row('chargeback', amount), ...(status === 'won' ? [row('chargeback_reversal', amount)] : []), ...(fee > 0 ? [row('dispute_fee', fee)] : [])];
}

/** `charge.refunded`: what was refunded outside the service (the provider's dashboard) grows the ledger's refunds. */
export const onChargeRefunded: PaymentEventHandler = async (event, ctx) => {
  if (!event.order_id) return 'ignored: the refund names no order of ours';
  const order = await lockOrder(ctx.em, event.order_id);
  if (!order) return `ignored: no order ${event.order_id}`;
  const now = ctx.clock.now();
  const recorded = recordRefundOutside(order, Number(event.data.amount_refunded ?? 0), now);
  if ('skipped' in recorded) return recorded.skipped;
  await appendLedger(ctx.em, [{ orderId: order.id, kind: 'refund', amount: recorded.grown, currency: order.currency, reference: event.provider_event_id }], now);
  await ctx.em.flush();
  // after the seller was paid: taken back from the seller's transfer (one in flight: once it lands)
  const reversing = await queueReversalIfPaid(ctx.em, ctx.marketplaceId, order.id);
  return `order ${order.id}: refunded outside the service ${order.refundedOutside} ${order.currency}${reversing ? '; reverse-transfer queued' : ''}`;
};

/**
 * `refund.failed`, `charge.refund.updated` (a refund object): a refund the provider could not make
 * after all (the buyer's card or bank refused it) gives the money back to the platform — a
 * `refund_failed` ledger row, written once by the refund's id (both events of one failure are one
 * row). The buyer has not got the money: `payouts reconcile` names the order for the team, which
 * refunds it again another way. A refund made outside the service that failed no longer counts
 * against the seller's payout. Other statuses are recorded only.
 */
export const onRefundUpdated: PaymentEventHandler = async (event, ctx) => {
  const refundId = String(event.data.id ?? '');
  const status = String(event.data.status ?? '');
  if (status !== 'failed') return `recorded: refund ${refundId} is ${status || 'of no status'}`;
  if (!event.order_id) return 'ignored: the refund names no order of ours';
  const order = await lockOrder(ctx.em, event.order_id);
  if (!order) return `ignored: no order ${event.order_id}`;
  const amount = Number(event.data.amount ?? 0);
  if (!refundId || !(amount > 0)) return `ignored: the failed refund names no id or amount`;
  const now = ctx.clock.now();
  const added = await appendLedger(ctx.em, [{ orderId: order.id, kind: 'refund_failed', amount, currency: order.currency, reference: refundId }], now);
  if (!added) return `order ${order.id}: refund ${refundId} failed (recorded before)`;
  const ours = order.refundId === refundId;
  if (!ours && order.refundedOutside > 0) {
    order.refundedOutside = Math.max(0, order.refundedOutside - amount);
    order.updatedAt = now;
    await ctx.em.flush();
  }
  const reason = event.data.failure_reason ? ` (${String(event.data.failure_reason)})` : '';
  // the team is told at once (alert_email), besides payouts reconcile naming the order
  const marketplace = await ctx.em.findOneOrFail(MarketplaceSchema, { id: order.marketplaceId });
  const emailed = await queueTeamAlert(ctx.em, marketplace, {
    subject: `A refund failed: order ${order.id}`,
    lines: [
      `The payment provider could not make refund ${refundId} of ${amount} ${order.currency} for order ${order.id}${reason}: the buyer has not got this money back.`,
      'Refund the buyer another way (or again once the cause is fixed); payouts reconcile names the order until its money adds up.',
    ],
  });
  await ctx.em.flush();
  return `order ${order.id}: refund ${refundId} of ${amount} ${order.currency} failed${reason}: the buyer has not got it back; named by payouts reconcile${emailed ? ', the team was emailed' : ' (no alert_email)'}`;
};

/**
 * `transfer.reversed` (a Transfer with its reversals): each reversal is a `transfer_reversal` ledger
 * row, written once by its id — the reverse-transfer job writes the same row for the reversals it
 * makes, so this adds only those made outside the service (the provider's dashboard), which
 * `payouts reconcile` then names.
 */
export const onTransferReversed: PaymentEventHandler = async (event, ctx) => {
  if (!event.order_id) return 'ignored: the transfer names no order of ours';
  const order = await lockOrder(ctx.em, event.order_id);
  if (!order) return `ignored: no order ${event.order_id}`;
  const list = (event.data.reversals as { data?: { id?: unknown; amount?: unknown }[] } | undefined)?.data ?? [];
  const rows: LedgerEntry[] = list
    .filter((r) => typeof r.id === 'string' && Number(r.amount) > 0)
    .map((r) => ({ orderId: order.id, kind: 'transfer_reversal', amount: Number(r.amount), currency: order.currency, reference: String(r.id) }));
  const added = await appendLedger(ctx.em, rows, ctx.clock.now());
  return `order ${order.id}: transfer ${String(event.data.id)} reversed ${String(event.data.amount_reversed ?? 0)} ${order.currency}; ${added} new ledger row(s)`;
};

/**
 * `payout.failed` on a seller's connected account (Stripe Connect; the event's `account`): the money
 * stays in their account at the provider — nothing moves in the platform's books — and the seller is
 * emailed, in their language, to fix their bank details on the storefront's payouts page.
 */
export const onPayoutFailed: PaymentEventHandler = async (event, ctx) => {
  const accountId = typeof event.data.account === 'string' ? event.data.account : undefined;
  const account = accountId && (await ctx.em.findOne(PayoutAccountSchema, { providerAccountId: accountId, provider: event.provider }));
  if (!account) return `ignored: no payout account ${accountId ?? '(none named)'}`;
  const [seller, marketplace] = await Promise.all([ctx.em.findOneOrFail(UserSchema, { id: account.userId }), ctx.em.findOneOrFail(MarketplaceSchema, { id: ctx.marketplaceId })]);
  await queuePayoutFailedNotice(ctx.em, marketplace, seller);
  const code = event.data.failure_code ? ` (${String(event.data.failure_code)})` : '';
  return `payout ${String(event.data.id)} of ${String(event.data.amount)} ${String(event.data.currency ?? '')} to the bank of account ${account.id} failed${code}: the seller is emailed to fix their bank details`;
};
