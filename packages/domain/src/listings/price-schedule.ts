import type { Listing, PriceStep } from '@hm/db/entities';

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
