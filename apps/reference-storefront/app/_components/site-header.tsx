import Link from 'next/link';
import { Suspense } from 'react';
import { isTestMode } from '../../lib/api';
import { messages } from '../../lib/messages';
import { currentUser } from '../../lib/session';
import { LanguageSwitcher } from './language-switcher';

/** Brand, account links for the signed-in state, languages; the dev mailbox in test mode. */
export async function SiteHeader({ lang, name, locales }: { lang: string; name: string; locales: string[] }) {
  const t = messages(lang).nav;
  const user = await currentUser().catch(() => null);
  return (
    <header className="masthead">
      <div className="wrap masthead-row">
        <Link href={`/${lang}`} className="brand">
          {name}
        </Link>
        <form action={`/${lang}/search`} method="get" role="search" className="header-search">
          <input name="q" type="search" aria-label={messages(lang).shop.searchLabel} placeholder={messages(lang).shop.search} maxLength={200} />
        </form>
        <nav aria-label="Account" className="account-nav">
          {user ? (
            <>
              <Link href={`/${lang}/account/favorites`}>{t.favorites}</Link>
              <Link href={`/${lang}/account/listings`}>{t.listings}</Link>
              <Link href={`/${lang}/account`}>{user.first_name || user.display_name || user.email}</Link>
              <Link href={`/${lang}/auth/sign-out`}>{t.signOut}</Link>
            </>
          ) : (
            <>
              <Link href={`/${lang}/auth/sign-in`}>{t.signIn}</Link>
              <Link href={`/${lang}/auth/sign-up`}>{t.signUp}</Link>
            </>
          )}
          {isTestMode() && <Link href={`/${lang}/dev/mailbox`}>{t.mailbox}</Link>}
        </nav>
        <Suspense fallback={null}>
          <LanguageSwitcher locales={locales} current={lang} />
        </Suspense>
      </div>
    </header>
  );
}
