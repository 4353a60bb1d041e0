import type { Listing, PriceStep } from '@hm/db/entities';
import type { FieldError } from '../core/errors.js';

/** Calendar months later, same time of day; a day past the month's end becomes its last day (31 Jan + 1 → 28/29 Feb). */
export function addMonths(d: Date, months: number): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
}

/** When each step applies: only once the schedule has started (the listing is on sale). */
export function stepDates(l: Pick<Listing, 'priceSchedule' | 'scheduleStartedAt'>): (Date | undefined)[] {
  return (l.priceSchedule ?? []).map((s) => (l.scheduleStartedAt ? addMonths(l.scheduleStartedAt, s.months) : undefined));
}

/** The next step not yet applied, with its date, or undefined. */
export function nextStep(l: Pick<Listing, 'priceSchedule' | 'scheduleStartedAt'>): { index: number; step: PriceStep; on: Date } | undefined {
  if (!l.scheduleStartedAt) return undefined;
  const steps = l.priceSchedule ?? [];
  const index = steps.findIndex((s) => !s.done);
  if (index < 0) return undefined;
  return { index, step: steps[index]!, on: addMonths(l.scheduleStartedAt, steps[index]!.months) };
}

export const cleanSteps = (steps: { months: number; amount: number }[] | null | undefined): PriceStep[] | null =>
  steps && steps.length ? steps.map((s) => ({ months: s.months, amount: s.amount })) : null;

/**
 * A scheduled drop never raises the price: every step must be below the price it follows. The
 * schedule's schema checks each step against the one before; this checks the steps against the
 * price they start from (a new listing's, a changed schedule's, an offer's), each step at once at
 * its own `amount` (`at` is where the steps are in the input: `price_schedule`, `schedule`).
 */
export function stepsNotBelowPrice(price: number | null | undefined, steps: readonly { amount: number }[] | null | undefined, at: string): FieldError[] {
  if (price === null || price === undefined) return [];
  return (steps ?? []).flatMap((s, i) =>
    s.amount < price ? [] : [{ location: `${at}.${i}.amount`, message: `Must be below the price it follows (${price}): a scheduled drop never raises the price.`, value: s.amount }],
  );
}

/**
 * A schedule belongs to its price's currency (its amounts are minor units of it): a price in
 * another currency leaves the old schedule behind, since its amounts mean nothing in the new one.
 * A schedule set while there was no price takes the currency of the first price.
 */
export const leavesScheduleBehind = (l: Pick<Listing, 'priceCurrency'>, currency: string | null | undefined): boolean =>
  l.priceCurrency !== null && currency !== null && currency !== undefined && currency !== l.priceCurrency;
