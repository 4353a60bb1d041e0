'use server';

import { safe } from '@trpc/client';
import { redirect } from 'next/navigation';
import { apiAs, getMarketplace, problemOf } from '../../../../lib/api';
import { callOptions, keptValues, problemToState, text, type FormState } from '../../../../lib/forms';
import { problemMessages } from '../../../../lib/messages-problems';
import { toMinor } from '../../../../lib/money';
import { sessionToken } from '../../../../lib/session';
import { contentOf, listingFieldOf } from './content';
import type { EditorState } from './editor-state';
import { formLang as langOf } from '../../../../lib/form-lang';

const pageOf = (lang: string, id?: string) => `/${lang}/account/listings/${id || 'new'}`;

async function seller(lang: string, back: string) {
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${back}`);
  return { token, client: apiAs(token) };
}

/** A failed call: off to sign in when the session ended, else the problem by field, with what was typed. */
function failed(error: unknown, form: FormData, lang: string, back: string): FormState {
  if (problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
  return problemToState(error, lang, keptValues(form), listingFieldOf);
}

/**
 * The editor's one action, for a new listing and an existing one: save the content (create or
 * replace), then publish when that button was pressed. It answers "saved" only when the API took
 * every field: a value the form could not read, or any problem the API lists, comes back next to
 * its field with everything as typed. Publishing redirects to the page, which then says what
 * happened and links to the public page.
 */
export async function saveListingAction(_: EditorState, form: FormData): Promise<EditorState> {
  const lang = await langOf(form);
  const existing = text(form, 'id');
  const back = pageOf(lang, existing);
  const { client } = await seller(lang, back);
  const values = keptValues(form);
  const [marketplace, current] = await Promise.all([getMarketplace(), existing ? safe(client.me.listings.get.query({ id: existing })) : undefined]);
  if (current?.[1]) return { ...failed(current[1], form, lang, back), id: existing };
  const { content, errors } = contentOf(form, marketplace, lang, current?.[0]);
  if (errors) return { message: problemMessages(lang).codes.validation_failed, errors, values, id: existing || undefined };

  const [saved, saveError] = await safe(existing ? client.me.listings.replace.mutate({ id: existing, ...content }, callOptions(form)) : client.me.listings.create.mutate(content, callOptions(form)));
  if (saveError) return { ...failed(saveError, form, lang, back), id: existing || undefined };

  if (text(form, 'intent') !== 'publish') {
    // without JavaScript the new draft's own page takes over; with it, the editor stays (photos may be waiting to upload)
    if (!existing && text(form, 'js') !== '1') redirect(`${pageOf(lang, saved.id)}?created=1`);
    return { ok: true, id: saved.id, outcome: existing ? 'saved' : 'created', values };
  }
  const publish = { id: saved.id, ask_valuation: !!form.get('ask_valuation'), wants_storage: !!form.get('wants_storage') };
  const [, publishError] = await safe(client.me.listings.publish.mutate(publish, callOptions(form, 'idempotency_key_publish')));
  if (publishError) return { ...failed(publishError, form, lang, back), id: saved.id, outcome: 'not_published' };
  redirect(`${pageOf(lang, saved.id)}?published=1`);
}

/** Publishing a closed listing again (its content cannot change, so there is no content to save). */
export async function publishAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const id = text(form, 'id');
  const back = pageOf(lang, id);
  const { client } = await seller(lang, back);
  const [, error] = await safe(client.me.listings.publish.mutate({ id, ask_valuation: !!form.get('ask_valuation'), wants_storage: !!form.get('wants_storage') }, callOptions(form)));
  if (error) return failed(error, form, lang, back);
  redirect(`${back}?published=1`);
}

/** The one-button actions: close, delete, accept; counter carries an amount. */
export async function listingAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const id = text(form, 'id');
  const back = pageOf(lang, id);
  const { client } = await seller(lang, back);
  const action = text(form, 'action');
  if (action === 'counter' && toMinor(text(form, 'amount'), text(form, 'currency'), lang) === undefined) {
    return { errors: { amount: problemMessages(lang).rules.amount }, values: keptValues(form), message: problemMessages(lang).codes.validation_failed };
  }
  const run = async () => {
    if (action === 'close') return client.me.listings.close.mutate({ id }, callOptions(form));
    if (action === 'delete') return client.me.listings.delete.mutate({ id }, callOptions(form));
    if (action === 'accept') return client.me.listings.acceptOffer.mutate({ id }, callOptions(form));
    return client.me.listings.counterOffer.mutate({ id, amount: toMinor(text(form, 'amount'), text(form, 'currency'), lang)! }, callOptions(form));
  };
  try {
    await run();
  } catch (error) {
    return failed(error, form, lang, back);
  }
  redirect(action === 'delete' ? `/${lang}/account/listings` : back);
}
