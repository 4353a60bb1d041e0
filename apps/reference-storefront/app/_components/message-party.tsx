import Link from 'next/link';
import type { ApiOutputs } from '../../lib/api';
import { apiAs } from '../../lib/api';
import { countOf } from '../../lib/intl';
import { messages } from '../../lib/messages';
import { sessionToken } from '../../lib/session';
import { findConversation } from '../[lang]/account/messages/load';
import { MessageBox } from '../[lang]/account/messages/message-box';

type Order = Pick<ApiOutputs['me']['orders']['get'], 'id' | 'buyer_id' | 'seller_id'>;

/** Who is looking at the order: their role, or the signed-in user (whose id says the role). */
export type OrderViewer = 'buyer' | 'seller' | { id: string };

/**
 * "Message the seller" / "Message the buyer" on an order's page: the conversation about this order
 * when there is one (with what is unread), and a box that writes to the other party in it (the
 * first message of either party opens it).
 */
export async function MessageParty({ order, lang, viewer }: { order: Order; lang: string; viewer: OrderViewer }) {
  const t = messages(lang).inbox;
  const role = typeof viewer === 'string' ? viewer : viewer.id === order.buyer_id ? 'buyer' : 'seller';
  const token = await sessionToken();
  const conversation = token ? await findConversation(apiAs(token), { orderId: order.id }) : undefined;
  return (
    <section className="message-party" aria-labelledby={`message-party-${order.id}`}>
      <h2 id={`message-party-${order.id}`}>{t.partyTitle[role]}</h2>
      {conversation && (
        <p>
          <Link href={`/${lang}/account/messages/${conversation.id}`}>{t.open}</Link>
          {conversation.unread > 0 && (
            <>
              {' '}
              <span className="badge" data-testid="unread">
                {countOf(lang, conversation.unread, t.unread)}
              </span>
            </>
          )}
        </p>
      )}
      <MessageBox lang={lang} name={t.partyForm[role]} subject={{ order_id: order.id }} back={`/${lang}/orders/${order.id}`} />
    </section>
  );
}
