import Link from 'next/link';
import type { ApiOutputs } from '../../lib/api';
import { formatMoney } from '../../lib/money';
import { messages } from '../../lib/messages';
import { highlightParts } from '../../lib/browse';

export type ShopListing = ApiOutputs['listings']['get'];

/** One listing in a grid: main photo, title, price (in the chosen currency when asked). */
/** `highlight`: the search's words, marked in the title where they match (`<mark>`). */
export function ListingCard({ listing, lang, highlight }: { listing: ShopListing; lang: string; highlight?: string }) {
  const t = messages(lang).shop;
  const photo = listing.images.find((i) => i.status === 'ready');
  const price = listing.display_price ?? listing.price;
  // the API's on-sale rule (published, in stock, seller not blocked), from the fields it returns
  const onSale = listing.status === 'published' && listing.stock > 0 && !listing.seller_blocked;
  return (
    <li className="listing-card" data-listing={listing.id}>
      <Link href={`/${lang}/listings/${listing.id}`}>
        {photo?.urls ? <img src={photo.urls.medium} alt="" loading="lazy" /> : <span className="no-photo" />}
        <span className="listing-card-title">
          {highlight ? highlightParts(listing.title ?? '', highlight).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text)) : listing.title}
        </span>
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

export function ListingGrid({ items, lang, highlight }: { items: ShopListing[]; lang: string; highlight?: string }) {
  return (
    <ul className="listing-grid">
      {items.map((l) => (
        <ListingCard key={l.id} listing={l} lang={lang} highlight={highlight} />
      ))}
    </ul>
  );
}
