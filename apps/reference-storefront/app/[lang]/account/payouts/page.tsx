import { safe } from '@trpc/client';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ActionForm } from '../../../_components/action-form';
import { ApiProblem } from '../../../_components/api-problem';
import { Shell } from '../../../_components/shell';
import { apiAs, problemOf } from '../../../../lib/api';
import { countryOptions } from '../../../../lib/countries';
import { messages } from '../../../../lib/messages';
import { titled } from '../../../../lib/page-meta';
import { payoutRequirements } from '../../../../lib/payout-requirements';
import { stripePublishableKey } from '../../../../lib/payouts';
import { problemText } from '../../../../lib/problems';
import { sessionToken } from '../../../../lib/session';
import { startPayoutsAction } from './actions';
import { StripeOnboarding } from './stripe-onboarding';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.payouts.title);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ onboarding?: string; country?: string; updated?: string; updating?: string }> };

/**
 * The seller's payout setup (GET /v1/me/payouts): the status and what is still due, and the way to
 * finish it — Stripe's embedded onboarding when Stripe is configured, else the sandbox's own page.
 */
export default async function PayoutsPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { onboarding, country, updated, updating } = await searchParams;
  const back = `/${lang}/account/payouts`;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${back}`);
  const t = messages(lang).payouts;
  const [setup, error] = await safe(apiAs(token).me.payouts.get.query({}));
  if (error && problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
  const stripeKey = stripePublishableKey();
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {updated && (
        <p className="notice" role="status">
          {t.updated}
        </p>
      )}
      {updating && (
        <p className="notice" role="status">
          {t.stillUpdating}
        </p>
      )}
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : (
        <>
          <section aria-labelledby="payout-status">
            <h2 id="payout-status">{t.status}</h2>
            <p>
              <span className={setup.status === 'ready' ? 'badge ok' : 'badge'} data-testid="payout-status">
                {t.statuses[setup.status]}
              </span>
            </p>
            <p className="muted">{t.statusHelp[setup.status]}</p>
            {setup.due.length > 0 && (
              <>
                <h3>{t.due}</h3>
                <ul data-testid="payout-due">
                  {payoutRequirements(setup.due, t.requirements).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </>
            )}
          </section>
          {setup.status !== 'ready' && (
            <section aria-labelledby="payout-setup">
              <h2 id="payout-setup">{t.onboardingTitle}</h2>
              {stripeKey && onboarding ? (
                <StripeOnboarding publishableKey={stripeKey} lang={lang} country={country ?? 'SE'} loading={t.loading} />
              ) : (
                <ActionForm
                  name={setup.status === 'none' ? t.start : t.continue}
                  action={startPayoutsAction}
                  hidden={{ lang }}
                  submit={setup.status === 'none' ? t.start : t.continue}
                  fields={[
                    { name: 'country', label: t.country, type: 'select', options: countryOptions(lang, ['SE', 'NO', 'DK', 'FI', 'DE']), defaultValue: 'SE' },
                    {
                      name: 'business_type',
                      label: t.businessType,
                      type: 'select',
                      options: [
                        { value: 'individual', label: t.businessTypes.individual },
                        { value: 'company', label: t.businessTypes.company },
                      ],
                    },
                  ]}
                />
              )}
            </section>
          )}
        </>
      )}
      <p>
        <Link href={`/${lang}/account`}>← {messages(lang).account.title}</Link>
      </p>
    </Shell>
  );
}
