'use server';

import { safe } from '@trpc/client';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { apiAs, problemOf } from '../../lib/api';
import { text } from '../../lib/forms';
import { sessionToken } from '../../lib/session';

/** Save or forget a listing for the signed-in shopper (sign in first otherwise). */
export async function toggleFavoriteAction(form: FormData): Promise<void> {
  const lang = text(form, 'lang') || 'en';
  const id = text(form, 'id');
  const back = text(form, 'back') || `/${lang}/listings/${id}`;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(back)}`);
  const client = apiAs(token);
  const [, error] = await safe(text(form, 'saved') === 'true' ? client.me.favorites.delete.mutate({ id }) : client.me.favorites.put.mutate({ id }));
  if (error && problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${encodeURIComponent(back)}`);
  revalidatePath(back);
  redirect(back);
}
