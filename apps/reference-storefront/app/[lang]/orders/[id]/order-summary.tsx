import { displayName, formatDate } from '../../../../lib/intl';
import type { Messages } from '../../../../lib/messages';
import type { Order } from '../../../../lib/orders';
import { LineItems } from '../line-items';

type T = Messages['orders'];
const ADDRESS = ['name', 'line1', 'line2', 'postal_code', 'city'] as const;

/** State, line items, how it is delivered (address, tracking), and every move in history. */
export function OrderSummary({ order: o, lang, t, viewer }: { order: Order; lang: string; t: T; viewer: 'buyer' | 'seller' }) {
  const d = o.delivery;
  const address = [...ADDRESS.flatMap((k) => (d[k] ? [d[k]] : [])), ...(d.country ? [displayName(lang, 'region', d.country)] : [])];
  return (
    <>
      <dl className="order-facts">
        <div>
          <dt>{t.order.state}</dt>
          <dd data-testid="order-state" data-state={o.state}>
            {t.order.states[o.state] ?? o.state}
          </dd>
        </div>
        <div>
          <dt>{t.order.placedAt}</dt>
          <dd>{formatDate(o.created_at, lang)}</dd>
        </div>
      </dl>
      <LineItems items={o.line_items} total={o.total} currency={o.currency} lang={lang} t={t.order} caption={viewer === 'seller' ? t.order.linesSeller : t.order.lines} />
      <section aria-labelledby="delivery-title">
        <h2 id="delivery-title">{t.order.delivery}</h2>
        {d.method && <p>{t.checkout.methods[d.method] ?? d.method}</p>}
        {address.length > 0 && <address data-testid="order-address">{address.join(', ')}</address>}
        {(d.tracking_number || d.carrier) && (
          <dl data-testid="tracking">
            {d.tracking_number && (
              <div>
                <dt>{t.order.tracking}</dt>
                <dd>{d.tracking_number}</dd>
              </div>
            )}
            {d.carrier && (
              <div>
                <dt>{t.order.carrier}</dt>
                <dd>{d.carrier}</dd>
              </div>
            )}
          </dl>
        )}
      </section>
      <section aria-labelledby="history-title">
        <h2 id="history-title">{t.order.history}</h2>
        <ol className="order-history" data-testid="order-history">
          {o.history.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at}>{formatDate(e.at, lang)}</time> · {t.order.transitions[e.transition] ?? e.transition} · {t.order.actors[e.actor] ?? e.actor}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
