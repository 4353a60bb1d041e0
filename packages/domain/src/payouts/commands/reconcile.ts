import type { EntityManager } from '@hm/db/orm';
import { ledgerSums, type LedgerSums } from '../ledger.queries.js';

export interface Reconciliation {
  ok: boolean;
  /** orders whose money is settled (the seller paid, or the payment refunded), all checked */
  checked: number;
  /** orders with a charge still in flight (not received yet, waiting for details, held, refund pending) */
  open: number;
  mismatches: { order_id: string; charged: number; refunded: number; charged_back: number; accounted: number; currency: string; why: string }[];
  paid_twice: string[];
}

/**
 * `payouts reconcile`: for every settled order, what the marketplace kept of the buyer's money
 * equals where it went —
 *
 *   charges − refunds (ours and outside) − chargebacks withdrawn + chargebacks reinstated
 *     = seller transfers + commission + storage fee + marketplace shipping
 *       − what the platform carries (vouchers, a refund beyond the seller's share, dispute fees)
 *
 * — and no order has more than one transfer. Every order where it does not is named with why (a
 * refund outside the service or a chargeback lost after the seller was paid: the platform carried
 * it). Orders whose money is still moving are counted as open.
 */
export async function reconcile(em: EntityManager): Promise<Reconciliation> {
  const rows = await ledgerSums(em);
  const out: Reconciliation = { ok: true, checked: 0, open: 0, mismatches: [], paid_twice: [] };
  for (const o of rows) {
    if (o.transfers > 1) out.paid_twice.push(o.order_id);
    const s = (k: keyof LedgerSums['sums']) => o.sums[k] ?? 0;
    const paid = o.payout_status === 'paid';
    const refundedAll = (o.status === 'canceled' || o.status === 'payment_expired') && s('refund') > 0;
    if (!paid && !refundedAll) {
      out.open++;
      continue;
    }
    out.checked++;
    const charged = s('charge');
    const refunded = s('refund');
    const chargedBack = s('chargeback') - s('chargeback_reversal');
    const carried = s('voucher') + s('carried') + s('dispute_fee');
    const accounted = paid ? s('transfer') + s('commission') + s('storage_fee') + s('marketplace_shipping') - carried : -s('dispute_fee');
    if (charged - refunded - chargedBack !== accounted) {
      const why =
        paid && chargedBack > 0 ? 'a chargeback lost after the seller was paid: the platform carries it'
        : paid && refunded > 0 ? 'refunded after the seller was paid (outside the service): the platform carries it'
        : 'the ledger does not add up';
      out.mismatches.push({ order_id: o.order_id, charged, refunded, charged_back: chargedBack, accounted, currency: o.currency, why });
    }
  }
  out.ok = out.mismatches.length === 0 && out.paid_twice.length === 0;
  return out;
}
