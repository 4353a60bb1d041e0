'use server';

import { safe } from '@trpc/client';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { apiAs, problemOf } from '../../../../lib/api';
import { callOptions, keptValues, problemToState, safeNext, text, type FormState } from '../../../../lib/forms';
import { sessionToken } from '../../../../lib/session';
import { formLang as langOf } from '../../../../lib/form-lang';

const threadPage = (lang: string, id: string) => `/${lang}/account/messages/${id}`;

async function signedIn(lang: string, back: string) {
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(back)}`);
  return apiAs(token);
}

/** A failed call: off to sign in when the session ended, else the problem next to the message box, with what was typed. */
function failed(error: unknown, form: FormData, lang: string, back: string): FormState {
  if (problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(back)}`);
  return problemToState(error, lang, keptValues(form));
}

/**
 * Writes about a listing (`listing_id`), an order (`order_id`) or to support (`support`): the API
 * opens the conversation or continues the one there is; the shopper lands on it.
 */
export async function startConversationAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const back = safeNext(text(form, 'back'), lang, `/${lang}/account/messages`);
  const client = await signedIn(lang, back);
  const subject = text(form, 'listing_id') ? { listing_id: text(form, 'listing_id') } : text(form, 'order_id') ? { order_id: text(form, 'order_id') } : { support: true };
  const [started, error] = await safe(client.me.conversations.start.mutate({ body: text(form, 'body'), ...subject }, callOptions(form)));
  if (error) return failed(error, form, lang, back);
  revalidatePath(`/${lang}/account/messages`);
  redirect(threadPage(lang, started.conversation.id));
}

/** A reply in a conversation; the page then shows it in the thread. */
export async function postMessageAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const id = text(form, 'id');
  const back = threadPage(lang, id);
  const client = await signedIn(lang, back);
  const [, error] = await safe(client.me.conversations.post.mutate({ id, body: text(form, 'body') }, callOptions(form)));
  if (error) return failed(error, form, lang, back);
  revalidatePath(back);
  redirect(`${back}#latest`);
}
