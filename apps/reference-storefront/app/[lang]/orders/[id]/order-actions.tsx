import type { Messages } from '../../../../lib/messages';
import type { Order } from '../../../../lib/orders';
import { trackingAction, transitionAction } from '../actions';
import { OrderForm } from '../order-forms';

type T = Messages['orders']['order'];

const field = (name: string, label: string, value?: string) => (
  <div className="field" key={name}>
    <label htmlFor={`order-${name}`}>{label}</label>
    <input id={`order-${name}`} name={name} maxLength={name === 'note' ? 500 : 100} defaultValue={value} />
  </div>
);

/**
 * A form for each of the viewer's `available_transitions` (the API decides which). Every one of them
 * is final, so each asks first: its button opens the question in place (what happens next, in the
 * page's language) and only the "Yes" inside posts. A <details> element, so it works with the
 * keyboard and without JavaScript. Marking sent asks for the tracking, or "without tracking" ticked.
 * An order the marketplace sends (`sent_by`) shows its seller no actions, only who sends it.
 */
export function OrderActions({ order, lang, t, viewer }: { order: Order; lang: string; t: T; viewer: 'buyer' | 'seller' }) {
  const forSeller = viewer === 'seller' && order.sent_by === 'marketplace';
  const transitions = forSeller ? [] : order.available_transitions;
  const tracking = viewer === 'seller' && order.sent_by === 'seller' && order.state === 'delivered' && order.delivery.method === 'shipping';
  if (transitions.length === 0 && !tracking && !forSeller) return null;
  // a parcel has tracking; an item collected or brought over does not
  const parcel = order.delivery.method === 'shipping';
  const hidden = (transition: string) => ({ lang, order_id: order.id, transition, ...(transition === 'mark-delivered' && parcel ? { parcel: '1' } : {}) });
  const forms: Record<string, { name: string; question: string; yes: string; fields?: React.ReactNode[] }> = {
    'mark-delivered': {
      name: t.markSent,
      question: t.confirmSent,
      yes: t.yesSent,
      fields: parcel
        ? [
            field('tracking_number', t.tracking),
            field('carrier', t.carrier),
            <div className="field checkbox" key="no_tracking">
              <input id="order-no_tracking" type="checkbox" name="no_tracking" value="1" />
              <label htmlFor="order-no_tracking">{t.noTracking}</label>
            </div>,
          ]
        : [],
    },
    'mark-received': { name: t.markReceived, question: t.confirmReceived, yes: t.yesReceived },
    'mark-received-early': { name: t.markReceivedEarly, question: t.confirmReceivedEarly, yes: t.yesReceivedEarly },
    dispute: { name: t.dispute, question: t.confirmDispute, yes: t.yesDispute, fields: [field('note', t.disputeNote)] },
  };
  return (
    <section aria-labelledby="actions-title" className="order-actions">
      <h2 id="actions-title">{t.actions}</h2>
      {forSeller && (
        <p className="notice" data-testid="sent-by-marketplace">
          {t.sentByMarketplace}
        </p>
      )}
      {transitions.map((tr) => {
        const f = forms[tr];
        return (
          f && (
            <details key={tr} className="confirm order-step">
              <summary>{f.name}</summary>
              <OrderForm action={transitionAction} hidden={hidden(tr)} name={f.name}>
                <p>{f.question}</p>
                {f.fields}
                <button type="submit">{f.yes}</button>
              </OrderForm>
            </details>
          )
        );
      })}
      {tracking && (
        <details className="confirm order-step">
          <summary>{t.updateTracking}</summary>
          <OrderForm action={trackingAction} hidden={{ lang, order_id: order.id }} name={t.updateTracking} success={t.trackingSaved}>
            {field('tracking_number', t.tracking, order.delivery.tracking_number)}
            {field('carrier', t.carrier, order.delivery.carrier)}
            <button type="submit">{t.saveTracking}</button>
          </OrderForm>
        </details>
      )}
    </section>
  );
}
