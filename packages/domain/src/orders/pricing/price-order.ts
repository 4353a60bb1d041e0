import { ListingSchema, SiteSchema, VoucherSchema, type Listing, type OrderLineItem, type Voucher } from '@hm/db/entities';
import { LockMode } from '@mikro-orm/core';
import type { UserCommandContext } from '../../core/context.js';
import { ConflictError, NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { MAX_AMOUNT } from '../../core/money.js';
import { fulfilmentOf } from '../../listings/index.js';
import type { ShippingTableBody } from '../../marketplace/index.js';
import { loadRateBook, todayOf } from '../../rates/index.js';
import { voucherLine, voucherRefusal } from '../../vouchers/index.js';
import { voucherIdByCode, voucherUses } from '../../vouchers/index.js';
import type { PlaceOrderInput } from '../order.schema.js';
import { reservedUnits } from '../orders.queries.js';
import { LABELS, offeredMethods, unpricedLine, zoneFor, type DeliveryMethod } from './delivery.js';
import { shippingLine } from './shipping-line.js';

export interface PricedOrder {
  listing: Listing;
  currency: string;
  quantity: number;
  lineItems: OrderLineItem[];
  total: number;
  /** method, option and address as the order keeps them (OrderBody `delivery`) */
  delivery: Record<string, string>;
  buyerZone: string | null;
  fulfilment: 'seller' | 'marketplace';
  voucher?: Voucher;
}

/**
 * The one pricing of an order, for the quote and for placing (spec, order rule 2: they price
 * identically). Placing calls it inside its transaction with `place`: the listing and the voucher
 * are then locked (in that order, always), so the stock and the voucher's uses it checks stay true
 * until the order is written; and shipping needs an address (a quote shows
 * `shipping_address_needed` instead). Everything else is the same code path.
 *
 * Refusals: 404 unknown listing (or never on sale); 409 your own listing, not for sale, not enough
 * stock, delivery impossible; 422 every wrong field at once (method, option, address, currency
 * without a rate, the voucher's reason at `voucher_code`).
 */
export async function priceOrder(ctx: UserCommandContext, input: PlaceOrderInput, mode: 'quote' | 'place'): Promise<PricedOrder> {
  const { em, marketplace } = ctx;
  // refresh: a row already in the identity map is read again under the lock, never trusted stale
  const lock = mode === 'place' ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {};
  const quantity = input.quantity ?? 1;
  const l = await em.findOne(ListingSchema, { id: input.listing_id }, lock);
  if (!l || !l.everOnSale) throw new NotFoundError('This listing');
  if (l.sellerId === ctx.user.id) throw new ConflictError('This is your own listing: you cannot buy it.');
  if (l.status !== 'published' || l.sellerBlocked || l.priceAmount === null || l.priceAmount === undefined || !l.priceCurrency) throw new ConflictError('This listing is not for sale now.');
  if (l.stock < quantity) throw new ConflictError(await stockRefusal(ctx, l, quantity));

  const errors: FieldError[] = [];
  const currency = input.currency ?? l.priceCurrency;
  const rates = await loadRateBook(em, marketplace, todayOf(ctx.clock.now()));
  const unit = rates.convert(l.priceAmount, l.priceCurrency, currency);
  if (unit === undefined) errors.push({ location: 'currency', message: `This listing cannot be bought in ${currency}: there is no exchange rate from ${l.priceCurrency} today.`, value: currency });
  const lines: OrderLineItem[] = unit === undefined ? [] : [{ code: 'item', label: l.title, unit_price: unit, quantity, amount: unit * quantity }];

  // delivery: the method (omitted when the listing offers one), then its line
  const site = l.custody === 'stored' && l.siteId ? ((await em.findOne(SiteSchema, { id: l.siteId })) ?? undefined) : undefined;
  const offered = offeredMethods(l, site);
  if (offered.length === 0) throw new ConflictError('This listing cannot be delivered now: it offers no delivery method.');
  const asked = input.delivery ?? {};
  let method: DeliveryMethod | undefined = asked.method;
  if (method && !offered.includes(method)) {
    errors.push({ location: 'delivery.method', message: `This listing offers: ${offered.join(', ')}.`, value: method });
    method = undefined;
  } else if (!method && offered.length > 1) {
    errors.push({ location: 'delivery.method', message: `Choose how to get it: ${offered.join(', ')}.`, value: null });
  }
  method ??= offered.length === 1 ? offered[0] : undefined;
  const table = marketplace.shipping as ShippingTableBody;
  const delivery: Record<string, string> = method ? { method } : {};
  let impossible: string | undefined;
  let buyerZone: string | null = null;
  if (method === 'shipping') {
    const shipping = shippingLine({ table, defaultCurrency: marketplace.currencies[0]!, listing: l, option: asked.option, address: asked.address, quantity, currency, rates, placing: mode === 'place' });
    if ('error' in shipping) {
      if (unit !== undefined || shipping.error.location !== 'currency') errors.push(shipping.error); // the currency's problem is listed once
    } else if ('impossible' in shipping) impossible = shipping.impossible;
    else {
      lines.push(shipping.line);
      if (shipping.option) delivery.option = shipping.option;
    }
    if (asked.address) {
      Object.assign(delivery, asked.address);
      buyerZone = zoneFor(table, asked.address) ?? null;
    }
  } else if (method === 'collect') {
    lines.push(unpricedLine('collect', LABELS.collect(site)));
  }

  // the voucher, on the items' amount
  let voucher: Voucher | undefined;
  if (input.voucher_code !== undefined && unit !== undefined) {
    const id = await voucherIdByCode(em, input.voucher_code);
    voucher = (id && (await em.findOne(VoucherSchema, { id }, lock))) || undefined;
    const itemsTotal = unit * quantity;
    const why = voucher ? voucherRefusal(voucher, { now: ctx.clock.now(), itemsTotal, currency, rates, uses: await voucherUses(em, voucher.id, ctx.user.id) }) : 'There is no voucher with this code.';
    if (why) errors.push({ location: 'voucher_code', message: why, value: input.voucher_code });
    else lines.push(voucherLine(voucher!, itemsTotal, currency, rates));
  }

  if (errors.length) throw new ValidationError(errors);
  if (impossible) throw new ConflictError(impossible);
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  if (total > MAX_AMOUNT) {
    // every amount set is bounded, so only a quantity (or the listing's price with its shipping) makes it: said where the client sent it
    const where =
      input.quantity !== undefined && quantity > 1 ? { location: 'quantity', value: input.quantity }
      : input.currency !== undefined ? { location: 'currency', value: input.currency }
      : { location: 'listing_id', value: input.listing_id };
    throw new ValidationError([{ ...where, message: `The order's total (${total} in minor units of ${currency}) is more than one payment may be (${MAX_AMOUNT}); order fewer, or in another currency.` }]);
  }
  return { listing: l, currency, quantity, lineItems: lines, total, delivery, buyerZone, fulfilment: fulfilmentOf(l), ...(voucher ? { voucher } : {}) };
}

/** Why there is not enough stock: sold out, reserved by buyers paying now (it may come back), or fewer left. */
async function stockRefusal(ctx: UserCommandContext, l: Listing, quantity: number): Promise<string> {
  if (l.stock > 0) return `Only ${l.stock} of this listing ${l.stock === 1 ? 'is' : 'are'} left; you asked for ${quantity}.`;
  if ((await reservedUnits(ctx.em, l.id)) > 0) return 'This listing is reserved by another buyer who is paying for it now; it comes back if their payment window (15 minutes) ends unpaid.';
  return 'This listing is sold out.';
}
