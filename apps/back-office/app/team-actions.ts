'use server';

import { change, text, valuesOf } from '../lib/actions';
import type { FormState } from '../lib/problems';
import { currencyDigits, minorUnits } from '../lib/format';

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

export async function offerPrice(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  const currency = text(form, 'currency');
  const digits = currencyDigits(currency);
  const amount = minorUnits(text(form, 'amount'), digits);
  if (Number.isNaN(amount)) return { errors: { amount: 'Must be an amount, e.g. 1200 or 1200.50.' }, values: { amount: text(form, 'amount'), note: text(form, 'note') } };
  const note = text(form, 'note');
  const schedule = priceDrops(text(form, 'schedule'), digits);
  const fields = ['amount', 'currency', 'note', 'schedule'];
  if (!schedule) return { errors: { schedule: 'Write each drop as months:price, e.g. 2:900, 4:800.' }, values: valuesOf(form, fields) };
  return change(
    form,
    fields,
    (api, context) => api.listings.offer.mutate({ id, price: { amount, currency }, ...(note ? { note } : {}), ...(schedule.length ? { schedule } : {}) }, { context }).then(() => undefined),
    { revalidate: [`/listings/${id}`, '/listings', '/'], fieldOf: (p) => (p.startsWith('price.') ? p.slice(6) : p.split('.')[0]!) },
  );
}

/** `2:900, 4:800` (months after the offer: the price then, in the offer's currency) as the API's schedule; [] for none, null when it is not that. */
function priceDrops(typed: string, digits: number): { months: number; amount: number }[] | null {
  if (!typed) return [];
  const steps = typed.split(/[,;\n]+/).map((s) => s.trim()).filter(Boolean).map((s) => /^(\d+)\s*:\s*(.+)$/.exec(s));
  if (steps.some((m) => !m)) return null;
  const parsed = steps.map((m) => ({ months: Number(m![1]), amount: minorUnits(m![2]!, digits) }));
  return parsed.some((p) => Number.isNaN(p.amount)) ? null : parsed;
}

const listingPaths = (id: string) => [`/listings/${id}`, '/listings'];

export async function setShippingSize(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, ['size'], (api, context) => api.listings.setShippingSize.mutate({ id, size: text(form, 'size') }, { context }).then(() => undefined), { revalidate: listingPaths(id) });
}

export async function setCommission(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  const typed = text(form, 'percent').replace(',', '.');
  // empty: the marketplace's commission (the API's null)
  if (typed && !/^\d+(\.\d+)?$/.test(typed)) return { errors: { percent: 'Must be a number from 0 to 100, or empty for the marketplace commission.' }, values: valuesOf(form, ['percent']) };
  return change(form, ['percent'], (api, context) => api.listings.setCommission.mutate({ id, percent: typed ? Number(typed) : null }, { context }).then(() => undefined), { revalidate: listingPaths(id) });
}

export async function setCustody(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  const custody = text(form, 'custody') as 'seller' | 'collecting' | 'stored';
  const site = text(form, 'site');
  return change(form, ['custody', 'site'], (api, context) => api.listings.setCustody.mutate({ id, custody, ...(site ? { site } : {}) }, { context }).then(() => undefined), { revalidate: listingPaths(id) });
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

export async function setOperatorRole(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  return change(form, ['role'], (api, context) => api.operators.setRole.mutate({ id, role: text(form, 'role') as 'admin' | 'viewer' }, { context }).then(() => undefined), { revalidate: ['/settings/team'] });
}

export async function removeOperator(_: FormState, form: FormData): Promise<FormState> {
  const id = text(form, 'id');
  if (form.get('confirm') !== 'on') return { errors: { confirm: 'Tick the box to confirm: their sessions end at once.' } };
  return change(form, ['confirm'], (api, context) => api.operators.remove.mutate({ id }, { context }).then(() => undefined), { revalidate: ['/settings/team'] });
}

export async function createUser(_: FormState, form: FormData): Promise<FormState> {
  const fields = ['email', 'first_name', 'last_name', 'locale'];
  // the optional fields left empty are not sent (the API keeps them unset)
  const input = { ...Object.fromEntries(fields.map((f) => [f, text(form, f)]).filter(([, v]) => v !== '')), email: text(form, 'email') };
  return change(
    form,
    fields,
    async (api, context) => {
      const { user } = await api.users.create.mutate(input, { context });
      return { email: String(user.email ?? input.email) };
    },
    { revalidate: ['/users'] },
  );
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
