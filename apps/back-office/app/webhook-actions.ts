'use server';

import { redirect } from 'next/navigation';
import { change, text } from '../lib/actions';
import type { FormState } from '../lib/problems';

/** The webhook endpoints' changes (admins; the API refuses a viewer's), problems at their fields. */

const events = (form: FormData) =>
  form.get('all_events') === 'on'
    ? ['*']
    : text(form, 'events')
        .split(/[\s,]+/)
        .filter(Boolean);
/** `events.2` → `events` */
const fieldOf = (p: string) => p.split('.')[0]!;
const paths = (id?: string) => ['/settings/webhooks', ...(id ? [`/settings/webhooks/${id}`] : []), '/'];

export async function createWebhook(_: FormState, form: FormData): Promise<FormState> {
  return change(
    form,
    ['url', 'events'],
    async (api, context) => {
      const { endpoint, secret } = await api.webhooks.create.mutate({ url: text(form, 'url'), events: events(form) }, { context });
      return { id: endpoint.id, secret };
    },
    { revalidate: paths(), fieldOf },
  );
}

export async function updateWebhook(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, ['url', 'events'], (api, context) => api.webhooks.update.mutate({ id, url: text(form, 'url'), events: events(form) }, { context }).then(() => undefined), { revalidate: paths(id), fieldOf });
}

export async function enableWebhook(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, [], (api, context) => api.webhooks.update.mutate({ id, enabled: text(form, 'do') === 'enable' }, { context }).then(() => undefined), { revalidate: paths(id) });
}

export async function rotateWebhookSecret(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(
    form,
    [],
    async (api, context) => {
      const { secret } = await api.webhooks.rotateSecret.mutate({ id }, { context });
      return { secret };
    },
    { revalidate: paths(id) },
  );
}

export async function deleteWebhook(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  if (form.get('confirm') !== 'on') return { errors: { confirm: 'Tick the box to confirm: the endpoint and its delivery log go.' } };
  const done = await change(form, ['confirm'], (api, context) => api.webhooks.delete.mutate({ id }, { context }).then(() => undefined), { revalidate: paths() });
  if (done.ok) redirect('/settings/webhooks?deleted=1');
  return done;
}

export async function replayWebhookEvent(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(
    form,
    ['event'],
    async (api, context) => {
      const { delivery_id } = await api.webhooks.replay.mutate({ id, event: text(form, 'event') }, { context });
      return { delivery_id };
    },
    { revalidate: paths(id) },
  );
}
