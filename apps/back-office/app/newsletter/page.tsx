import type { Metadata } from 'next';
import { read, requireOperator } from '../../lib/session';
import { when } from '../../lib/format';

export const metadata: Metadata = { title: 'Newsletter' };

/** The newsletter's sign-ups: how many, and the CSV download (every operator may read them). */
export default async function NewsletterPage() {
  const { api } = await requireOperator();
  const { items, contact_list } = await read(api.newsletter.export.query({}));
  const latest = items.at(-1) as { created_at?: string } | undefined;
  return (
    <main id="main">
      <h1>Newsletter</h1>
      <p>
        {items.length === 1 ? '1 sign-up' : `${items.length} sign-ups`}
        {latest?.created_at ? `, the latest ${when(latest.created_at)}` : ''}. Contact list: {contact_list.provider}
        {contact_list.audience_id ? ` (audience ${contact_list.audience_id})` : ''}.
      </p>
      <p>
        {/* a route of this app: it asks the API with the operator's session and answers with the file */}
        <a className="button" href="/newsletter/subscribers.csv" download>
          Download the sign-ups (CSV)
        </a>
      </p>
    </main>
  );
}
