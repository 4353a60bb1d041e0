import { safe } from '@trpc/client';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ApiProblem } from '../../../_components/api-problem';
import { ListingGrid } from '../../../_components/listing-card';
import { Shell } from '../../../_components/shell';
import { apiAs, getMarketplace, problemOf } from '../../../../lib/api';
import { problemText } from '../../../../lib/problems';
import { messages } from '../../../../lib/messages';
import { sessionToken } from '../../../../lib/session';
import { titled } from '../../../../lib/page-meta';
import { shownCurrency } from '../../../../lib/currency';

export const dynamic = 'force-dynamic';
export const generateMetadata = titled((t) => t.shop.favorites);

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ cursor?: string }> };

/** The shopper's saved listings, latest first, including ones no longer on sale. */
export default async function FavoritesPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { cursor } = await searchParams;
  const back = `/${lang}/account/favorites`;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=${back}`);
  const t = messages(lang).shop;
  const currency = await shownCurrency((await getMarketplace()).currencies);
  const [page, error] = await safe(apiAs(token).me.favorites.list.query({ limit: 24, ...(cursor ? { cursor } : {}), ...(currency ? { currency } : {}) }));
  if (error && problemOf(error)?.status === 401) redirect(`/${lang}/auth/sign-in?next=${back}`);
  return (
    <Shell lang={lang}>
      <h1>{t.favorites}</h1>
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : page.items.length === 0 ? (
        <p className="muted">{t.noFavorites}</p>
      ) : (
        <ListingGrid items={page.items} lang={lang} />
      )}
      {page?.next_cursor && (
        <p>
          <Link href={`${back}?cursor=${encodeURIComponent(page.next_cursor)}`}>{t.more} →</Link>
        </p>
      )}
    </Shell>
  );
}
