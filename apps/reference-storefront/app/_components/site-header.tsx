import Link from 'next/link';
import { Suspense } from 'react';
import { devMailboxAllowed } from '../../lib/api';
import { messages } from '../../lib/messages';
import { currentUser } from '../../lib/session';
import { LanguageSwitcher } from './language-switcher';

/** Brand, search, account links for the signed-in state, languages; the dev mailbox when it is on for this visitor. */
export async function SiteHeader({ lang, name, locales }: { lang: string; name: string; locales: string[] }) {
  const all = messages(lang);
  const t = all.nav;
  const user = await currentUser().catch(() => null);
  const mailbox = await devMailboxAllowed().catch(() => false);
  return (
    <header className="masthead">
      <div className="wrap masthead-row">
        <Link href={`/${lang}`} className="brand">
          {name}
        </Link>
        <form action={`/${lang}/search`} method="get" role="search" className="header-search">
          <input name="q" type="search" aria-label={all.shop.searchLabel} placeholder={all.shop.search} maxLength={200} />
          <button type="submit" className="icon-button">
            <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="20" height="20">
              <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
              <path d="m15.5 15.5 5 5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            </svg>
            <span className="visually-hidden">{all.chrome.searchSubmit}</span>
          </button>
        </form>
        <nav aria-label={all.chrome.accountNav} className="account-nav">
          {user ? (
            <>
              <Link href={`/${lang}/account/messages`}>{all.inbox.nav}</Link>
              <Link href={`/${lang}/account/favorites`}>{t.favorites}</Link>
              <Link href={`/${lang}/account/listings`}>{t.listings}</Link>
              <Link href={`/${lang}/account`}>
                <span className="account-name">{user.first_name || user.display_name || user.email}</span>
              </Link>
              <Link href={`/${lang}/auth/sign-out`}>{t.signOut}</Link>
            </>
          ) : (
            <>
              <Link href={`/${lang}/auth/sign-in`}>{t.signIn}</Link>
              <Link href={`/${lang}/auth/sign-up`}>{t.signUp}</Link>
            </>
          )}
          {mailbox && <Link href={`/${lang}/dev/mailbox`}>{t.mailbox}</Link>}
        </nav>
        <Suspense fallback={null}>
          <LanguageSwitcher locales={locales} current={lang} label={all.chrome.languageNav} />
        </Suspense>
      </div>
    </header>
  );
}
