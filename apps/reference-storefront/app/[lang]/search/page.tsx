import type { Metadata } from 'next';
import { ListingBrowser } from '../../_components/listing-browser';
import { Shell } from '../../_components/shell';
import { getMarketplace } from '../../../lib/api';
import { first, type QueryParams } from '../../../lib/browse';
import { getCategories } from '../../../lib/catalog';
import { messages } from '../../../lib/messages';
import { shopTitle } from '../../../lib/page-meta';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<QueryParams> };

function heading(lang: string, q: string | undefined): string {
  const t = messages(lang);
  return q ? t.browse.searchTitle(q) : t.shop.search;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { lang } = await params;
  return shopTitle(lang, heading(lang, first(await searchParams, 'q')));
}

/** Search the whole shop: words, category, the marketplace's term filters, price and sort. */
export default async function SearchPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const sp = await searchParams;
  return (
    <Shell lang={lang}>
      <h1>{heading(lang, first(sp, 'q'))}</h1>
      <SearchBody lang={lang} params={sp} />
    </Shell>
  );
}

/** Apart from the page so that an unknown language answers 404 (from Shell) before anything asks the API in it. */
async function SearchBody({ lang, params }: { lang: string; params: QueryParams }) {
  const [marketplace, { items: categories }] = await Promise.all([getMarketplace(), getCategories(lang)]);
  return <ListingBrowser lang={lang} path={`/${lang}/search`} params={params} marketplace={marketplace} categories={categories} />;
}
