import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../lib/session';
import { money, str, when, words, type Body } from '../lib/format';

export const metadata: Metadata = { title: 'Attention' };

type QueueName =
  | 'listings_pending_approval'
  | 'valuation_requests'
  | 'storage_collections'
  | 'orders_disputed'
  | 'orders_not_sent'
  | 'orders_chargeback'
  | 'payouts_held'
  | 'payouts_failed'
  | 'support_unanswered'
  | 'webhooks_failing';

/** Each queue: its heading, the list page it continues on, and how one of its items reads and links. */
const QUEUES: { name: QueueName; title: string; list: string; item: (i: Body) => { href?: string; text: string } }[] = [
  { name: 'listings_pending_approval', title: 'Listings waiting for approval', list: '/listings?status=pending_approval', item: (l) => ({ href: `/listings/${str(l, 'id')}`, text: str(l, 'title') || 'Untitled' }) },
  { name: 'valuation_requests', title: 'Valuation requests', list: '/listings?status=pending_valuation', item: (l) => ({ href: `/listings/${str(l, 'id')}`, text: str(l, 'title') || 'Untitled' }) },
  { name: 'storage_collections', title: 'Storage collections to book', list: '/listings?status=published', item: (l) => ({ href: `/listings/${str(l, 'id')}`, text: str(l, 'title') || 'Untitled' }) },
  { name: 'orders_disputed', title: 'Disputed orders', list: '/orders?state=disputed', item: (o) => ({ href: `/orders/${str(o, 'id')}`, text: `${money(o.total, o.currency)} · ${when(o.created_at)}` }) },
  { name: 'orders_not_sent', title: 'Orders not sent', list: '/orders?state=purchased', item: (o) => ({ href: `/orders/${str(o, 'id')}`, text: `${money(o.total, o.currency)} · paid ${when(o.state_entered_at)}` }) },
  { name: 'orders_chargeback', title: 'Orders with a chargeback', list: '/orders?chargeback=true', item: (o) => ({ href: `/orders/${str(o, 'id')}`, text: `${money(o.total, o.currency)} · ${words(o.state)}` }) },
  { name: 'payouts_held', title: 'Payouts held for a chargeback', list: '/orders?chargeback=true', item: (p) => ({ href: `/orders/${str(p, 'order_id')}`, text: `${money(p.amount, p.currency)} · held ${when(p.held_at)}` }) },
  { name: 'payouts_failed', title: 'Failed payouts', list: '/payouts', item: (p) => ({ href: `/orders/${str(p, 'order_id')}`, text: `${money(p.amount, p.currency)} · ${words(p.reason)}` }) },
  { name: 'support_unanswered', title: 'Unanswered support conversations', list: '/support?unanswered=true', item: (c) => ({ href: `/support/${str(c, 'id')}`, text: str(c, 'last_message').slice(0, 80) || 'Conversation' }) },
  { name: 'webhooks_failing', title: 'Failing webhook endpoints', list: '/settings/webhooks', item: (w) => ({ href: `/settings/webhooks/${str(w, 'id')}`, text: str(w, 'url') || str(w, 'id') }) },
];

/** Home: what waits for the team, each queue with its count and first items, each linking to its queue. */
export default async function AttentionPage() {
  const { api } = await requireOperator();
  const attention = await read(api.attention.get.query({ limit: 5 }));
  return (
    <main id="main">
      <h1>Attention</h1>
      <p className="muted">{attention.total === 0 ? 'Nothing waits for the team.' : `${attention.total} things wait for the team.`}</p>
      <ul className="cards" aria-label="Queues">
        {QUEUES.map((q) => {
          const queue = attention.queues[q.name];
          return (
            <li key={q.name} className="card" data-queue={q.name}>
              <h2>{q.title}</h2>
              <p className="count">{queue.count}</p>
              {queue.items.length > 0 && (
                <ul className="row-links">
                  {queue.items.map((i, n) => {
                    const it = q.item(i as Body);
                    return <li key={n}>{it.href ? <Link href={it.href}>{it.text}</Link> : it.text}</li>;
                  })}
                </ul>
              )}
              <Link href={q.list}>Open the queue{q.name === 'orders_not_sent' ? ` (not sent in ${attention.not_sent_after_days} days)` : ''}</Link>
            </li>
          );
        })}
      </ul>
    </main>
  );
}
