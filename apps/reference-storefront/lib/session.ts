import 'server-only';
import { safe } from '@trpc/client';
import { cookies } from 'next/headers';
import { cache } from 'react';
import { apiAs, problemOf, type ApiOutputs } from './api';
import { cookieName, cookieOptions } from './cookies';

/**
 * The user's session token lives only in an httpOnly, SameSite=Lax cookie: the browser sends it to
 * the storefront, never to the API and never to scripts. The API decides whether it still works
 * (30 days after last use, 90 after sign-in); the cookie just lasts long enough to carry it.
 * Production builds: `__Host-hm_session`, always Secure (lib/cookies.ts).
 */
export const SESSION_COOKIE = cookieName('hm_session');
const NINETY_DAYS_S = 90 * 24 * 60 * 60;

export async function sessionToken(): Promise<string | undefined> {
  return (await cookies()).get(SESSION_COOKIE)?.value || undefined;
}

/** Only in server actions and route handlers (Next allows cookie writes there). */
export async function startSession(token: string) {
  (await cookies()).set(SESSION_COOKIE, token, cookieOptions(NINETY_DAYS_S));
}

export async function endSessionCookie() {
  (await cookies()).delete(SESSION_COOKIE);
}

export type User = ApiOutputs['me']['get'];

/** The signed-in user, or null (no cookie, or the API says the session ended). Once per request. */
export const currentUser = cache(async (): Promise<User | null> => {
  const token = await sessionToken();
  if (!token) return null;
  const [user, error] = await safe(apiAs(token).me.get.query({}));
  if (error) {
    const p = problemOf(error);
    if (p && (p.status === 401 || p.status === 403)) return null;
    throw error;
  }
  return user;
});
