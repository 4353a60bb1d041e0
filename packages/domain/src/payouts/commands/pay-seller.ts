import { movePayout } from '../payout.effects.js';
import { z } from 'zod';
import { MarketplaceSchema, OrderSchema, PayoutAccountSchema, PayoutSchema, type Order, type Payout } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { addJob, jobKey } from '../../core/jobs.js';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import { PaymentError, type TransferRequest } from '../../core/ports/payments.js';
import { queueReverseTransfer, reversalDue } from './reverse-transfer.js';
import { queueTeamAlert } from '../../emails/index.js';
import { appendLedger, type LedgerEntry } from '../ledger.queries.js';

/** paying: the transfer (none when nothing is due) and the refund outside the service it is net of */
type Paying = { transfer: TransferRequest | null; amount: number; refundedOutside: number };
type Decision = { done: string } | { wait: true } | Paying;

/** Longer than one provider call may take (Stripe: a 10 s timeout and one retry): a transfer started longer ago is no longer in flight. */
export const TRANSFER_IN_FLIGHT_MS = 30_000;
/** How often a run that found another's transfer in flight looks again. */
const POLL_MS = 100;

/**
 * The `pay-seller` job (key `pay-seller:<order id>`), queued by flows/settlement.ts when an order is
 * received, when the seller's payout account becomes ready and when a chargeback is closed in the
 * marketplace's favour: transfers the payout's amount to the seller's connected account and records
 * the payout as paid with its ledger rows. Never holding a row lock across the provider's call (a
 * slow provider would hold the payout, and the order's chargeback handling, behind it):
 *  1. one transaction locks the payout and decides: skipped (no payout, the order not received,
 *     paid already, held for a chargeback), waiting for the seller's payout details (no ready
 *     account: `waiting_for_payout_details`), or paying — the transfer is marked started
 *     (`transfer_started_at`) and the transaction commits;
 *  2. the transfer is made outside any transaction, idempotent by `<order id>-<amount>` (plus the
 *     team's retry count): a refusal for good fails the payout at once and clears its amount (the
 *     team's `payouts retry` works it out again under a new key); any other error unmarks the start
 *     and fails the job, which graphile-worker retries with the same amount and key;
 *  3. a second transaction locks the payout again and records it paid with its ledger rows, unless
 *     a run before it did.
 * Paying once: a run that finds another's transfer started waits for its answer (polling, holding
 * nothing) and then finds the payout paid; the transfer's idempotency key is kept with its amount, so a run
 * after a crash between the provider's answer and step 3 (or one that waited too long) gets the same
 * transfer back from the provider (never a second one), and only the first step 3 records it (the
 * ledger rows are written once by their reference). A chargeback handled after step 1 finds the transfer started and leaves
 * the payout to the team, as for a paid one (flows/settlement.ts).
 */
export async function paySeller(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }): Promise<string> {
  const em = tenantEm(ctx.orm, ref.marketplaceId);
  const giveUpWaiting = Date.now() + TRANSFER_IN_FLIGHT_MS;
  let decided: Decision;
  // another run's transfer in flight: wait for its answer (never holding a lock), then decide again
  while ('wait' in (decided = await em.transactional((tx) => decide(tx, ctx.clock.now(), ref, Date.now() > giveUpWaiting)))) await sleep(POLL_MS);
  if ('done' in decided) return decided.done;
  let transferId: string | null = null;
  let settled: Record<string, string> = {};
  try {
    if (decided.transfer) {
      const made = await ctx.payments.transfer(decided.transfer);
      transferId = made.providerId;
      // a transfer in the currency the charge settled in (another than the order's): kept on the payout's move
      if (made.currency) settled = { transfer_currency: made.currency, transfer_amount: String(made.amount) };
    }
  } catch (e) {
    // the call failed: the payout is no longer in flight (a chargeback may hold it again, as before any transfer).
    // A refusal for good (invalid request, account not ready, the platform's balance short, currency) made nothing:
    // the payout fails at once and the team is told; the team's retry works the amount out again (under another
    // key). Any other failure may have made the transfer: the job fails, and graphile-worker's next try asks for
    // the same one (same key, same amount), never one of another amount beside it.
    if (e instanceof PaymentError && !e.retryable) return em.transactional((tx) => recordFailed(tx, ctx, ref.orderId, e));
    await em.transactional((tx) => tx.nativeUpdate(PayoutSchema, { orderId: ref.orderId, status: { $ne: 'paid' } }, { transferStartedAt: null }));
    throw e;
  }
  const paying = decided;
  return em.transactional((tx) => recordPaid(tx, ctx.clock.now(), ref.orderId, transferId, paying, settled));
}

/**
 * The provider refused the transfer for good: retrying would be refused the same way, so the payout
 * is `failed` with the refusal's class (`failure_reason`, which the seller sees) and the provider's
 * words in its history (the console's `payouts failed` lists both), the team is emailed
 * (`alert_email`) and the job's outcome line says it; `payouts retry` puts it back once fixed.
 */
async function recordFailed(em: EntityManager, ctx: TaskContext, orderId: string, e: PaymentError): Promise<string> {
  const payout = await em.findOneOrFail(PayoutSchema, { orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (payout.status === 'paid') return `order ${orderId} skipped: paid already (${payout.transferId ?? 'nothing to transfer'})`;
  const now = ctx.clock.now();
  const reason = e.refusal ?? 'invalid_request';
  const detail = e.message.slice(0, 1000);
  payout.transferStartedAt = null;
  payout.transferAmount = null;
  payout.failureReason = reason;
  if (payout.status !== 'failed') await movePayout(payout, 'fail', { em, now, data: { reason, detail, ...(e.providerCode && { code: e.providerCode }) } });
  const marketplace = await em.findOneOrFail(MarketplaceSchema, { id: payout.marketplaceId });
  const emailed = await queueTeamAlert(em, marketplace, {
    subject: `A seller's payout failed: order ${orderId}`,
    lines: [
      `The payment provider refused the transfer of ${payout.amount} ${payout.currency} for order ${orderId} for good (${reason}):`,
      detail,
      `Fix the cause, then retry it: npm run console -- payouts retry --marketplace ${marketplace.slug} --order ${orderId}`,
    ],
  });
  await em.flush();
  return `order ${orderId}: payout failed, ${reason}: ${detail}${emailed ? ' (the team was emailed)' : ' (no alert_email: the console lists it)'}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Step 1, under the payout's row lock: what this run does. A transfer another run started less than
 * TRANSFER_IN_FLIGHT_MS ago is waited for (`wait`), unless this run has waited that long already
 * (`takeOver`): then, or when the mark is older (a run that died), this run makes the same
 * transfer again, which the provider answers with the first one.
 */
async function decide(em: EntityManager, now: Date, ref: { marketplaceId: string; orderId: string }, takeOver: boolean): Promise<Decision> {
  const payout = await em.findOne(PayoutSchema, { orderId: ref.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!payout) return { done: `order ${ref.orderId} skipped: no payout` };
  const order = await em.findOneOrFail(OrderSchema, { id: ref.orderId }, { refresh: true });
  if (order.status !== 'received') return { done: `order ${order.id} skipped: the order is ${order.status}` };
  if (payout.status === 'paid') return { done: paidAlready(order, payout) };
  if (payout.status === 'held_for_chargeback') return { done: `order ${order.id} skipped: held for a chargeback` };
  if (payout.status === 'failed') return { done: `order ${order.id} skipped: the payout failed (${payout.failureReason ?? 'no reason kept'}); the team retries it` };
  const account = await em.findOne(PayoutAccountSchema, { userId: payout.sellerId });
  if (!account?.providerAccountId || account.status !== 'ready') {
    if (payout.status === 'pending') await movePayout(payout, 'wait-for-details', { em, now });
    await em.flush();
    return { done: `order ${order.id}: waiting for the seller's payout details` };
  }
  if (payout.transferStartedAt && now.getTime() - payout.transferStartedAt.getTime() < TRANSFER_IN_FLIGHT_MS && !takeOver) return { wait: true };
  // a transfer asked for before whose outcome is unknown is asked for again as it was: what the buyer
  // got back since is taken back by a reversal once it is paid (reverse-transfer)
  const amount = payout.transferAmount ?? payableAmount(payout.amount, order.refundedOutside);
  const refundedOutside = payout.transferAmount == null ? order.refundedOutside : Math.min(order.refundedOutside, payout.amount - amount);
  payout.transferStartedAt = now;
  payout.transferAmount = amount > 0 ? amount : null;
  payout.updatedAt = now;
  await em.flush();
  const paying = { amount, refundedOutside };
  if (amount <= 0) return { transfer: null, ...paying };
  return {
    ...paying,
    transfer: {
      // the amount is part of our id (the provider's idempotency key): a transfer worked out again
      // after a refusal, for another amount, never reuses the key of the one refused
      id: `${order.id}-${amount}`,
      marketplaceId: ref.marketplaceId,
      orderId: order.id,
      destination: account.providerAccountId,
      amount,
      currency: payout.currency,
      // an order with nothing to pay (a voucher covered it) has no charge: paid from the platform's balance
      ...(order.paymentId && { paymentId: order.paymentId }),
      // the team's retries after a refusal: each under a new idempotency key (the refusal is kept under the old one)
      retry: payout.history.filter((h) => h.transition === 'retry').length,
    },
  };
}

/**
 * The money rule for a refund made outside the service (docs/decisions.md, "Money rules"): the
 * seller is paid the payout net of it — the seller's share bears the refund first, never below 0 —
 * and what the refund takes beyond the seller's share the platform carries (a `carried` ledger row).
 * Applied here, where every payable payout is paid: received, account ready, dispute won.
 */
export const payableAmount = (payoutAmount: number, refundedOutside: number) => Math.max(0, payoutAmount - refundedOutside);

/** Step 3, under the payout's row lock again: the transfer made, the payout paid with its ledger rows (once). */
async function recordPaid(em: EntityManager, now: Date, orderId: string, transferId: string | null, paying: Paying, settled: Record<string, string> = {}): Promise<string> {
  const payout = await em.findOneOrFail(PayoutSchema, { orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const order = await em.findOneOrFail(OrderSchema, { id: orderId }, { refresh: true });
  if (payout.status === 'paid') return paidAlready(order, payout);
  payout.transferId = transferId;
  payout.transferAmount = null;
  const deducted = payout.amount - paying.amount;
  const data: Record<string, string> = { ...(transferId && { transfer_id: transferId }), ...settled, ...(deducted > 0 && { refunded_outside: String(deducted) }) };
  payout.amount = paying.amount;
  await movePayout(payout, 'pay', { em, now, ...(Object.keys(data).length ? { data } : {}) });
  const carried = paying.refundedOutside - deducted;
  await appendLedger(em, [...payoutLedger(order, payout, transferId), ...(carried > 0 ? [{ orderId, kind: 'carried' as const, amount: carried, currency: payout.currency, reference: 'refund_outside' }] : [])], now);
  await em.flush();
  // money the buyer got back while the transfer was in flight (a refund, a chargeback lost) is taken back now
  if (await reversalDue(em, order, payout)) await queueReverseTransfer(em, order.marketplaceId, orderId);
  return `order ${order.id}: paid ${payout.amount} ${payout.currency}${transferId ? ` (${transferId})` : ''}`;
}

const paidAlready = (order: Order, payout: Payout) => `order ${order.id} skipped: paid already (${payout.transferId ?? 'nothing to transfer'})`;

/**
 * The ledger rows of a paid payout: the transfer and the marketplace's parts of the sale. The
 * storage fee row is what was taken (a payout never goes below 0, so a fee beyond the seller's
 * share is not taken), so the rows add up to what the buyer paid.
 */
export function payoutLedger(order: Order, payout: Payout, transferId: string | null): LedgerEntry[] {
  const taken = Math.min(payout.storageFee, payout.subtotal - payout.commission);
  const row = (kind: LedgerEntry['kind'], amount: number, reference = 'payout'): LedgerEntry => ({ orderId: order.id, kind, amount, currency: payout.currency, reference });
  return [
    row('transfer', payout.amount, transferId ?? 'payout'),
    row('commission', payout.commission),
    row('storage_fee', Math.max(0, taken)),
    row('voucher', payout.voucher),
    row('marketplace_shipping', payout.marketplaceShipping),
  ];
}

export const paySellerTask = defineTask({
  name: 'pay-seller',
  payload: z.object({ marketplace_id: z.uuid(), order_id: z.uuid() }),
  run: (p, ctx) => paySeller(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }),
});

/** Queues the pay-seller job of an order in the caller's transaction (one per order: the key replaces a waiting one). */
export const queuePaySeller = (em: EntityManager, marketplaceId: string, orderId: string) =>
  addJob(em, paySellerTask, { marketplace_id: marketplaceId, order_id: orderId }, { jobKey: jobKey(paySellerTask, orderId) });
