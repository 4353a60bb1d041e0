'use client';

import { createWebhook, rotateWebhookSecret } from '../../webhook-actions';
import { Form } from '../../_components/form';
import { endpointFields } from './endpoint-fields';
import type { FormState } from '../../../lib/problems';

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
