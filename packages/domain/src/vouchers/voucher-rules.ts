import type { OrderLineItem, Voucher } from '@hm/db/entities';
import type { RateBook } from '../rates/index.js';
import { formatMoney, percentOf } from '../core/money.js';

/** A voucher's uses so far: every order with it whose payment did not expire, and the buyer's own. */
export interface VoucherUses {
  all: number;
  mine: number;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Why a voucher does not apply to an order, in words for the buyer (spec: 422 at
 * `body.voucher_code` with the reason), or undefined when it applies. Each rule has its own
 * reason; they are checked in the order a buyer can act on them. `itemsTotal` is the items'
 * amount in the order's `currency`; a voucher's own amounts are converted at the day's rate.
 */
export function voucherRefusal(v: Voucher, o: { now: Date; itemsTotal: number; currency: string; rates: RateBook; uses: VoucherUses }): string | undefined {
  if (v.startsAt && o.now < v.startsAt) return `This voucher can be used from ${day(v.startsAt)}.`;
  if (v.endsAt && o.now >= v.endsAt) return `This voucher expired on ${day(v.endsAt)}.`;
  if (v.currency && o.rates.convert(1, v.currency, o.currency) === undefined) return `This voucher cannot be used with ${o.currency}.`;
  if (v.minTotal !== null && v.minTotal !== undefined) {
    const min = o.rates.convert(v.minTotal, v.currency!, o.currency)!;
    if (o.itemsTotal < min) return `This voucher needs items worth at least ${formatMoney(min, o.currency)}.`;
  }
  if (v.oncePerBuyer && o.uses.mine > 0) return 'You have used this voucher already; it can be used once per buyer.';
  if (v.maxUses !== null && v.maxUses !== undefined && o.uses.all >= v.maxUses) return 'This voucher has been used up.';
  return undefined;
}

/** The voucher's line: a percentage of the items, or its amount (never more than the items), negative. */
export function voucherLine(v: Voucher, itemsTotal: number, currency: string, rates: RateBook): OrderLineItem {
  const off = v.percent !== null && v.percent !== undefined ? percentOf(itemsTotal, v.percent) : Math.min(itemsTotal, rates.convert(v.amount!, v.currency!, currency)!);
  return { code: 'voucher', label: `Voucher ${v.code}`, unit_price: -off, quantity: 1, amount: -off };
}
