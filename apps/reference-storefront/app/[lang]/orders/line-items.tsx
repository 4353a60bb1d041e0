import type { Messages } from '../../../lib/messages';
import { formatMoney } from '../../../lib/money';
import type { LineItem } from '../../../lib/orders';

/** An order's or a quote's line items and total, exactly as the API returns them. */
export function LineItems({ items, total, currency, lang, t, caption }: { items: LineItem[]; total: number; currency: string; lang: string; t: Messages['orders']['order']; caption: string }) {
  const money = (amount: number) => formatMoney({ amount, currency }, lang);
  return (
    <table className="line-items" data-testid="line-items">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t.item}</th>
          <th scope="col">{t.qty}</th>
          <th scope="col">{t.amount}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((l, i) => (
          <tr key={i} data-code={l.code}>
            <td>{l.label}</td>
            <td>{l.quantity}</td>
            <td>{money(l.amount)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={2}>
            {t.total}
          </th>
          <td data-testid="total">{money(total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
