'use server';

import { safe } from '@trpc/client';
import { redirect } from 'next/navigation';
import { api, apiAs, problemOf } from '../../../lib/api';
import { countOf } from '../../../lib/intl';
import { retryAfterOf } from '../../../lib/problems';
import { callOptions, keptValues, optional, problemToState, safeNext, text, type FormState } from '../../../lib/forms';
import { messages } from '../../../lib/messages';
import { forgetCheckoutDraft } from '../../../lib/orders';
import { endSessionCookie, sessionToken, startSession } from '../../../lib/session';
import { formLang as langOf } from '../../../lib/form-lang';


/**
 * A 429 at sign-in or when asking for an email, in plain words: how long to wait (from Retry-After,
 * in whole minutes) and, for a paused password sign-in, the other ways in (an emailed link, a reset).
 */
function rateLimitedState(error: unknown, lang: string, form: FormData, kind: 'password' | 'email'): FormState | undefined {
  if (problemOf(error)?.code !== 'rate_limited') return undefined;
  const t = messages(lang).signIn;
  const wait = countOf(lang, Math.max(1, Math.ceil((retryAfterOf(error) ?? 60) / 60)), t.waitMinutes);
  return { message: (kind === 'password' ? t.locked : t.linksPaused).replace('{wait}', wait), code: 'rate_limited', values: keptValues(form) };
}

/** Link problems in the shopper's words, with the code kept so the page can offer the next step. */
function linkState(error: unknown, lang: string, kind: 'signIn' | 'reset', form: FormData): FormState {
  const state = problemToState(error, lang, keptValues(form));
  const t = messages(lang);
  const words = {
    signIn: { link_used: t.signIn.linkUsed, link_expired: t.signIn.linkExpired, link_invalid: t.signIn.linkInvalid },
    reset: { link_used: t.reset.used, link_expired: t.reset.expired, link_invalid: t.reset.invalid },
  }[kind];
  const code = state.code as keyof typeof words | undefined;
  if (code && code in words) return { ...state, message: words[code], errors: {} };
  return state;
}

export async function signUpAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const [res, error] = await safe(
    api().users.signUp.mutate(
      {
        email: text(form, 'email').trim(),
        password: optional(form, 'password') === undefined ? undefined : text(form, 'password'),
        first_name: optional(form, 'first_name'),
        last_name: optional(form, 'last_name'),
        locale: lang,
      },
      callOptions(form),
    ),
  );
  if (error) return problemToState(error, await langOf(form), keptValues(form));
  await startSession(res.session.token);
  redirect(`/${lang}/account?welcome=1`);
}

export async function signInAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  // an empty field is said once, in words, next to it (not the API's length rule)
  const t = messages(lang).signIn;
  const empty = { ...(text(form, 'email').trim() ? {} : { email: t.enterEmail }), ...(text(form, 'password') ? {} : { password: t.enterPassword }) };
  if (Object.keys(empty).length) return { errors: empty, values: keptValues(form) };
  const [res, error] = await safe(api().sessions.create.mutate({ email: text(form, 'email').trim(), password: text(form, 'password') }, callOptions(form)));
  if (error) return rateLimitedState(error, lang, form, 'password') ?? problemToState(error, lang, keptValues(form));
  await startSession(res.session.token);
  redirect(safeNext(text(form, 'next'), lang));
}

export async function emailLinkAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const [, error] = await safe(api().sessions.requestEmailLink.mutate({ email: text(form, 'email').trim() }, callOptions(form)));
  if (error) return rateLimitedState(error, lang, form, 'email') ?? problemToState(error, lang, keptValues(form));
  return { ok: true, values: keptValues(form) };
}

export async function linkSignInAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const [res, error] = await safe(api().sessions.fromLink.mutate({ token: text(form, 'token') }, callOptions(form)));
  if (error) return linkState(error, lang, 'signIn', form);
  await startSession(res.session.token);
  redirect(`/${lang}/account?signed_in=1`);
}

export async function signOutAction(form: FormData): Promise<void> {
  const lang = await langOf(form);
  const token = await sessionToken();
  // An already-ended session is fine: the shopper wanted out.
  if (token) await safe(apiAs(token).sessions.endCurrent.mutate({}));
  await endSessionCookie();
  await forgetCheckoutDraft({ address: true });
  redirect(`/${lang}`);
}

export async function requestResetAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const [, error] = await safe(api().passwordResets.request.mutate({ email: text(form, 'email').trim() }, callOptions(form)));
  if (error) return rateLimitedState(error, lang, form, 'email') ?? problemToState(error, lang, keptValues(form));
  return { ok: true, values: keptValues(form) };
}

export async function confirmResetAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const [, error] = await safe(api().passwordResets.confirm.mutate({ token: text(form, 'token'), password: text(form, 'password') }, callOptions(form)));
  if (error) return linkState(error, lang, 'reset', form);
  // The API signed the user out everywhere; this device too.
  await endSessionCookie();
  return { ok: true };
}

/** For /me actions: the session, or off to sign in when it has ended. */
async function asUser(lang: string) {
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=/${lang}/account`);
  return apiAs(token);
}

function signedOutOn(error: unknown, lang: string) {
  const p = problemOf(error);
  if (p?.status === 401) redirect(`/${lang}/auth/sign-in?next=/${lang}/account`);
}

export async function updateProfileAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const client = await asUser(lang);
  const [user, error] = await safe(
    client.me.update.mutate(
      {
        first_name: text(form, 'first_name'),
        last_name: text(form, 'last_name'),
        display_name: text(form, 'display_name'),
        bio: text(form, 'bio'),
        phone: text(form, 'phone'),
        locale: text(form, 'locale'),
      },
      callOptions(form),
    ),
  );
  if (error) {
    signedOutOn(error, lang);
    return problemToState(error, await langOf(form), keptValues(form));
  }
  return {
    ok: true,
    values: { first_name: user.first_name, last_name: user.last_name, display_name: user.display_name, bio: user.bio, phone: user.phone, locale: user.locale },
  };
}

export async function resendConfirmationAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const client = await asUser(lang);
  const [, error] = await safe(client.me.sendVerificationEmail.mutate({}, callOptions(form)));
  if (error) {
    signedOutOn(error, lang);
    return problemToState(error, lang);
  }
  return { ok: true };
}
