import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getMarketplace, problemDetail } from '../../lib/api';
import { displayName } from '../../lib/intl';
import { ApiProblem } from '../_components/api-problem';
import { Categories } from '../_components/categories';
import { LanguageSwitcher } from '../_components/language-switcher';
import { Locations } from '../_components/locations';

// Every answer depends on the marketplace behind the API key: nothing to prerender at build time.
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const [marketplace] = await safe(getMarketplace());
  return { title: marketplace?.name ?? 'Shop' };
}

export default async function ShopHome({ params }: Props) {
  const { lang } = await params;
  const [marketplace, error] = await safe(getMarketplace());
  if (error) {
    return (
      <main className="wrap">
        <ApiProblem detail={problemDetail(error)} />
      </main>
    );
  }
  if (!marketplace.locales.includes(lang)) notFound();

  return (
    <>
      <header className="masthead">
        <div className="wrap masthead-row">
          <Link href={`/${lang}`} className="brand">
            {marketplace.name}
          </Link>
          <LanguageSwitcher locales={marketplace.locales} current={lang} />
        </div>
      </header>
      <main className="wrap">
        <section>
          <h2>Currencies</h2>
          {marketplace.currencies.length > 0 ? (
            <ul className="chips">
              {marketplace.currencies.map((code) => (
                <li key={code} title={displayName(lang, 'currency', code)}>
                  {code}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No currencies chosen yet.</p>
          )}
        </section>
        <section>
          <h2>Categories</h2>
          <Categories lang={lang} />
        </section>
        <section>
          <h2>Visit us</h2>
          <Locations lang={lang} />
        </section>
      </main>
    </>
  );
}
