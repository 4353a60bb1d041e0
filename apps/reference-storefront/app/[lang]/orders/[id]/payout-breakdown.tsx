import { messages } from '../../../../lib/messages';
import { formatMoney } from '../../../../lib/money';
import type { OrderPartProps } from './order-part';

/**
 * The seller's payout for an order (spec: Payout): the sale, commission, storage fee and what they
 * receive, with its status. Nothing for the buyer, or before the order has a payout (a canceled
 * one pays nothing).
 */
export function PayoutBreakdown({ order, lang, viewer }: OrderPartProps) {
  const payout = order.payout;
  if (viewer !== 'seller' || !payout) return null;
  const t = messages(lang).payouts;
  const money = (amount: number) => formatMoney({ amount, currency: payout.currency }, lang);
  return (
    <section aria-labelledby="payout-breakdown" data-testid="payout-breakdown">
      <h2 id="payout-breakdown">{t.breakdownTitle}</h2>
      <dl className="payout-breakdown">
        <dt>{t.subtotal}</dt>
        <dd>{money(payout.subtotal)}</dd>
        <dt>{t.commission}</dt>
        <dd>− {money(payout.commission)}</dd>
        {(payout.storage_fee ?? 0) > 0 && (
          <>
            <dt>{t.storageFee(payout.storage_months ?? 0)}</dt>
            <dd>− {money(payout.storage_fee!)}</dd>
          </>
        )}
        <dt>{t.amount}</dt>
        <dd>
          <strong>{money(payout.amount)}</strong>
        </dd>
        <dt>{t.payoutStatus}</dt>
        <dd>
          <span className={payout.status === 'paid' ? 'badge ok' : 'badge'} data-testid="payout-breakdown-status">
            {t.payoutStatuses[payout.status]}
          </span>
        </dd>
      </dl>
    </section>
  );
}
