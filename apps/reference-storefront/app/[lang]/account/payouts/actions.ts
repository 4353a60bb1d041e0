'use server';

import { safe } from '@trpc/client';
import { redirect } from 'next/navigation';
import { apiAs, isTestMode } from '../../../../lib/api';
import { callOptions, keptValues, problemToState, text, type FormState } from '../../../../lib/forms';
import { stripePublishableKey } from '../../../../lib/payouts';
import { sessionToken } from '../../../../lib/session';
import { formLang as langOf } from '../../../../lib/form-lang';

const businessTypeOf = (v: string) => (v === 'company' ? 'company' : 'individual');

async function signedIn(lang: string): Promise<string> {
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=/${lang}/account/payouts`);
  return token;
}

/**
 * "Set up payouts": starts (or continues) payout setup at the API, which makes the seller's account
 * at the payment provider the first time. Then to the provider's embedded onboarding (Stripe), or
 * the sandbox's own onboarding page.
 */
export async function startPayoutsAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const token = await signedIn(lang);
  const country = text(form, 'country');
  const businessType = businessTypeOf(text(form, 'business_type'));
  const [, error] = await safe(apiAs(token).me.payouts.startSession.mutate({ country, business_type: businessType }, callOptions(form)));
  if (error) return problemToState(error, lang, keptValues(form));
  redirect(stripePublishableKey() ? `/${lang}/account/payouts?onboarding=1&country=${encodeURIComponent(country)}` : `/${lang}/account/payouts/sandbox`);
}

/** The embedded component asks for a fresh client secret whenever it (re)loads. */
export async function payoutClientSecretAction(lang: string, country: string): Promise<string> {
  const token = await signedIn(lang);
  const res = await apiAs(token).me.payouts.startSession.mutate({ country: /^[A-Z]{2}$/.test(country) ? country : 'SE' });
  return res.client_secret;
}

const OUTCOMES = ['ready', 'pending', 'action_required'] as const;

/**
 * The sandbox's onboarding form: the test helper moves the seller's sandbox account as the
 * provider would, and its `account.updated` event reaches the API in the background; this waits a
 * few seconds for the status to show before going back to the payouts page.
 */
export async function sandboxOnboardingAction(_: FormState, form: FormData): Promise<FormState> {
  const lang = await langOf(form);
  const token = await signedIn(lang);
  if (!isTestMode()) redirect(`/${lang}/account/payouts`);
  const status = OUTCOMES.find((o) => o === text(form, 'outcome')) ?? 'ready';
  const due = status === 'action_required' ? ['external_account'] : [];
  const [, error] = await safe(apiAs(token).testHelpers.payouts.account.mutate({ status, due }, callOptions(form)));
  if (error) return problemToState(error, lang, keptValues(form));
  for (let i = 0; i < 40; i++) {
    const [setup] = await safe(apiAs(token).me.payouts.get.query({}));
    if (setup?.status === status) redirect(`/${lang}/account/payouts?updated=1`);
    await new Promise((r) => setTimeout(r, 250));
  }
  redirect(`/${lang}/account/payouts?updating=1`);
}
