import { safe } from '@trpc/client';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getMarketplace } from '../../lib/api';
import { problemText } from '../../lib/problems';
import { ApiProblem } from './api-problem';
import { SiteHeader } from './site-header';

/** Every page under a language: a 404 for a language the marketplace does not have, then header + main. */
export async function Shell({ lang, children }: { lang: string; children: ReactNode }) {
  const [marketplace, error] = await safe(getMarketplace());
  if (error) {
    return (
      <main className="wrap">
        <ApiProblem detail={problemText(error, lang)} />
      </main>
    );
  }
  if (!marketplace.locales.includes(lang)) notFound();
  return (
    <>
      <SiteHeader lang={lang} name={marketplace.name} locales={marketplace.locales} />
      <main className="wrap">{children}</main>
    </>
  );
}
