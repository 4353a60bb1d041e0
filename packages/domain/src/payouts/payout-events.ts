import { OrderSchema, PayoutAccountSchema, PayoutSchema } from '@hm/db/entities';
import { LockMode } from '@mikro-orm/core';
import type { PaymentEventHandler } from '../payments/index.js';
import { transition } from '../core/state-machine.js';
import { queuePaySeller } from './commands/pay-seller.js';
import { appendLedger } from './ledger.queries.js';
import { mirrorProviderStatus } from './payout-accounts.queries.js';
import { payoutMachine } from './payout.machine.js';
import { setupStatusOf } from './setup-status.js';

/**
 * What provider events mean for payouts (registered in flows/payment-events.ts); each runs in the
 * transaction that marks its event handled, so it happens once per event.
 */

/**
 * `account.updated`: the seller's payout setup status follows the provider's account (never polled
 * per request). An event older than the one the status is from changes nothing. An account
 * becoming ready pays the payouts that waited for it.
 */
export const onAccountUpdated: PaymentEventHandler = async (event, ctx) => {
  const accountId = typeof event.data.id === 'string' ? event.data.id : undefined;
  const account = accountId && (await ctx.em.findOne(PayoutAccountSchema, { providerAccountId: accountId, provider: event.provider }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }));
  if (!account) return `ignored: no payout account ${accountId ?? '(none named)'}`;
  if (account.statusEventAt && account.statusEventAt > event.provider_created_at) return `ignored: older than the account's status (${account.statusEventAt.toISOString()})`;
  const { status, due } = setupStatusOf(event.data);
  const was = account.status;
  mirrorProviderStatus(account, { status, due, eventAt: event.provider_created_at, now: ctx.clock.now() });
  let paying = 0;
  if (status === 'ready') {
    const waiting = await ctx.em.find(PayoutSchema, { sellerId: account.userId, status: 'waiting_for_payout_details' });
    for (const p of waiting) await queuePaySeller(ctx.em, ctx.marketplaceId, p.orderId);
    paying = waiting.length;
  }
  await ctx.em.flush();
  return `payout account ${account.id}: ${was} → ${status}${due.length ? ` (due: ${due.join(', ')})` : ''}${paying ? `; pay-seller queued for ${paying} waiting payout(s)` : ''}`;
};

/** A dispute's final statuses at the provider (Stripe's); a closed dispute does not reopen. */
const CLOSED = new Set(['won', 'lost', 'warning_closed']);
/** Closed with the money kept by the marketplace: the held payout is released. */
const KEPT = new Set(['won', 'warning_closed']);

/**
 * `charge.dispute.*`: the order keeps the chargeback as the provider says it (id, reason, status);
 * an unpaid payout is held for the team. A chargeback after payment is only recorded (operators
 * find it with `orders list --chargeback`). A dispute closed in the marketplace's favour (`won`,
 * or an inquiry closed as `warning_closed`) releases the held payout: back to `pending`, and paid
 * at once when the order is received. A lost one keeps it held for the team. Events may arrive out
 * of order: once the order's chargeback is closed, a late event of the same dispute with an open
 * status changes nothing.
 */
export const onDispute: PaymentEventHandler = async (event, ctx) => {
  if (!event.order_id) return 'ignored: the dispute names no order of ours';
  const order = await ctx.em.findOne(OrderSchema, { id: event.order_id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!order) return `ignored: no order ${event.order_id}`;
  const d = event.data;
  const next = { id: String(d.id ?? ''), reason: String(d.reason ?? 'general'), status: String(d.status ?? 'needs_response') };
  if (order.chargeback && order.chargeback.id === next.id && CLOSED.has(order.chargeback.status) && !CLOSED.has(next.status)) {
    return `order ${order.id}: chargeback ${next.id} is closed (${order.chargeback.status}): a late ${next.status} changes nothing`;
  }
  order.chargeback = next;
  order.updatedAt = ctx.clock.now();
  const payout = await ctx.em.findOne(PayoutSchema, { orderId: order.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  let held = '';
  if (payout && (payout.status === 'pending' || payout.status === 'waiting_for_payout_details')) {
    await transition(payoutMachine, payout, 'hold-for-chargeback', 'system', { ctx: { em: ctx.em }, now: ctx.clock.now(), data: { dispute: order.chargeback.id } });
    held = '; payout held';
  } else if (payout?.status === 'held_for_chargeback' && KEPT.has(order.chargeback.status)) {
    await transition(payoutMachine, payout, 'release-chargeback', 'system', { ctx: { em: ctx.em }, now: ctx.clock.now(), data: { dispute: order.chargeback.id } });
    if (order.status === 'received') await queuePaySeller(ctx.em, ctx.marketplaceId, order.id);
    held = order.status === 'received' ? '; payout released, pay-seller queued' : '; payout released';
  } else if (payout?.status === 'paid') held = '; payout was paid already: recorded for the team';
  await ctx.em.flush();
  return `order ${order.id}: chargeback ${order.chargeback.id} ${order.chargeback.status}${held}`;
};

/**
 * `charge.refunded`: the charge's refunded total, less what the service refunds itself (the whole
 * payment of a canceled order, or of one paid after its window), is what was refunded outside the
 * service (the provider's dashboard). Its growth is a ledger refund row.
 */
export const onChargeRefunded: PaymentEventHandler = async (event, ctx) => {
  if (!event.order_id) return 'ignored: the refund names no order of ours';
  const order = await ctx.em.findOne(OrderSchema, { id: event.order_id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!order) return `ignored: no order ${event.order_id}`;
  const refunded = Number(event.data.amount_refunded ?? 0);
  const ours = order.status === 'canceled' || order.history.some((h) => h.transition === 'confirm-payment' && h.to === 'payment_expired') ? order.total : 0;
  const outside = Math.max(0, refunded - ours);
  if (outside <= order.refundedOutside) return `order ${order.id}: no refund outside the service (${refunded} refunded, ${ours} by us)`;
  const now = ctx.clock.now();
  await appendLedger(ctx.em, [{ orderId: order.id, kind: 'refund', amount: outside - order.refundedOutside, currency: order.currency, reference: event.provider_event_id }], now);
  order.refundedOutside = outside;
  order.updatedAt = now;
  await ctx.em.flush();
  return `order ${order.id}: refunded outside the service ${outside} ${order.currency}`;
};
