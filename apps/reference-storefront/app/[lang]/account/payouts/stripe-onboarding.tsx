'use client';

import { loadConnectAndInitialize, type StripeConnectInstance } from '@stripe/connect-js';
import { ConnectAccountOnboarding, ConnectComponentsProvider } from '@stripe/react-connect-js';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { payoutClientSecretAction } from './actions';

/**
 * Stripe's embedded onboarding component. As the spec says, it collects only what is currently
 * due and leaves future requirements out. Made in the browser only (the library needs `window`).
 */
export function StripeOnboarding({ publishableKey, lang, country, loading }: { publishableKey: string; lang: string; country: string; loading: string }) {
  const router = useRouter();
  const [connect, setConnect] = useState<StripeConnectInstance>();
  useEffect(() => {
    setConnect(loadConnectAndInitialize({ publishableKey, fetchClientSecret: () => payoutClientSecretAction(lang, country), locale: lang }));
  }, [publishableKey, lang, country]);
  if (!connect) return <p className="muted">{loading}</p>;
  return (
    <ConnectComponentsProvider connectInstance={connect}>
      <ConnectAccountOnboarding collectionOptions={{ fields: 'currently_due', futureRequirements: 'omit' }} onExit={() => router.push(`/${lang}/account/payouts?updating=1`)} />
    </ConnectComponentsProvider>
  );
}
