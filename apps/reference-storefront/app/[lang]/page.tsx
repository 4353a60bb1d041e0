import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import { getMarketplace } from '../../lib/api';
import { displayName } from '../../lib/intl';
import { Categories } from '../_components/categories';
import { Shell } from '../_components/shell';
import { Locations } from '../_components/locations';
import { ListingGrid } from '../_components/listing-card';
import { ApiProblem } from '../_components/api-problem';
import { api } from '../../lib/api';
import { problemText } from '../../lib/problems';
import { messages } from '../../lib/messages';
import { shownCurrency } from '../../lib/currency';

/** The newest listings on sale (a content-managed front page comes with pages). */
async function Newest({ lang }: { lang: string }) {
  const currency = await shownCurrency((await getMarketplace()).currencies);
  const [page, error] = await safe(api().listings.search.query({ limit: 8, term: [], attr: [], ...(currency ? { currency } : {}) }));
  if (error) return <ApiProblem detail={problemText(error, lang)} />;
  if (page.items.length === 0) return <p className="muted">{messages(lang).shop.empty}</p>;
  return <ListingGrid items={page.items} lang={lang} />;
}

// Every answer depends on the marketplace behind the API key: nothing to prerender at build time.
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const [marketplace] = await safe(getMarketplace());
  return { title: marketplace?.name ?? 'Shop' };
}

export default async function ShopHome({ params }: Props) {
  const { lang } = await params;
  // The shell answers a failed call or an unknown language; the page only adds its sections.
  const [marketplace] = await safe(getMarketplace());
  if (!marketplace) return <Shell lang={lang}>{null}</Shell>;

  return (
    <Shell lang={lang}>
      <section>
        <h2>{messages(lang).shop.newest}</h2>
        <Newest lang={lang} />
      </section>
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
    </Shell>
  );
}
