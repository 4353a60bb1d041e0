import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../lib/session';
import { str, when, type Body } from '../../lib/format';
import { Tabs } from '../_components/tabs';

export const metadata: Metadata = { title: 'Support' };

/** The support inbox, latest message first; "waiting for us" shows only those the team has not answered. */
export default async function SupportPage({ searchParams }: { searchParams: Promise<{ unanswered?: string }> }) {
  const { api } = await requireOperator();
  const unanswered = (await searchParams).unanswered === 'true';
  const { items } = await read(api.support.list.query({ unanswered: unanswered ? 'true' : 'false', limit: 100 }));
  return (
    <main id="main">
      <h1>Support</h1>
      <Tabs
        label="Support inbox"
        sections={[
          { href: '/support?unanswered=true', label: 'Waiting for us' },
          { href: '/support', label: 'All' },
        ]}
        current={unanswered ? '/support?unanswered=true' : '/support'}
      />
      {items.length === 0 ? (
        <p>No conversations {unanswered ? 'wait for an answer' : 'yet'}.</p>
      ) : (
        <ul className="messages" aria-label="Conversations">
          {(items as Body[]).map((c) => (
            <li key={str(c, 'id')} className={c.last_from_marketplace ? 'team' : undefined}>
              <Link href={`/support/${str(c, 'id')}`}>{str(c, 'last_message').slice(0, 120) || 'Conversation'}</Link>
              <br />
              <span className="muted">
                {when(c.last_message_at)} · {c.last_from_marketplace ? 'answered' : 'waiting for us'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
