'use server';

import { safe } from '@trpc/client';
import { revalidatePath } from 'next/cache';
import { redirect, RedirectType } from 'next/navigation';
import { api, apiAs } from '../../../lib/api';
import { callOptions, keptValues, problemToState, text, type FormState } from '../../../lib/forms';
import { messages } from '../../../lib/messages';
import { checkoutFieldOf, checkoutQuery, checkoutValues, clientSecretOf, forgetCheckoutDraft, keepCheckoutDraft, keepClientSecret, orderInput, rememberAddress } from '../../../lib/orders';
import { sessionToken } from '../../../lib/session';
import { formLang as langOf } from '../../../lib/form-lang';

const ID = /^[0-9a-f-]{36}$/i;

async function signedIn(lang: string, back: string): Promise<string> {
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(back)}`);
  return token;
}

/**
 * Checkout's one form: "Update price" keeps the choices (delivery, country, voucher in the page's
 * address; name, street, postal code, city and phone in the draft cookie) and the page quotes them,
 * server-side; "Place order" places it, keeps the client secret in an httpOnly cookie and goes on
 * to pay — or, for a total of 0 (nothing to pay), straight to the order.
 */
export async function checkoutAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const listingId = text(form, 'listing_id');
  if (!ID.test(listingId)) redirect(`/${lang}`);
  const values = checkoutValues(form);
  if (text(form, 'intent') !== 'place') {
    await keepCheckoutDraft(listingId, values);
    redirect(`/${lang}/checkout/${listingId}?${checkoutQuery(values)}`, RedirectType.replace);
  }
  const token = await signedIn(lang, `/${lang}/listings/${listingId}`);
  const [placed, error] = await safe(apiAs(token).me.orders.place.mutate(orderInput(listingId, values), callOptions(form)));
  if (error) return problemToState(error, lang, keptValues(form), checkoutFieldOf);
  await forgetCheckoutDraft();
  // the next checkout starts from this address
  if (placed.order.delivery.method === 'shipping') await rememberAddress(placed.order.buyer_id, values);
  if (placed.payment.client_secret === '') redirect(`/${lang}/orders/${placed.order.id}`);
  await keepClientSecret(placed.order.id, placed.payment.client_secret);
  redirect(`/${lang}/orders/${placed.order.id}/pay`);
}

/** Checkout's re-quote as the shopper types (JavaScript): keeps the address in the draft cookie; the form then asks the page for the new quote. */
export async function keepCheckoutDraftAction(form: FormData): Promise<void> {
  const listingId = text(form, 'listing_id');
  if (ID.test(listingId)) await keepCheckoutDraft(listingId, checkoutValues(form));
}

/**
 * The sandbox's payment page (test mode): acts as the provider would through the API's test helper,
 * with the client secret from the cookie. A declined payment stays payable (same secret).
 */
export async function sandboxPayAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const id = text(form, 'order_id');
  if (!ID.test(id)) redirect(`/${lang}/account/orders`);
  await signedIn(lang, `/${lang}/orders/${id}/pay`);
  const secret = await clientSecretOf(id);
  if (!secret) return { message: messages(lang).orders.pay.noSecret };
  const outcome = text(form, 'outcome') === 'failed' ? 'failed' : 'succeeded';
  const [, error] = await safe(api().testHelpers.payments.confirm.mutate({ client_secret: secret, outcome }));
  if (error) return problemToState(error, lang);
  redirect(outcome === 'failed' ? `/${lang}/orders/${id}/pay?declined=1` : `/${lang}/orders/${id}`);
}

/** One of the caller's `available_transitions` (mark-delivered carries tracking number and carrier). */
export async function transitionAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const id = text(form, 'order_id');
  const token = await signedIn(lang, `/${lang}/orders/${id}`);
  const data: Record<string, string> = {};
  for (const k of ['tracking_number', 'carrier', 'note']) {
    const v = text(form, k).trim();
    if (v) data[k] = v;
  }
  const transition = text(form, 'transition') as 'mark-delivered';
  // sending asks for the tracking, or for "without tracking" ticked on purpose
  if (transition === 'mark-delivered' && text(form, 'parcel') === '1' && !data.tracking_number && text(form, 'no_tracking') !== '1') {
    const needTracking = messages(lang).orders.order.needTracking;
    return { message: needTracking, errors: {}, values: keptValues(form) };
  }
  const [, error] = await safe(apiAs(token).me.orders.transition.mutate({ id, transition, ...(Object.keys(data).length ? { data } : {}) }, callOptions(form)));
  if (error) return problemToState(error, lang, keptValues(form), (p) => p.replace(/^data\./, ''));
  redirect(`/${lang}/orders/${id}`);
}

/** The seller adds or corrects the tracking of an order marked sent (PATCH /v1/me/orders/{id}/delivery). */
export async function trackingAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const id = text(form, 'order_id');
  const token = await signedIn(lang, `/${lang}/orders/${id}`);
  const input = { id, tracking_number: text(form, 'tracking_number').trim(), carrier: text(form, 'carrier').trim() };
  const [, error] = await safe(apiAs(token).me.orders.updateDelivery.mutate(input, callOptions(form)));
  if (error) return problemToState(error, lang, keptValues(form));
  revalidatePath(`/${lang}/orders/${id}`);
  return { ok: true };
}

/** The buyer books (or changes) the delivery slot. */
export async function bookDeliveryAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const id = text(form, 'order_id');
  const token = await signedIn(lang, `/${lang}/orders/${id}`);
  const [date = '', window = ''] = text(form, 'slot').split('|');
  const [, error] = await safe(apiAs(token).me.orders.bookDelivery.mutate({ id, date, window }, callOptions(form)));
  if (error) return problemToState(error, lang, keptValues(form), () => 'slot');
  return { ok: true };
}
