'use client';

import Link from 'next/link';
import { useEffect } from 'react';
import { messages } from '../../lib/messages';
import { useShop } from '../_components/shop-context';

/**
 * Last resort for what the page did not catch itself (API problems are shown in place), inside the
 * shop's header and footer. In production Next hides the message from the browser; the digest
 * matches the server log line.
 */
export default function ShopError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const { lang, name } = useShop();
  const t = messages(lang).error;
  // A client component cannot export metadata; the tab still says what happened.
  useEffect(() => {
    document.title = `${t.title} · ${name}`;
  }, [t.title, name]);
  return (
    <main id="main" tabIndex={-1} className="wrap page status-page">
      <h1>{t.title}</h1>
      <div className="problem" role="alert">
        <p>{t.text}</p>
        {error.digest && (
          <p>
            {t.reference}: <code>{error.digest}</code>
          </p>
        )}
      </div>
      <p className="actions">
        <button type="button" onClick={reset}>
          {t.retry}
        </button>
        <Link href={`/${lang}`} className="button secondary">
          {t.home}
        </Link>
      </p>
    </main>
  );
}
