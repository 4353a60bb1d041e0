import type { Listing } from '@hm/db/entities';
import { loadRelations, toListingBody, type MapOptions } from '../listings/index.js';
import type { RateBook } from '../rates/index.js';

export interface ShopMapOptions extends MapOptions {
  rates: RateBook;
  /** adds display_price */
  currency?: string;
  /** present when a session was sent: the ids the user saved */
  favorites?: Set<string>;
}

/**
 * A listing as the shop shows it: the seller's own notes to and from the team (offer, review) are
 * not public; `display_price`, `favorited` and `seller_blocked` are added.
 */
export function toShopListing(l: Listing, rel: Awaited<ReturnType<typeof loadRelations>>, o: ShopMapOptions) {
  const { offer: _o, offer_note: _n, offer_schedule: _s, review_note: _r, wants_storage: _w, ...body } = toListingBody(l, rel, o);
  const display = o.currency && l.priceAmount !== null && l.priceAmount !== undefined && l.priceCurrency ? o.rates.convert(l.priceAmount, l.priceCurrency, o.currency) : undefined;
  return {
    ...body,
    ...(display !== undefined ? { display_price: { amount: display, currency: o.currency! } } : {}),
    ...(o.favorites ? { favorited: o.favorites.has(l.id) } : {}),
    ...(l.sellerBlocked ? { seller_blocked: true } : {}),
  };
}

