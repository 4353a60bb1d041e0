import type { ShippingTableBody } from '../../marketplace/index.js';

export type BookingRules = NonNullable<ShippingTableBody['booking']>;
export const DEFAULT_TIME_ZONE = 'Europe/Stockholm';

export interface Slot {
  date: string;
  window: string;
  label: string;
  full: boolean;
}

/** Today's date (YYYY-MM-DD) in a time zone: the booking's days begin at its local midnight. */
export function localToday(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A calendar date `days` later (dates, not instants: no time zone or daylight saving in the way). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 1 Monday … 7 Sunday (spec: Booking.weekdays). */
export const isoWeekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

/**
 * The slots a buyer may book (spec: Booking): every window on each of the `weekdays` from today +
 * `lead_days` to today + `horizon_days` (both included), today in the booking's time zone; a
 * window is `full` once it has `per_window` bookings (0 or absent: no limit).
 */
export function bookingSlots(rules: BookingRules, today: string, booked: Map<string, number>): Slot[] {
  const slots: Slot[] = [];
  for (let day = rules.lead_days; day <= rules.horizon_days; day++) {
    const date = addDays(today, day);
    if (!rules.weekdays.includes(isoWeekday(date))) continue;
    for (const w of rules.windows) slots.push(slotOf(rules, date, w.key, booked));
  }
  return slots;
}

export function slotOf(rules: BookingRules, date: string, window: string, booked: Map<string, number>): Slot {
  const perWindow = rules.per_window ?? 0;
  const label = rules.windows.find((w) => w.key === window)?.label ?? window;
  return { date, window, label, full: perWindow > 0 && (booked.get(`${date} ${window}`) ?? 0) >= perWindow };
}

/** A booking can be made or changed until its date is closer than the lead time. */
export const changeableUntil = (rules: BookingRules, today: string, bookedDate: string | null) => !bookedDate || bookedDate >= addDays(today, rules.lead_days);
