import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../../lib/session';
import { str, when, words, type Body } from '../../../lib/format';
import { replySupport } from '../../team-actions';
import { Form } from '../../_components/form';
import { Facts } from '../../_components/data';

export const metadata: Metadata = { title: 'Conversation' };

/** A conversation by id (any kind), its messages oldest first; a support conversation can be answered as the marketplace. */
export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { api, canWrite } = await requireOperator();
  const { conversation, messages } = await read(api.conversations.get.query({ id }));
  const c = conversation as Body;
  return (
    <main id="main">
      <p className="back">
        <Link href="/support">← Support</Link>
      </p>
      <h1>Conversation ({words(c.kind)})</h1>
      <Facts
        items={[
          ['User', <code>{str(c, 'user_a')}</code>],
          !!c.listing_id && ['Listing', <Link href={`/listings/${str(c, 'listing_id')}`}>{str(c, 'listing_id')}</Link>],
          !!c.order_id && ['Order', <Link href={`/orders/${str(c, 'order_id')}`}>{str(c, 'order_id')}</Link>],
        ]}
      />
      <ol className="messages" aria-label="Messages">
        {(messages as Body[]).map((m) => {
          const team = m.from_marketplace === true;
          return (
            <li key={String(m.id)} className={team ? 'team' : undefined}>
              <p className="muted">
                {team ? 'The marketplace' : `User ${str(m, 'sender_id').slice(0, 8)}`} · {when(m.at)}
              </p>
              <p>{str(m, 'body')}</p>
            </li>
          );
        })}
      </ol>
      {canWrite && c.kind === 'support' && <Form action={replySupport} name="Reply as the marketplace" submit="Send reply" hidden={{ id }} success="Sent: the user is emailed a notice." fields={[{ name: 'body', label: 'Reply', type: 'textarea', required: true, rows: 4 }]} />}
    </main>
  );
}
