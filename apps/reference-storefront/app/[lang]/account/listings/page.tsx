import { safe } from '@trpc/client';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ApiProblem } from '../../../_components/api-problem';
import { Shell } from '../../../_components/shell';
import { apiAs } from '../../../../lib/api';
import { problemText } from '../../../../lib/problems';
import { formatMoney } from '../../../../lib/money';
import { sellerStanding } from '../../../../lib/listing-state';
import { messages } from '../../../../lib/messages';
import { sessionToken } from '../../../../lib/session';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<{ cursor?: string }> };

// titled by the layout ("<page> · <shop>"): a title of the page's own would drop the shop's name
/** The seller's listings, every status, latest change first. */
export default async function MyListingsPage({ params, searchParams }: Props) {
  const { lang } = await params;
  const { cursor } = await searchParams;
  const token = await sessionToken();
  if (!token) redirect(`/${lang}/auth/sign-in?next=/${lang}/account/listings`);
  const t = messages(lang).listings;
  const [page, error] = await safe(apiAs(token).me.listings.list.query({ limit: 24, ...(cursor ? { cursor } : {}) }));
  if (error && (error as { data?: { httpStatus?: number } }).data?.httpStatus === 401) redirect(`/${lang}/auth/sign-in?next=/${lang}/account/listings`);
  return (
    <Shell lang={lang}>
      <h1>{t.title}</h1>
      <p>
        <Link href={`/${lang}/account/listings/new`}>{t.new}</Link>
      </p>
      {error ? (
        <ApiProblem detail={problemText(error, lang)} />
      ) : page.items.length === 0 ? (
        <p className="muted">{t.none}</p>
      ) : (
        <ul className="plain">
          {page.items.map((l) => {
            const main = l.images.find((i) => i.status === 'ready');
            const standing = sellerStanding(l, t);
            return (
              <li key={l.id} className="listing-row" data-testid="my-listing">
                {main?.urls ? <img src={main.urls.thumb} alt="" /> : <span className="listing-row-img" />}
                <Link href={`/${lang}/account/listings/${l.id}`}>{l.title || t.untitled}</Link>
                <span className={`status ${standing.key}`} data-testid="my-listing-status">
                  {standing.label}
                </span>
                {standing.detail && standing.key === 'published' && <span className="muted">{standing.detail}</span>}
                {l.price && <span className="muted">{formatMoney(l.price, lang)}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {page?.next_cursor && (
        <p>
          <Link href={`/${lang}/account/listings?cursor=${encodeURIComponent(page.next_cursor)}`}>{messages(lang).shop.more} →</Link>
        </p>
      )}
    </Shell>
  );
}
