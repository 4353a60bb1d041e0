import type { OrderLineItem } from '@hm/db/entities';
import { percentOf } from '../core/money.js';

/**
 * What an order brings its seller (spec: Payout; rules in docs/decisions.md):
 * - `subtotal`: the item lines, plus the shipping lines when the seller sends the parcel (a parcel
 *   the marketplace sends is the marketplace's shipping);
 * - `commission`: the percent of the item amount, rounded half away from zero;
 * - `storage_fee`: the size's monthly fee for every started month the listing was stored beyond
 *   the free weeks, up to the sale;
 * - `amount` = subtotal − commission − storage fee, never below 0. A voucher is paid by the
 *   marketplace: it lowers what the buyer pays, never the seller's subtotal.
 */
export interface PayoutFigures {
  subtotal: number;
  commission: number;
  storageFee: number;
  storageMonths: number;
  amount: number;
  /** shipping lines of a parcel the marketplace sends (kept by the marketplace) */
  marketplaceShipping: number;
  /** the voucher's discount (positive) */
  voucher: number;
}

export interface FigureInput {
  lineItems: readonly OrderLineItem[];
  fulfilment: 'seller' | 'marketplace';
  commissionPercent: number;
  /** the listing's storage, when it was stored with the marketplace */
  storage?: { storedAt: Date; freeWeeks: number; monthlyFee: number };
  soldAt: Date;
}

const SHIPPING_LINES = new Set<OrderLineItem['code']>(['shipping', 'shipping_quote']);
const sum = (lines: readonly OrderLineItem[], keep: (l: OrderLineItem) => boolean) => lines.filter(keep).reduce((s, l) => s + l.amount, 0);

export function payoutFigures(input: FigureInput): PayoutFigures {
  const items = sum(input.lineItems, (l) => l.code === 'item');
  const shipping = sum(input.lineItems, (l) => SHIPPING_LINES.has(l.code));
  const voucher = -sum(input.lineItems, (l) => l.code === 'voucher');
  const subtotal = items + (input.fulfilment === 'seller' ? shipping : 0);
  const commission = percentOf(items, input.commissionPercent);
  const storageMonths = input.storage ? startedMonths(input.storage.storedAt, input.storage.freeWeeks, input.soldAt) : 0;
  const storageFee = storageMonths * (input.storage?.monthlyFee ?? 0);
  return {
    subtotal,
    commission,
    storageFee,
    storageMonths,
    amount: Math.max(0, subtotal - commission - storageFee),
    marketplaceShipping: input.fulfilment === 'marketplace' ? shipping : 0,
    voucher,
  };
}

/** Adds calendar months in UTC; a day the month lacks becomes its last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(d: Date, months: number): Date {
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target;
}

/**
 * Months started between the end of the free weeks and the sale: 0 up to and including the last
 * free moment, 1 from the moment after it through one calendar month, 2 from the moment after that.
 */
export function startedMonths(storedAt: Date, freeWeeks: number, soldAt: Date): number {
  const chargedFrom = new Date(storedAt.getTime() + freeWeeks * 7 * 86_400_000);
  if (soldAt <= chargedFrom) return 0;
  let months = 1;
  while (addMonths(chargedFrom, months) < soldAt) months++;
  return months;
}
