import { z } from 'zod';
import { OrderSchema, PayoutSchema, type Order, type Payout } from '@hm/db/entities';
import { tenantEm, type EntityManager } from '@hm/db/orm';
import { LockMode } from '@mikro-orm/core';
import { addJob, jobKey } from '../../core/jobs.js';
import { PaymentError } from '../../core/ports/payments.js';
import { defineTask, type TaskContext } from '../../core/tasks.js';
import { appendLedger, sellerSums, type LedgerEntry } from '../ledger.queries.js';

/**
 * Money the buyer got back after the seller was paid (a refund made outside the service, a
 * chargeback lost) is taken back from the seller's transfer by the rule that applies before the
 * payout (docs/decisions.md, "Money rules"): the seller's share bears it first, never below 0, so
 * who ends up with what does not depend on when the money came back —
 *
 *   seller's due  = max(0, payout before any refund − refunded outside − chargebacks lost)
 *   reversal      = what was transferred (less reversals so far) − seller's due
 *   carried       = refunded outside + chargebacks lost − what the seller bears (a `carried` row)
 */
export interface Owed {
  /** minor units still to take back from the seller's transfer */
  reverse: number;
  /** minor units of the buyer's money back the platform carries beyond what the ledger says so far */
  carry: number;
}

/** What is owed back of a paid payout's order (nothing before it is paid: pay-seller pays net instead). */
export async function owedBack(em: EntityManager, order: Order, payout: Payout): Promise<Owed> {
  if (payout.status !== 'paid') return { reverse: 0, carry: 0 };
  const sums = await sellerSums(em, order.id);
  const before = Math.max(0, payout.subtotal - payout.commission - payout.storageFee);
  const lost = order.chargeback?.status === 'lost' ? Math.max(0, sums.chargedBack) : 0;
  const back = order.refundedOutside + lost;
  const due = Math.max(0, before - back);
  const inFlight = payout.reversalAmount ?? 0;
  return { reverse: Math.max(0, sums.transferred - inFlight - due), carry: Math.max(0, back - (before - due) - sums.carried) };
}

/** True when a reversal (or a carried row) is owed: the caller queues the reverse-transfer job. */
export const reversalDue = async (em: EntityManager, order: Order, payout: Payout) => {
  const owed = await owedBack(em, order, payout);
  return owed.reverse > 0 || owed.carry > 0 || payout.reversalId != null;
};

type Decision = { done: string } | { reversal: { id: string; amount: number; transferId: string } | null; carry: number };

/**
 * The `reverse-transfer` job (key `reverse-transfer:<order id>`): takes back what is owed of a paid
 * payout, as pay-seller pays, holding no lock across the provider's call —
 *  1. under the payout's row lock: what is owed; a reversal is marked started (`reversal_id`,
 *     `reversal_amount`) and committed; a reversal started before and not recorded is asked for again
 *     as it was (same id and amount: the provider answers with the first, never a second);
 *  2. the provider's reversal (a refusal unmarks it; any other failure keeps it for the retry);
 *  3. under the lock again: the ledger's `transfer_reversal` (the provider's id, written once; the
 *     provider's `transfer.reversed` event writes the same row) and `carried` rows, the payout's
 *     history, and another job if more came back meanwhile.
 */
export async function reverseTransfer(ctx: TaskContext, ref: { marketplaceId: string; orderId: string }): Promise<string> {
  const em = tenantEm(ctx.orm, ref.marketplaceId);
  const decided = await em.transactional((tx) => decide(tx, ctx.clock.now(), ref));
  if ('done' in decided) return decided.done;
  let reversalId: string | null = null;
  if (decided.reversal) {
    const { id, amount, transferId } = decided.reversal;
    try {
      ({ providerId: reversalId } = await ctx.payments.reverseTransfer({ id, marketplaceId: ref.marketplaceId, orderId: ref.orderId, transferId, amount }));
    } catch (e) {
      if (e instanceof PaymentError && !e.retryable) await em.transactional((tx) => tx.nativeUpdate(PayoutSchema, { orderId: ref.orderId }, { reversalId: null, reversalAmount: null }));
      throw e;
    }
  }
  return em.transactional((tx) => record(tx, ctx.clock.now(), ref, decided.reversal && { ...decided.reversal, providerId: reversalId! }, decided.carry));
}

async function decide(em: EntityManager, now: Date, ref: { marketplaceId: string; orderId: string }): Promise<Decision> {
  const payout = await em.findOne(PayoutSchema, { orderId: ref.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!payout || payout.status !== 'paid') return { done: `order ${ref.orderId} skipped: the payout is ${payout?.status ?? 'missing'}` };
  const order = await em.findOneOrFail(OrderSchema, { id: ref.orderId }, { refresh: true });
  if (payout.reversalId != null && payout.reversalAmount != null) {
    return { reversal: { id: payout.reversalId, amount: payout.reversalAmount, transferId: payout.transferId! }, carry: (await owedBack(em, order, payout)).carry };
  }
  const owed = await owedBack(em, order, payout);
  if (owed.reverse <= 0 && owed.carry <= 0) return { done: `order ${order.id}: nothing to take back` };
  if (owed.reverse <= 0 || !payout.transferId) return { reversal: null, carry: owed.carry };
  const sums = await sellerSums(em, order.id);
  // our id names what the seller keeps after it: another reversal (more came back) gets another id
  const id = `${order.id}-${sums.transferred - owed.reverse}`;
  payout.reversalId = id;
  payout.reversalAmount = owed.reverse;
  payout.updatedAt = now;
  await em.flush();
  return { reversal: { id, amount: owed.reverse, transferId: payout.transferId }, carry: owed.carry };
}

async function record(em: EntityManager, now: Date, ref: { marketplaceId: string; orderId: string }, reversal: { id: string; amount: number; providerId: string } | null, carry: number): Promise<string> {
  const payout = await em.findOneOrFail(PayoutSchema, { orderId: ref.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  const order = await em.findOneOrFail(OrderSchema, { id: ref.orderId }, { refresh: true });
  const row = (kind: LedgerEntry['kind'], amount: number, reference: string): LedgerEntry => ({ orderId: order.id, kind, amount, currency: payout.currency, reference });
  const rows: LedgerEntry[] = [];
  if (reversal) rows.push(row('transfer_reversal', reversal.amount, reversal.providerId));
  if (carry > 0) rows.push(row('carried', carry, reversal ? reversal.providerId : `carried-${(await sellerSums(em, order.id)).carried + carry}`));
  await appendLedger(em, rows, now);
  if (reversal && payout.reversalId === reversal.id) {
    payout.reversalId = null;
    payout.reversalAmount = null;
    payout.history = [...payout.history, { transition: 'reverse-transfer', from: 'paid', to: 'paid', actor: 'system', at: now.toISOString(), data: { reversal_id: reversal.providerId, amount: String(reversal.amount) } }];
    payout.updatedAt = now;
  }
  await em.flush();
  if (await reversalDue(em, order, payout)) await queueReverseTransfer(em, ref.marketplaceId, order.id);
  return `order ${order.id}: ${reversal ? `took back ${reversal.amount} ${payout.currency} (${reversal.providerId})` : 'nothing to take back'}${carry > 0 ? `; the platform carries ${carry}` : ''}`;
}

export const reverseTransferTask = defineTask({
  name: 'reverse-transfer',
  payload: z.object({ marketplace_id: z.uuid(), order_id: z.uuid() }),
  run: (p, ctx) => reverseTransfer(ctx, { marketplaceId: p.marketplace_id, orderId: p.order_id }),
});

/** Queues the reverse-transfer job of an order in the caller's transaction (one per order: the key replaces a waiting one). */
export const queueReverseTransfer = (em: EntityManager, marketplaceId: string, orderId: string) =>
  addJob(em, reverseTransferTask, { marketplace_id: marketplaceId, order_id: orderId }, { jobKey: jobKey(reverseTransferTask, orderId) });

/** After the buyer got money back (an outside refund, a chargeback lost): a paid payout's reversal is queued (one in flight: pay-seller queues it once paid). */
export async function queueReversalIfPaid(em: EntityManager, marketplaceId: string, orderId: string): Promise<boolean> {
  const payout = await em.findOne(PayoutSchema, { orderId });
  if (payout?.status !== 'paid') return false;
  await queueReverseTransfer(em, marketplaceId, orderId);
  return true;
}
