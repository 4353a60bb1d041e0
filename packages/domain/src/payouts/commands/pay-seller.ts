import { z } from 'zod';
import { OrderSchema, PayoutAccountSchema, PayoutSchema, type Order, type Payout } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { addJob, jobKey } from '../../core/jobs.js';
import { transition } from '../../core/state-machine.js';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import { appendLedger, type LedgerEntry } from '../ledger.queries.js';
import { payoutMachine } from '../payout.machine.js';

/**
 * The `pay-seller` job (key `pay-seller:<order id>`), added when an order is received and when the
 * seller's payout account becomes ready: transfers the payout's amount to the seller's connected
 * account, then records the payout as paid with its ledger rows, all under the payout's row lock.
 *
 * Paying once: the transfer's idempotency key is the order id, so a second run, or a run after a
 * crash between the provider's answer and the commit, gets the same transfer back from the
 * provider (never a second one), and a paid payout is skipped. A seller without a ready account
 * makes the payout wait (`waiting_for_payout_details`); a held or canceled one is left alone.
 */
export async function paySeller(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }): Promise<string> {
  return tenantEm(ctx.orm, ref.marketplaceId).transactional(async (em) => {
    const payout = await em.findOne(PayoutSchema, { orderId: ref.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!payout) return `order ${ref.orderId} skipped: no payout`;
    const order = await em.findOneOrFail(OrderSchema, { id: ref.orderId });
    if (order.status !== 'received') return `order ${order.id} skipped: the order is ${order.status}`;
    if (payout.status === 'paid') return `order ${order.id} skipped: paid already (${payout.transferId ?? 'nothing to transfer'})`;
    if (payout.status === 'held_for_chargeback') return `order ${order.id} skipped: held for a chargeback`;
    const now = ctx.clock.now();
    const account = await em.findOne(PayoutAccountSchema, { userId: payout.sellerId });
    if (!account?.providerAccountId || account.status !== 'ready') {
      if (payout.status === 'pending') await transition(payoutMachine, payout, 'wait-for-details', 'system', { ctx: { em }, now });
      await em.flush();
      return `order ${order.id}: waiting for the seller's payout details`;
    }
    let transferId: string | null = null;
    if (payout.amount > 0) {
      ({ providerId: transferId } = await ctx.payments.transfer({
        id: order.id,
        marketplaceId: ref.marketplaceId,
        orderId: order.id,
        destination: account.providerAccountId,
        amount: payout.amount,
        currency: payout.currency,
        // an order with nothing to pay (a voucher covered it) has no charge: paid from the platform's balance
        ...(order.paymentId && { paymentId: order.paymentId }),
      }));
    }
    payout.transferId = transferId;
    await transition(payoutMachine, payout, 'pay', 'system', { ctx: { em }, now, ...(transferId ? { data: { transfer_id: transferId } } : {}) });
    await appendLedger(em, payoutLedger(order, payout, transferId), now);
    await em.flush();
    return `order ${order.id}: paid ${payout.amount} ${payout.currency}${transferId ? ` (${transferId})` : ''}`;
  });
}

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
