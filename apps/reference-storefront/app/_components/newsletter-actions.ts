'use server';

import { safe } from '@trpc/client';
import { api } from '../../lib/api';
import { callOptions, keptValues, optional, problemToState, text, type FormState } from '../../lib/forms';
import { formLang } from '../../lib/form-lang';

/**
 * Signs the address up (`POST /v1/newsletter/subscribers`) with the page's language and where the
 * form sits. The API answers alike for new and known addresses, so the shopper sees one thank-you.
 */
export async function subscribeAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await formLang(form);
  const [, error] = await safe(
    api().newsletter.subscribers.create.mutate({ email: text(form, 'email').trim(), locale: lang, source: optional(form, 'source') }, callOptions(form)),
  );
  if (error) return problemToState(error, lang, keptValues(form));
  return { ok: true };
}
