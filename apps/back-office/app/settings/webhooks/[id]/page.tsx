import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { read, requireOperator } from '../../../../lib/session';
import { when } from '../../../../lib/format';
import { deleteWebhook, enableWebhook, replayWebhookEvent, updateWebhook } from '../../../webhook-actions';
import { DataTable, Facts } from '../../../_components/data';
import { Form } from '../../../_components/form';
import { endpointFields } from '../endpoint-fields';
import { RotateSecretForm } from '../webhook-forms';
import { Section } from '../../../_components/section';

export const metadata: Metadata = { title: 'Webhook endpoint' };

/** One endpoint: its status and the delivery log; admins edit, enable or disable, rotate its secret, replay an event and delete it. */
export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { api, canWrite } = await requireOperator();
  // the API has no read of one endpoint: it is found in the list (another marketplace's is not there)
  const { items } = await read(api.webhooks.list.query({}));
  const e = items.find((x) => x.id === id);
  if (!e) notFound();
  const { items: attempts } = await read(api.webhooks.deliveries.query({ id, limit: 50 }));
  const all = e.events.includes('*');
  return (
    <main id="main">
      <p className="back">
        <Link href="/settings/webhooks">← Webhooks</Link>
      </p>
      <h1 className="break">{e.url}</h1>
      <Facts
        items={[
          ['Status', <span data-testid="webhook-status">{e.status}</span>],
          ['Events', all ? 'Every event type' : e.events.join(', ')],
          !!e.failing_since && ['Failing since', when(e.failing_since)],
          !!e.disabled_reason && ['Disabled because', e.disabled_reason],
          !!e.previous_secret_signs_until && ['Previous secret signs until', when(e.previous_secret_signs_until)],
          ['Created', when(e.created_at)],
          ['Changed', when(e.updated_at)],
        ]}
      />
      {canWrite && (
        <div className="actions">
          <Section id="edit" title="Edit">
            <Form action={updateWebhook} name="Edit webhook endpoint" submit="Save" hidden={{ id }} success="Saved." fields={endpointFields({ url: e.url, events: all ? '' : e.events.join(', '), all })} />
          </Section>
          <Section id="sending" title="Sending">
            {e.enabled ? (
              <Form action={enableWebhook} name="Disable endpoint" submit="Disable" danger hidden={{ id, do: 'disable' }} success="Disabled: nothing is sent to it." />
            ) : (
              <Form action={enableWebhook} name="Enable endpoint" submit="Enable" hidden={{ id, do: 'enable' }} success="Enabled: events are sent again." />
            )}
            <RotateSecretForm id={id} />
          </Section>
          <Section id="replay" title="Send an event again">
            <Form action={replayWebhookEvent} name="Replay an event" submit="Replay" hidden={{ id }} success="Queued: it shows in the log below once sent." fields={[{ name: 'event', label: 'Event id', required: true, hint: 'evt_… (of the last 30 days)' }]} />
          </Section>
          <Section id="delete" title="Delete">
            <Form action={deleteWebhook} name="Delete endpoint" submit="Delete endpoint" danger hidden={{ id }} fields={[{ name: 'confirm', label: 'I understand the endpoint and its delivery log go', type: 'checkbox' }]} />
          </Section>
        </div>
      )}
      <h2>Delivery log</h2>
      {attempts.length === 0 ? (
        <p className="muted">Nothing sent yet.</p>
      ) : (
        <DataTable
          label="Delivery log"
          columns={['When', 'Event', 'Attempt', 'Error / response']}
          rows={attempts.map((a) => ({
            key: `${a.delivery_id}-${a.attempt}`,
            cells: [when(a.at), <code>{a.event_id}</code>, `#${a.attempt}: ${a.status_code ?? 'no answer'} in ${a.duration_ms} ms (${a.delivery_status})`, <span className="break">{[a.error, a.response].filter(Boolean).join(' · ') || '—'}</span>],
          }))}
        />
      )}
    </main>
  );
}
