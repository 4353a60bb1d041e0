import { safe } from '@trpc/client';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getMarketplace } from '../../lib/api';
import { problemText } from '../../lib/problems';
import { messages } from '../../lib/messages';
import { ApiProblem } from './api-problem';

/**
 * A page's <main> (the layout draws the header and footer around it): a 404 for a language the
 * marketplace does not have, and the API's problem in place of the page when it cannot be reached.
 * `id="main"` is the skip link's target; tabIndex lets it take the focus the link moves there.
 */
export async function Shell({ lang, children }: { lang: string; children: ReactNode }) {
  const [marketplace, error] = await safe(getMarketplace());
  if (!error && !marketplace.locales.includes(lang)) notFound();
  return (
    <main id="main" tabIndex={-1} className="wrap page">
      {error ? (
        <>
          <h1>{messages(lang).chrome.unavailable}</h1>
          <ApiProblem detail={problemText(error, lang)} />
        </>
      ) : (
        children
      )}
    </main>
  );
}
