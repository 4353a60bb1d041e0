import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import Link from 'next/link';
import { ApiProblem } from '../_components/api-problem';
import { Categories } from '../_components/categories';
import { ListingGrid } from '../_components/listing-card';
import { Locations } from '../_components/locations';
import { Shell } from '../_components/shell';
import { api, getMarketplace } from '../../lib/api';
import { problemText } from '../../lib/problems';
import { getCategories } from '../../lib/catalog';
import { messages } from '../../lib/messages';
import { shopTitle } from '../../lib/page-meta';
import { shownCurrency } from '../../lib/currency';
import { sellHref } from '../../lib/sell';
import { currentUser } from '../../lib/session';
import { loadPage } from '../../lib/pages';
import { Blocks, titleIsHeading } from '../_components/blocks/blocks';

// Every answer depends on the marketplace behind the API key: nothing to prerender at build time.
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang } = await params;
  const home = await loadPage('home', lang).catch(() => null);
  return { ...(await shopTitle(lang)), ...(home?.description ? { description: home.description } : {}) };
}

/** The newest listings on sale (the front page without a published `home` page). */
async function Newest({ lang }: { lang: string }) {
  const currency = await shownCurrency((await getMarketplace()).currencies);
  const [page, error] = await safe(api().listings.search.query({ limit: 8, term: [], attr: [], ...(currency ? { currency } : {}) }));
  if (error) return <ApiProblem detail={problemText(error, lang)} />;
  if (page.items.length === 0) return <p className="muted">{messages(lang).shop.empty}</p>;
  return <ListingGrid items={page.items} lang={lang} />;
}

async function CategorySection({ lang }: { lang: string }) {
  const [categories, error] = await safe(getCategories(lang));
  if (error) return <ApiProblem detail={problemText(error, lang)} />;
  return <Categories lang={lang} categories={categories.items} />;
}

/**
 * The front page: the marketplace's published `home` page, its blocks in order. Without one (or
 * when it cannot be read) the shop's own: who the shop is, a way to browse and a way to sell, what
 * just came in, categories, where to visit.
 */
export default async function ShopHome({ params }: Props) {
  const { lang } = await params;
  const home = await loadPage('home', lang).catch(() => null);
  if (home && home.blocks.length > 0) {
    return (
      <Shell lang={lang}>
        {titleIsHeading(home.blocks) && <h1>{home.title}</h1>}
        <Blocks blocks={home.blocks} lang={lang} slug="home" />
      </Shell>
    );
  }
  const t = messages(lang);
  // The shell answers a failed call or an unknown language; the page only adds its sections.
  const [marketplace] = await safe(getMarketplace());
  const user = await currentUser().catch(() => null);
  return (
    <Shell lang={lang}>
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">{marketplace?.name}</h1>
        <p className="lead">{t.home.tagline}</p>
        <p className="actions">
          <Link href={`/${lang}/search`} className="button">
            {t.home.browse}
          </Link>
          <Link href={sellHref(lang, Boolean(user))} className="button secondary">
            {t.home.sell}
          </Link>
        </p>
      </section>
      <section aria-labelledby="newest">
        <h2 id="newest">{t.shop.newest}</h2>
        <Newest lang={lang} />
      </section>
      <section aria-labelledby="categories">
        <h2 id="categories">{t.home.categories}</h2>
        <CategorySection lang={lang} />
      </section>
      <section aria-labelledby="visit">
        <h2 id="visit">{t.home.visit}</h2>
        <Locations lang={lang} />
      </section>
    </Shell>
  );
}
