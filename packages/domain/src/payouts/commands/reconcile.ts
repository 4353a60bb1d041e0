import type { EntityManager } from '@hm/db/orm';
import { failedBankPayouts, ledgerSums, type FailedBankPayout, type LedgerSums } from '../ledger.queries.js';

export interface Reconciliation {
  ok: boolean;
  /** orders whose money is settled (the seller paid, or the payment refunded), all checked */
  checked: number;
  /** orders with a charge still in flight (not received yet, waiting for details, held, refund pending) */
  open: number;
  mismatches: { order_id: string; charged: number; refunded: number; charged_back: number; accounted: number; currency: string; why: string }[];
  paid_twice: string[];
  /**
   * Payouts from sellers' connected accounts to their banks that failed in the last 30 days
   * (`payout.failed`; the seller was emailed to fix their bank details). The money waits in their
   * account at the provider: the platform's books are not affected, so `ok` does not count them.
   */
  failed_bank_payouts: FailedBankPayout[];
}

/**
 * `payouts reconcile`: for every settled order, what the marketplace kept of the buyer's money
 * equals where it went —
 *
 *   charges − refunds (ours and outside) + refunds that failed − chargebacks withdrawn + chargebacks reinstated
 *     = seller transfers − transfer reversals + commission + storage fee + marketplace shipping
 *       − what the platform carries (vouchers, the buyer's money back beyond the seller's share)
 *
 * (a dispute fee leaves the platform's balance and is the platform's cost: it is on both sides) —
 * and no order has more than one transfer. Every order where it does not is named with why (a
 * dispute open after the seller was paid, a reversal not made yet, a transfer reversed outside the
 * service, a refund that failed). Orders whose money is still moving are counted as open.
 */
export async function reconcile(em: EntityManager, now = new Date()): Promise<Reconciliation> {
  const rows = await ledgerSums(em);
  const out: Reconciliation = { ok: true, checked: 0, open: 0, mismatches: [], paid_twice: [], failed_bank_payouts: await failedBankPayouts(em, now) };
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
    const refunded = s('refund') - s('refund_failed');
    const chargedBack = s('chargeback') - s('chargeback_reversal');
    const carried = s('voucher') + s('carried');
    const accounted = paid ? s('transfer') - s('transfer_reversal') + s('commission') + s('storage_fee') + s('marketplace_shipping') - carried : 0;
    if (charged - refunded - chargedBack !== accounted) {
      const why =
        s('refund_failed') > 0 ? 'a refund failed at the provider: the buyer has not got that money back (the team refunds it again)'
        : paid && chargedBack > 0 && charged - refunded - chargedBack < accounted ? 'a chargeback after the seller was paid: open, or lost and not taken back from the seller yet'
        : paid && charged - refunded - chargedBack < accounted ? 'refunded after the seller was paid: not taken back from the seller yet'
        : paid && s('transfer_reversal') > 0 ? 'a transfer reversed beyond what the buyer got back (outside the service?)'
        : 'the ledger does not add up';
      out.mismatches.push({ order_id: o.order_id, charged, refunded, charged_back: chargedBack, accounted, currency: o.currency, why });
    }
  }
  out.ok = out.mismatches.length === 0 && out.paid_twice.length === 0;
  return out;
}
