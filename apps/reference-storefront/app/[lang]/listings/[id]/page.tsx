import { safe } from '@trpc/client';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Shell } from '../../../_components/shell';
import { displayName } from '../../../../lib/intl';
import { api, problemOf } from '../../../../lib/api';
import { messages } from '../../../../lib/messages';
import { notFoundTitle, shopTitle } from '../../../../lib/page-meta';
import { AskSeller } from './ask-seller';
import { BuyBox } from './buy-box';
import { Delivery } from './delivery';
import { Gallery, type GalleryPhoto } from './gallery';
import { loadProduct } from './load';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ lang: string; id: string }>; searchParams: Promise<{ currency?: string }> };

/**
 * The listing's title; for an unknown or malformed id the 404 page's own (Next keeps the metadata of
 * the page that called notFound(), and a second metadata source would leave two <title>s).
 */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { lang, id } = await params;
  const [listing, error] = await safe(api().listings.get.query({ id }));
  const status = error && problemOf(error)?.status;
  if (status === 404 || status === 422) return notFoundTitle(lang);
  return listing ? { ...(await shopTitle(lang, listing.title)), description: listing.description.slice(0, 160) } : {};
}

/**
 * A listing on sale: its photos, price (in the currency the shopper chose), the buy area that
 * checkout will fill, who sells it and where it is, how it reaches the buyer, and what it is.
 * One column on phones; photos beside the facts from 56rem up.
 */
export default async function ProductPage({ params, searchParams }: Props) {
  const { lang, id } = await params;
  const { listing: l, marketplace, currency, categoryPath, terms } = await loadProduct(lang, id, (await searchParams).currency);
  const t = messages(lang).product;
  const photos: GalleryPhoto[] = l.images.flatMap((i) => (i.status === 'ready' && i.urls ? [{ id: i.id, ...i.urls, width: i.width ?? 1600, height: i.height ?? 1200 }] : []));
  const place = [l.location.city, l.location.country ? displayName(lang, 'region', l.location.country) : undefined].filter(Boolean).join(', ');
  return (
    <Shell lang={lang}>
      <article className="product">
        <div className="product-media">
          <Gallery
            photos={photos}
            title={l.title}
            labels={{ photo: photos.map((_, i) => t.photo(i + 1, photos.length)), show: photos.map((_, i) => t.showPhoto(i + 1)), none: t.noPhoto }}
          />
        </div>
        <div className="product-facts">
          {categoryPath.length > 0 && (
            <nav aria-label={t.category} className="crumbs">
              {categoryPath.map((c, i) => (
                <span key={c.id}>
                  {i > 0 && ' › '}
                  <Link href={`/${lang}/search?category=${c.id}`}>{c.name}</Link>
                </span>
              ))}
            </nav>
          )}
          <h1>{l.title}</h1>
          <BuyBox listing={l} lang={lang} currency={currency ?? l.price?.currency} currencies={marketplace.currencies} />
          <dl className="product-meta">
            {l.seller?.display_name && (
              <div>
                <dt>{t.soldBy}</dt>
                <dd data-testid="seller">{l.seller.display_name}</dd>
              </div>
            )}
            {place && (
              <div>
                <dt>{t.location}</dt>
                <dd>{place}</dd>
              </div>
            )}
          </dl>
          <Delivery listing={l} shipping={marketplace.shipping} t={t} lang={lang} />
          <AskSeller listing={l} lang={lang} />
        </div>
        <div className="product-about">
          {l.description && (
            <section aria-labelledby="description-title">
              <h2 id="description-title">{t.description}</h2>
              <p className="product-description">{l.description}</p>
            </section>
          )}
          {(terms.length > 0 || categoryPath.length > 0) && (
            <section aria-labelledby="details-title">
              <h2 id="details-title">{t.details}</h2>
              <dl className="product-terms">
                {categoryPath.length > 0 && (
                  <div>
                    <dt>{t.category}</dt>
                    <dd>{categoryPath.map((c) => c.name).join(' › ')}</dd>
                  </div>
                )}
                {terms.map((term) => (
                  <div key={term.kind} data-term={term.kind}>
                    <dt>{term.kindName}</dt>
                    <dd>
                      {term.name}
                      {term.description && <p className="muted">{term.description}</p>}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          )}
        </div>
      </article>
    </Shell>
  );
}
