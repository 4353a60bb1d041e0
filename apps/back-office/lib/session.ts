import 'server-only';
import { safe } from '@trpc/client';
import { cookies } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { consoleApi, type Console, type ConsoleOutputs } from './api';
import { problemOf } from './problems';

/**
 * The operator's session token lives only in an httpOnly, SameSite=Strict cookie of this app: the
 * browser sends it to the back office, never to scripts; the app calls the API with it as a Bearer
 * token. A production build names it `__Host-hm_back_office` and always marks it Secure (browsers
 * count http://localhost as secure too); `next dev` keeps a plain name, for http from another machine.
 * The API decides whether the session still works (12 hours after last use, 7 days at most).
 */
const SECURE = process.env.NODE_ENV === 'production';
export const SESSION_COOKIE = SECURE ? '__Host-hm_back_office' : 'hm_back_office';
const SEVEN_DAYS_S = 7 * 24 * 60 * 60;

export async function sessionToken(): Promise<string | undefined> {
  return (await cookies()).get(SESSION_COOKIE)?.value || undefined;
}

/** Only in server actions and route handlers (Next allows cookie writes there). */
export async function startSession(token: string) {
  (await cookies()).set(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: SECURE, path: '/', maxAge: SEVEN_DAYS_S });
}

export async function endSessionCookie() {
  (await cookies()).delete(SESSION_COOKIE);
}

export type Operator = ConsoleOutputs['me']['get'];

/** The signed-in operator, or null (no cookie, or the API says the session ended). Once per request. */
export const currentOperator = cache(async (): Promise<Operator | null> => {
  const token = await sessionToken();
  if (!token) return null;
  const [me, error] = await safe(consoleApi(token).me.get.query({}));
  if (error) {
    const p = problemOf(error);
    if (p && p.status === 401) return null;
    throw error;
  }
  return me;
});

/** The page's operator and a client acting for them; signed out → the sign-in page. */
export async function requireOperator(): Promise<{ operator: Operator; api: Console; canWrite: boolean }> {
  const operator = await currentOperator();
  const token = await sessionToken();
  if (!operator || !token) redirect('/sign-in');
  return { operator, api: consoleApi(token), canWrite: operator.role === 'admin' };
}

/**
 * A page's read: the API's answer, or the page the problem calls for — signed out (401) → sign-in,
 * an admin who must turn on two-factor codes first (live mode) → the enrolment page, not this
 * marketplace's (404) → not found. Anything else is the error page.
 */
export async function read<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const p = problemOf(error);
    if (p?.status === 401) redirect('/sign-in');
    if (p?.code === 'totp_enrolment_required') redirect('/account/two-factor');
    if (p?.status === 404) notFound();
    throw error;
  }
}
