import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ActionForm } from '../../../../_components/action-form';
import { Shell } from '../../../../_components/shell';
import { isTestMode } from '../../../../../lib/api';
import { messages } from '../../../../../lib/messages';
import { titled } from '../../../../../lib/page-meta';
import { stripePublishableKey } from '../../../../../lib/payouts';
import { sessionToken } from '../../../../../lib/session';
import { sandboxOnboardingAction } from '../actions';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.payouts.sandboxTitle);

type Props = { params: Promise<{ lang: string }> };

/**
 * The sandbox's stand-in for the payment provider's onboarding (test mode without Stripe): the
 * seller chooses how setup ends and the test helper moves their sandbox account as the provider
 * would, through the same events.
 */
export default async function SandboxOnboardingPage({ params }: Props) {
  const { lang } = await params;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=/${lang}/account/payouts/sandbox`);
  if (stripePublishableKey() || !isTestMode()) redirect(`/${lang}/account/payouts`);
  const t = messages(lang).payouts;
  return (
    <Shell lang={lang}>
      <h1>{t.sandboxTitle}</h1>
      <p>{t.sandboxIntro}</p>
      <ActionForm
        name={t.sandboxTitle}
        action={sandboxOnboardingAction}
        hidden={{ lang }}
        submit={t.sandboxSubmit}
        fields={[
          {
            name: 'outcome',
            label: t.sandboxOutcome,
            type: 'select',
            defaultValue: 'ready',
            options: (['ready', 'pending', 'action_required'] as const).map((o) => ({ value: o, label: t.sandboxOutcomes[o] })),
          },
        ]}
      />
      <p>
        <Link href={`/${lang}/account/payouts`}>← {t.back}</Link>
      </p>
    </Shell>
  );
}
