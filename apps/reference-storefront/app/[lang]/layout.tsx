import { safe } from '@trpc/client';
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { getMarketplace } from '../../lib/api';
import { messages } from '../../lib/messages';
import { pageLanguage } from '../../lib/page-meta';
import { ShopProvider } from '../_components/shop-context';
import { SiteFooter } from '../_components/site-footer';
import { SiteHeader } from '../_components/site-header';
import '../globals.css';
import '../frame.css';
import '../blocks.css';

type Props = { children: ReactNode; params: Promise<{ lang: string }> };

/** Pages set their own title; the shop's name follows it (and stands alone on the home page). */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang } = await params;
  const [marketplace] = await safe(getMarketplace());
  const name = marketplace?.name ?? messages(lang).chrome.shop;
  return { title: { template: `%s · ${name}`, default: name } };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#0a5c4a' };

/**
 * The root layout sits under [lang] so that <html lang> is the page's language. It draws the frame
 * every page shares — skip link, header, footer — so the 404 and error pages are branded too; the
 * page's own <main> comes from Shell. A language the marketplace lacks is shown in its first one
 * (the page itself then answers 404).
 */
export default async function ShopLayout({ children, params }: Props) {
  const { lang: asked } = await params;
  const [marketplace] = await safe(getMarketplace());
  const lang = pageLanguage(asked, marketplace?.locales);
  const name = marketplace?.name ?? messages(lang).chrome.shop;
  return (
    <html lang={lang}>
      <body>
        <a href="#main" className="skip-link">
          {messages(lang).chrome.skip}
        </a>
        <ShopProvider value={{ lang, name }}>
          <SiteHeader lang={lang} name={name} locales={marketplace?.locales ?? [lang]} />
          {children}
          <SiteFooter lang={lang} name={name} />
        </ShopProvider>
      </body>
    </html>
  );
}
