import Link from 'next/link';
import type { ApiOutputs } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { messages } from '../../lib/messages';

export type ShopListing = ApiOutputs['listings']['get'];

/** One listing in a grid: main photo, title, price (in the chosen currency when asked). */
export function ListingCard({ listing, lang }: { listing: ShopListing; lang: string }) {
  const t = messages(lang).shop;
  const photo = listing.images.find((i) => i.status === 'ready');
  const price = listing.display_price ?? listing.price;
  // the API's on-sale rule (published, in stock, seller not blocked), from the fields it returns
  const onSale = listing.status === 'published' && listing.stock > 0 && !listing.seller_blocked;
  return (
    <li className="listing-card" data-listing={listing.id}>
      <Link href={`/${lang}/listings/${listing.id}`}>
        {photo?.urls ? <img src={photo.urls.medium} alt="" loading="lazy" /> : <span className="no-photo" />}
        <span className="listing-card-title">{listing.title}</span>
      </Link>
      {price && (
        <span className="listing-card-price">
          {listing.display_price && listing.display_price.currency !== listing.price?.currency ? `${t.approx} ` : ''}
          {formatMoney(price, lang)}
        </span>
      )}
      {!onSale && <span className="muted">{t.notOnSale}</span>}
    </li>
  );
}

export function ListingGrid({ items, lang }: { items: ShopListing[]; lang: string }) {
  return (
    <ul className="listing-grid">
      {items.map((l) => (
        <ListingCard key={l.id} listing={l} lang={lang} />
      ))}
    </ul>
  );
}
