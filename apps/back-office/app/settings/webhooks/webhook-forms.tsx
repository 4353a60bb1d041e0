'use client';

import { createWebhook, rotateWebhookSecret } from '../../webhook-actions';
import { Form, type Field } from '../../_components/form';
import type { FormState } from '../../../lib/problems';

/** The event types an endpoint can receive (the API's list; it refuses one it does not know, at the field). */
export const EVENT_TYPES_HINT = 'Comma-separated, e.g. order.updated, payout.updated (user.created, listing.created, listing.updated, order.created, order.updated, payout.updated, message.created, page.published, page.unpublished).';

export const endpointFields = (values: { url?: string; events?: string; all?: boolean } = {}): Field[] => [
  { name: 'url', label: 'URL', required: true, defaultValue: values.url, hint: 'https:// (test mode also http:// and localhost)', inputMode: 'text' },
  { name: 'all_events', label: 'Every event type', type: 'checkbox', defaultValue: values.all ? 'on' : '' },
  { name: 'events', label: 'Event types (when not every type)', defaultValue: values.events, hint: EVENT_TYPES_HINT },
];

/** A secret the API shows once. */
function Secret({ state, lead }: { state: FormState; lead: string }) {
  return state.ok && state.result?.secret ? (
    <div className="notice" role="status">
      <p>{lead} (shown only now: copy it to your receiver):</p>
      <p className="secret">
        <code data-testid="webhook-secret">{state.result.secret}</code>
      </p>
    </div>
  ) : null;
}

export function CreateWebhookForm() {
  return (
    <Form action={createWebhook} name="Add a webhook endpoint" submit="Add endpoint" fields={endpointFields()}>
      {(s) => <Secret state={s} lead="The endpoint's signing secret" />}
    </Form>
  );
}

export function RotateSecretForm({ id }: { id: string }) {
  return (
    <Form action={rotateWebhookSecret} name="Rotate the signing secret" submit="Rotate secret" hidden={{ id }}>
      {(s) => <Secret state={s} lead="The new signing secret; the previous one signs beside it for 24 hours" />}
    </Form>
  );
}
