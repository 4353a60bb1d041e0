import type { Messages } from '../../../../lib/messages';
import type { Order } from '../../../../lib/orders';
import { transitionAction } from '../actions';
import { OrderForm } from '../order-forms';

/** A form for each of the viewer's `available_transitions` (the API decides which). */
export function OrderActions({ order, lang, t }: { order: Order; lang: string; t: Messages['orders']['order'] }) {
  if (order.available_transitions.length === 0) return null;
  const hidden = (transition: string) => ({ lang, order_id: order.id, transition });
  const submit = (label: string) => <button type="submit">{label}</button>;
  const field = (name: string, label: string) => (
    <div className="field">
      <label htmlFor={`order-${name}`}>{label}</label>
      <input id={`order-${name}`} name={name} maxLength={name === 'note' ? 500 : 100} />
    </div>
  );
  const forms: Record<string, { name: string; body: React.ReactNode }> = {
    'mark-delivered': { name: t.markSent, body: [field('tracking_number', t.tracking), field('carrier', t.carrier), submit(t.markSent)] },
    'mark-received': { name: t.markReceived, body: submit(t.markReceived) },
    'mark-received-early': { name: t.markReceivedEarly, body: submit(t.markReceivedEarly) },
    dispute: { name: t.dispute, body: [field('note', t.disputeNote), submit(t.dispute)] },
  };
  return (
    <section aria-labelledby="actions-title" className="order-actions">
      <h2 id="actions-title">{t.actions}</h2>
      {order.available_transitions.map((tr) => {
        const f = forms[tr];
        return (
          f && (
            <OrderForm key={tr} action={transitionAction} hidden={hidden(tr)} name={f.name}>
              {Array.isArray(f.body) ? f.body.map((b, i) => <div key={i}>{b}</div>) : f.body}
            </OrderForm>
          )
        );
      })}
    </section>
  );
}
