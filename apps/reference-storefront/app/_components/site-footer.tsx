import Link from 'next/link';
import { messages } from '../../lib/messages';
import { sellHref } from '../../lib/sell';
import { currentUser } from '../../lib/session';
import { NewsletterForm } from './newsletter-form';

/** The shop's name, the ways in (search, selling, the account), the newsletter sign-up and what this storefront is. */
export async function SiteFooter({ lang, name }: { lang: string; name: string }) {
  const t = messages(lang);
  const user = await currentUser().catch(() => null);
  return (
    <footer className="site-footer">
      <div className="wrap footer-row">
        <p className="footer-brand">{name}</p>
        <nav aria-label={t.chrome.footerNav} className="footer-nav">
          <Link href={`/${lang}`}>{t.chrome.home}</Link>
          <Link href={`/${lang}/search`}>{t.shop.search}</Link>
          <Link href={sellHref(lang, Boolean(user))}>{t.chrome.sell}</Link>
          <Link href={user ? `/${lang}/account` : `/${lang}/auth/sign-in`}>{user ? t.nav.account : t.nav.signIn}</Link>
        </nav>
        <NewsletterForm lang={lang} source="footer" />
        <p className="muted footer-note">{t.chrome.footerNote}</p>
      </div>
    </footer>
  );
}
