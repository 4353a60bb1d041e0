import type { ApiOutputs } from '../../lib/api';
import { messages } from '../../lib/messages';
import { MessageBox } from '../[lang]/account/messages/message-box';

type Order = Pick<ApiOutputs['me']['orders']['get'], 'id' | 'buyer_id' | 'seller_id'>;

/** Who is looking at the order: their role, or the signed-in user (whose id says the role). */
export type OrderViewer = 'buyer' | 'seller' | { id: string };

/**
 * "Message the seller" / "Message the buyer" on an order's page: writes to the order's other party
 * in the conversation about this order (opened by the first message of either, then continued).
 */
export function MessageParty({ order, lang, viewer }: { order: Order; lang: string; viewer: OrderViewer }) {
  const t = messages(lang).inbox;
  const role = typeof viewer === 'string' ? viewer : viewer.id === order.buyer_id ? 'buyer' : 'seller';
  return (
    <section className="message-party" aria-labelledby={`message-party-${order.id}`}>
      <h2 id={`message-party-${order.id}`}>{t.partyTitle[role]}</h2>
      <MessageBox lang={lang} name={t.partyForm[role]} subject={{ order_id: order.id }} back={`/${lang}/orders/${order.id}`} />
    </section>
  );
}
