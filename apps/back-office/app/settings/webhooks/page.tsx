import type { Metadata } from 'next';
import Link from 'next/link';
import { read, requireOperator } from '../../../lib/session';
import { when } from '../../../lib/format';
import { SettingsNav } from '../settings-nav';
import { DataTable } from '../../_components/data';
import { CreateWebhookForm } from './webhook-forms';
import { Section } from '../../_components/section';

export const metadata: Metadata = { title: 'Webhooks' };

/** The marketplace's webhook endpoints with their status; admins add one (its secret shown once). */
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const { api, canWrite } = await requireOperator();
  const [{ items }, { deleted }] = await Promise.all([read(api.webhooks.list.query({})), searchParams]);
  return (
    <main id="main">
      <h1>Webhooks</h1>
      <SettingsNav current="/settings/webhooks" />
      {deleted && (
        <p className="notice" role="status">
          Endpoint deleted.
        </p>
      )}
      <Section id="new-endpoint" title="New endpoint" shown={canWrite}>
        <CreateWebhookForm />
      </Section>
      <h2>Endpoints</h2>
      {items.length === 0 ? (
        <p className="muted">No endpoints yet.</p>
      ) : (
        <DataTable
          columns={['URL', 'Events', 'Status', 'Created']}
          rows={items.map((e) => ({
            key: e.id,
            cells: [
              // one line: the table scrolls sideways on a phone rather than squeezing the link below 44 px
              <Link href={`/settings/webhooks/${e.id}`}>{e.url}</Link>,
              e.events.join(', '),
              <span data-testid="webhook-status">{e.status}{e.failing_since ? ` since ${when(e.failing_since)}` : ''}</span>,
              when(e.created_at),
            ],
          }))}
        />
      )}
    </main>
  );
}
