import type { Listing, OrderLineItem, Site } from '@hm/db/entities';
import type { ShippingTableBody } from '../../marketplace/index.js';

/** DeliveryBody's methods (spec): how the item reaches the buyer. */
export const DELIVERY_METHODS = ['shipping', 'pickup', 'buyer_arranged', 'collect'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export interface AddressInput {
  country: string;
  postal_code: string;
  name?: string;
  line1?: string;
  line2?: string;
  city?: string;
  phone?: string;
}

/**
 * The methods a listing offers now. A stored listing is with the marketplace: it ships it, or the
 * buyer collects it where it is stored (when that site lets buyers pick up); the seller's own
 * pickup and buyer-arranged transport are for listings the seller still has.
 */
export function offeredMethods(l: Listing, site: Site | undefined): DeliveryMethod[] {
  const d = l.delivery;
  if (l.custody === 'stored') return [...(d.shipping ? (['shipping'] as const) : []), ...(site?.buyerPickup ? (['collect'] as const) : [])];
  return [...(d.shipping ? (['shipping'] as const) : []), ...(d.pickup ? (['pickup'] as const) : []), ...(d.buyer_arranged ? (['buyer_arranged'] as const) : [])];
}

/** With shipping sizes the marketplace prices delivery from its table; without, listings price their own (as publishing checks). */
export const tablePrices = (t: ShippingTableBody) => t.sizes.length > 0;

const fold = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/**
 * The buyer's zone: among zones of the address's country, the one with the longest postal prefix
 * the postal code starts with, else one without prefixes (a whole country). Undefined: not served.
 */
export function zoneFor(t: ShippingTableBody, address: Pick<AddressInput, 'country' | 'postal_code'>): string | undefined {
  const postal = fold(address.postal_code);
  let best: { key: string; length: number } | undefined;
  for (const zone of t.zones) {
    if (!zone.countries.includes(address.country)) continue;
    const prefixes = zone.postal_prefixes ?? [];
    if (prefixes.length === 0) {
      best ??= { key: zone.key, length: 0 };
      continue;
    }
    for (const prefix of prefixes.map(fold)) {
      if (postal.startsWith(prefix) && prefix.length > (best?.length ?? -1)) best = { key: zone.key, length: prefix.length };
    }
  }
  return best?.key;
}

/** Line items without a price: the amount is 0 and says why (spec: line item codes). */
export const unpricedLine = (code: 'shipping_quote' | 'shipping_address_needed' | 'collect', label: string): OrderLineItem => ({ code, label, unit_price: 0, quantity: 1, amount: 0 });

export const LABELS = {
  shippingQuote: 'Shipping: the marketplace sends a quote after the order',
  addressNeeded: 'Shipping: an address is needed to price it',
  collect: (site: Site | undefined) => (site ? `Collect at ${site.name}, ${site.city}` : 'Collect where it is stored'),
  ownShipping: 'Shipping',
};
