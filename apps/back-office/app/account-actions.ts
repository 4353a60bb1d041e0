'use server';

import { safe } from '@trpc/client';
import { redirect } from 'next/navigation';
import { consoleApi } from '../lib/api';
import { change, text, valuesOf } from '../lib/actions';
import { formProblem, problemOf, type FormState } from '../lib/problems';
import { endSessionCookie, sessionToken, startSession } from '../lib/session';

const SIGN_IN_FIELDS = ['marketplace', 'email', 'password', 'code'];

/** Where a problem of sign-in is shown: a wrong or missing code at the code, wrong credentials at the password. */
const SIGN_IN_PLACES: Record<string, string> = { totp_required: 'code', totp_invalid: 'code', invalid_credentials: 'password' };

/**
 * Sign-in: marketplace, email and password; when the operator has two-factor codes on, the API
 * answers `totp_required` and the form asks for the code (keeping what was typed), then signs in
 * with all four. The session token goes into this app's httpOnly cookie.
 */
export async function signIn(_: FormState, form: FormData): Promise<FormState> {
  const v = valuesOf(form, SIGN_IN_FIELDS);
  const [out, error] = await safe(
    consoleApi().sessions.create.mutate({ marketplace: v.marketplace!, email: v.email!, password: String(form.get('password') ?? ''), ...(v.code ? { code: v.code } : {}) }),
  );
  if (error) {
    const p = problemOf(error);
    const state = formProblem(p, SIGN_IN_FIELDS);
    const place = p && SIGN_IN_PLACES[p.code];
    if (place && p) state.errors = { ...state.errors, [place]: p.detail };
    const codeStep = p?.code === 'totp_required' || p?.code === 'totp_invalid';
    // a wrong code is not shown again (the app shows a new one); the password only rides along to the code step
    return { ...state, message: place ? undefined : state.message, values: { ...v, code: '', password: codeStep ? String(form.get('password') ?? '') : '' }, ...(codeStep ? { result: { step: 'code' } } : {}) };
  }
  await startSession(out.token);
  redirect('/');
}

export async function signOut(): Promise<void> {
  const token = await sessionToken();
  if (token) await safe(consoleApi(token).sessions.endCurrent.mutate({}));
  await endSessionCookie();
  redirect('/sign-in');
}

/** The invitation link's page: the password is set, the operator signed in and sent to turn on two-factor codes. */
export async function acceptInvitation(_: FormState, form: FormData): Promise<FormState> {
  const password = String(form.get('password') ?? '');
  if (password !== String(form.get('password_again') ?? '')) return { errors: { password_again: 'The two passwords differ.' } };
  const [out, error] = await safe(consoleApi().invitations.accept.mutate({ token: text(form, 'token'), password }));
  if (error) {
    const p = problemOf(error);
    const state = formProblem(p, ['password', 'token']);
    // a used, expired or unknown link is about the link, not the password
    if (p && p.code.startsWith('link_')) return { message: p.detail };
    return state;
  }
  await startSession(out.token);
  redirect('/account/two-factor');
}

/** Starts enrolment: the secret and its otpauth URL, shown until the code from the app confirms it. */
export async function startTotp(_: FormState, form: FormData): Promise<FormState> {
  return change(form, [], async (api) => {
    const out = await api.me.startTotp.mutate({});
    return { secret: out.secret, otpauth_url: out.otpauth_url };
  });
}

export async function confirmTotp(_: FormState, form: FormData): Promise<FormState> {
  return change(form, ['code'], (api) => api.me.confirmTotp.mutate({ code: text(form, 'code') }).then(() => undefined), { revalidate: ['/account/two-factor'] });
}
