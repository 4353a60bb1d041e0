'use server';

import { safe } from '@trpc/client';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { apiAs, problemOf } from '../../lib/api';
import { safeNext, text } from '../../lib/forms';
import { sessionToken } from '../../lib/session';
import { formLang } from '../../lib/form-lang';

/** Save or forget a listing for the signed-in shopper (sign in first otherwise). */
export async function toggleFavoriteAction(form: FormData): Promise<void> {
  const lang = await formLang(form);
  const id = text(form, 'id');
  const back = safeNext(text(form, 'back'), lang, `/${lang}/listings/${encodeURIComponent(id)}`);
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(back)}`);
  const client = apiAs(token);
  const [, error] = await safe(text(form, 'saved') === 'true' ? client.me.favorites.delete.mutate({ id }) : client.me.favorites.put.mutate({ id }));
  if (error && problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(back)}`);
  revalidatePath(back);
  redirect(back);
}
