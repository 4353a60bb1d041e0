'use server';

import { change, text } from '../lib/actions';
import type { FormState } from '../lib/problems';

/**
 * The team's changes, one server action each, every one through the operator's own session (the
 * API refuses a viewer's; the pages do not offer them). Problems come back next to their fields.
 */

export async function approveListing(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, [], (api, context) => api.listings.approve.mutate({ id }, { context }).then(() => undefined), { revalidate: [`/listings/${id}`, '/listings', '/'] });
}

export async function denyListing(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, ['note'], (api, context) => api.listings.deny.mutate({ id, note: text(form, 'note') }, { context }).then(() => undefined), { revalidate: [`/listings/${id}`, '/listings', '/'] });
}

/** An amount typed by a person (`1200`, `1 200,50`, `1200.50`) in minor units of a currency with `digits` decimals; NaN when it is not one. */
function minorUnits(typed: string, digits: number): number {
  const clean = typed.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(clean)) return Number.NaN;
  return Math.round(Number(clean) * 10 ** digits);
}

export async function offerPrice(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  const currency = text(form, 'currency');
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: /^[A-Z]{3}$/.test(currency) ? currency : 'EUR' }).resolvedOptions().maximumFractionDigits ?? 2;
  const amount = minorUnits(text(form, 'amount'), digits);
  if (Number.isNaN(amount)) return { errors: { amount: 'Must be an amount, e.g. 1200 or 1200.50.' }, values: { amount: text(form, 'amount'), note: text(form, 'note') } };
  const note = text(form, 'note');
  return change(
    form,
    ['amount', 'currency', 'note'],
    (api, context) => api.listings.offer.mutate({ id, price: { amount, currency }, ...(note ? { note } : {}) }, { context }).then(() => undefined),
    { revalidate: [`/listings/${id}`, '/listings', '/'], fieldOf: (p) => (p.startsWith('price.') ? p.slice(6) : p) },
  );
}

export async function transitionOrder(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  const transition = text(form, 'transition') as 'cancel' | 'resolve-received' | 'resolve-canceled' | 'mark-delivered';
  if (form.has('irreversible') && form.get('confirm') !== 'on') return { errors: { confirm: 'Tick the box to confirm: this cannot be undone.' } };
  return change(form, ['confirm'], (api, context) => api.orders.transition.mutate({ id, transition }, { context }).then(() => undefined), { revalidate: [`/orders/${id}`, '/orders', '/'] });
}

export async function replySupport(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, ['body'], (api, context) => api.conversations.reply.mutate({ id, body: text(form, 'body') }, { context }).then(() => undefined), { revalidate: [`/support/${id}`, '/support', '/'] });
}

export async function blockUser(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  const call = text(form, 'do') === 'unblock' ? 'unblock' : 'block';
  return change(form, [], (api, context) => api.users[call].mutate({ id }, { context }).then(() => undefined), { revalidate: ['/users'] });
}

export async function inviteOperator(_: FormState, form: FormData): Promise<FormState> {
  return change(form, ['email', 'role'], (api, context) => api.operators.invite.mutate({ email: text(form, 'email'), role: text(form, 'role') as 'admin' | 'viewer' }, { context }).then(() => undefined), {
    revalidate: ['/settings/team'],
  });
}

export async function createKey(_: FormState, form: FormData): Promise<FormState> {
  return change(
    form,
    ['kind'],
    async (api, context) => {
      const { token } = await api.keys.create.mutate({ kind: text(form, 'kind') as 'secret' | 'publishable' }, { context });
      return { token };
    },
    { revalidate: ['/settings/keys'] },
  );
}

export async function revokeKey(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, [], (api, context) => api.keys.revoke.mutate({ id }, { context }).then(() => undefined), { revalidate: ['/settings/keys'] });
}

/** The settings form's fields, as `PATCH /settings` names them (lists comma-separated, the shipping table as JSON). */
const LISTS = ['currencies', 'locales'];
const NULLABLE = ['alert_email', 'newsletter_audience_id'];
const RULES = ['require_approval', 'valuations', 'min_images'];

export async function updateSettings(_: FormState, form: FormData): Promise<FormState> {
  const fields = ['name', 'currencies', 'locales', 'commission_percent', 'storefront_url', 'alert_email', 'newsletter_audience_id', 'shipping', ...RULES];
  const input: Record<string, unknown> = {};
  for (const f of ['name', 'storefront_url', ...LISTS, ...NULLABLE]) {
    const v = text(form, f);
    input[f] = LISTS.includes(f) ? v.split(',').map((s) => s.trim()).filter(Boolean) : NULLABLE.includes(f) && v === '' ? null : v;
  }
  const commission = text(form, 'commission_percent');
  input.commission_percent = /^\d+(\.\d+)?$/.test(commission) ? Number(commission) : commission;
  const shipping = text(form, 'shipping');
  if (shipping) {
    try {
      input.shipping = JSON.parse(shipping);
    } catch {
      return { errors: { shipping: 'Must be JSON, as the API shows the shipping table.' }, values: Object.fromEntries(fields.map((f) => [f, text(form, f)])) };
    }
  }
  const minImages = text(form, 'min_images');
  return change(
    form,
    fields,
    async (api, context) => {
      // the listing rules are one object on the API: the ones this form does not show are kept
      const { marketplace } = await api.settings.get.query({});
      const rules = (marketplace.listings ?? {}) as Record<string, unknown>;
      input.listings = { ...rules, require_approval: form.get('require_approval') === 'on', valuations: form.get('valuations') === 'on', min_images: /^\d+$/.test(minImages) ? Number(minImages) : minImages };
      await api.settings.update.mutate(input as never, { context });
    },
    { revalidate: ['/settings'], fieldOf: (p) => (p.startsWith('listings.') ? p.slice(9) : p.split('.')[0]!) },
  );
}
