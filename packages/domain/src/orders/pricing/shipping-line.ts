import type { Listing, OrderLineItem } from '@hm/db/entities';
import type { FieldError } from '../../core/errors.js';
import type { ShippingTableBody } from '../../marketplace/index.js';
import type { RateBook } from '../../rates/index.js';
import { LABELS, tablePrices, unpricedLine, zoneFor, type AddressInput } from './delivery.js';

export interface ShippingAsk {
  table: ShippingTableBody;
  /** the marketplace's default currency (the table's when it names none) */
  defaultCurrency: string;
  listing: Listing;
  option?: string;
  address?: AddressInput;
  quantity: number;
  currency: string;
  rates: RateBook;
  /** placing needs the address (quoting shows `shipping_address_needed` instead) */
  placing: boolean;
}

export type ShippingPrice = { line: OrderLineItem; option?: string } | { error: FieldError } | { impossible: string };

const noRate = (from: string, to: string, value: string): ShippingPrice => ({ error: { location: 'currency', message: `Shipping cannot be priced in ${to}: there is no exchange rate from ${from} today.`, value } });

/**
 * The shipping line of an order (spec: line item codes `shipping`, `shipping_quote`,
 * `shipping_address_needed`). With a shipping table: option × the listing's size × the buyer's
 * zone, one price per order (a missing price is quoted after the order). Without one: the
 * listing's own price for the first item plus `additional_item_price` for each further item.
 */
export function shippingLine(a: ShippingAsk): ShippingPrice {
  if (!tablePrices(a.table)) return ownShipping(a);
  const options = a.table.options ?? [];
  if (a.option !== undefined && !options.some((o) => o.key === a.option)) {
    return { error: { location: 'delivery.option', message: `Must be one of the shipping options: ${options.map((o) => o.key).join(', ') || 'this marketplace has none'}.`, value: a.option } };
  }
  const option = options.find((o) => o.key === (a.option ?? options[0]?.key));
  const chosen = option ? { option: option.key } : {};
  if (!a.address) return a.placing ? addressNeeded() : { line: unpricedLine('shipping_address_needed', LABELS.addressNeeded), ...chosen };
  const zone = zoneFor(a.table, a.address);
  if (!zone) return { impossible: `This item cannot be shipped to ${a.address.country} ${a.address.postal_code}: the marketplace does not deliver there.` };
  const price = option && a.listing.shippingSize ? a.table.delivery?.[option.key]?.[a.listing.shippingSize]?.[zone] : undefined;
  if (price === undefined) return { line: unpricedLine('shipping_quote', LABELS.shippingQuote), ...chosen };
  const from = a.table.currency ?? a.defaultCurrency;
  const amount = a.rates.convert(price, from, a.currency);
  if (amount === undefined) return noRate(from, a.currency, a.currency);
  return { line: { code: 'shipping', label: option!.name, unit_price: amount, quantity: 1, amount }, ...chosen };
}

function ownShipping(a: ShippingAsk): ShippingPrice {
  if (a.option !== undefined) return { error: { location: 'delivery.option', message: 'This listing prices its own shipping; it has no options.', value: a.option } };
  if (!a.address && a.placing) return addressNeeded();
  const own = a.listing.delivery.shipping;
  if (own?.price === undefined) return { line: unpricedLine('shipping_quote', LABELS.shippingQuote) };
  const from = a.listing.priceCurrency!;
  const amount = a.rates.convert(own.price + (own.additional_item_price ?? 0) * (a.quantity - 1), from, a.currency);
  if (amount === undefined) return noRate(from, a.currency, a.currency);
  return { line: { code: 'shipping', label: LABELS.ownShipping, unit_price: amount, quantity: 1, amount } };
}

const addressNeeded = (): ShippingPrice => ({ error: { location: 'delivery.address', message: 'An address (at least country and postal code) is needed to ship this order.', value: null } });
