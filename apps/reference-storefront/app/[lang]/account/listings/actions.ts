'use server';

import { safe } from '@trpc/client';
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { apiAs, getMarketplace, problemOf, uploadListingPhoto } from '../../../../lib/api';
import { callOptions, idempotencyKeyOf, keptValues, problemToState, text, type FormState } from '../../../../lib/forms';
import { toMinor } from '../../../../lib/money';
import { sessionToken } from '../../../../lib/session';
import { listingFieldOf } from './listing-form';

const langOf = (form: FormData) => text(form, 'lang') || 'en';

async function seller(lang: string, back: string) {
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${back}`);
  return { token, client: apiAs(token) };
}

/** A failed call: off to sign in when the session ended, else the problem by field. */
function failed(error: unknown, form: FormData, lang: string, back: string): FormState {
  if (problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
  return problemToState(error, keptValues(form), undefined, listingFieldOf);
}

/** The whole listing content from the form (PUT replaces everything, so every field is sent). */
async function contentOf(form: FormData) {
  const marketplace = await getMarketplace();
  const currency = text(form, 'currency') || marketplace.currencies[0] || 'EUR';
  const price = toMinor(text(form, 'price'), currency);
  const shippingPrice = toMinor(text(form, 'shipping_price'), currency);
  const terms: Record<string, string> = {};
  for (const kind of marketplace.term_kinds) {
    const id = text(form, `term_${kind.key}`);
    if (id) terms[kind.key] = id;
  }
  const location = Object.fromEntries(
    (['country', 'city', 'postal_code'] as const).map((k) => [k, k === 'country' ? text(form, k).trim().toUpperCase() : text(form, k).trim()]).filter(([, v]) => v !== ''),
  );
  const stock = Number.parseInt(text(form, 'stock') || '1', 10);
  return {
    title: text(form, 'title').trim(),
    description: text(form, 'description'),
    ...(price !== undefined ? { price: { amount: price, currency } } : {}),
    ...(text(form, 'category_id') ? { category_id: text(form, 'category_id') } : {}),
    terms,
    location,
    delivery: {
      ...(form.get('pickup') ? { pickup: true } : {}),
      ...(form.get('buyer_arranged') ? { buyer_arranged: true } : {}),
      ...(form.get('shipping') ? { shipping: shippingPrice !== undefined ? { price: shippingPrice } : {} } : {}),
    },
    stock: Number.isFinite(stock) ? stock : 1,
  };
}

export async function createListingAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const { client } = await seller(lang, `/${lang}/account/listings/new`);
  const [listing, error] = await safe(client.me.listings.create.mutate(await contentOf(form), callOptions(form)));
  if (error) return failed(error, form, lang, `/${lang}/account/listings/new`);
  redirect(`/${lang}/account/listings/${listing.id}`);
}

export async function saveListingAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const id = text(form, 'id');
  const back = `/${lang}/account/listings/${id}`;
  const { client } = await seller(lang, back);
  const [, error] = await safe(client.me.listings.replace.mutate({ id, ...(await contentOf(form)) }, callOptions(form)));
  if (error) return failed(error, form, lang, back);
  revalidatePath(back);
  return { ok: true, values: keptValues(form) };
}

export async function uploadPhotoAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const id = text(form, 'id');
  const back = `/${lang}/account/listings/${id}`;
  const { token } = await seller(lang, back);
  const file = form.get('photo');
  if (!(file instanceof Blob) || file.size === 0) return { errors: { photo: 'Choose a photo first.' } };
  const res = await uploadListingPhoto(token, id, file, idempotencyKeyOf(form));
  if (!res.ok) {
    if (res.problem.status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
    return { errors: { photo: res.problem.detail }, code: res.problem.code };
  }
  revalidatePath(back);
  return { ok: true };
}

export async function publishAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const id = text(form, 'id');
  const back = `/${lang}/account/listings/${id}`;
  const { client } = await seller(lang, back);
  const [, error] = await safe(client.me.listings.publish.mutate({ id, ask_valuation: !!form.get('ask_valuation'), wants_storage: !!form.get('wants_storage') }, callOptions(form)));
  if (error) {
    const state = failed(error, form, lang, back);
    // publish problems are about the content: list them all under the button
    return { ...state, errors: {}, message: problemOf(error)?.detail ?? state.message };
  }
  redirect(back);
}

/** The one-button actions: close, delete, accept; counter carries an amount. */
export async function listingAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const id = text(form, 'id');
  const back = `/${lang}/account/listings/${id}`;
  const { client } = await seller(lang, back);
  const action = text(form, 'action');
  const run = async () => {
    if (action === 'close') return client.me.listings.close.mutate({ id }, callOptions(form));
    if (action === 'delete') return client.me.listings.delete.mutate({ id }, callOptions(form));
    if (action === 'accept') return client.me.listings.acceptOffer.mutate({ id }, callOptions(form));
    const amount = toMinor(text(form, 'amount'), text(form, 'currency'));
    return client.me.listings.counterOffer.mutate({ id, amount: amount ?? 0 }, callOptions(form));
  };
  try {
    await run();
  } catch (error) {
    return failed(error, form, lang, back);
  }
  redirect(action === 'delete' ? `/${lang}/account/listings` : back);
}
