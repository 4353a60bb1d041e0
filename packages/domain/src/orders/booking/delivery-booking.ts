import type { Order, OrderState } from '@hm/db/entities';
import type { UserCommandContext } from '../../core/context.js';
import { ConflictError, DomainError, ValidationError } from '../../core/errors.js';
import type { ShippingTableBody } from '../../marketplace/index.js';
import { findOrderFor } from '../commands/find-orders.js';
import { bookedCounts, releaseBookedSlot, takeSlot } from './booking.queries.js';
import { addDays, bookingSlots, changeableUntil, DEFAULT_TIME_ZONE, localToday, slotOf, type BookingRules, type Slot } from './slots.js';

export interface DeliveryBooking {
  booked?: Slot;
  changeable: boolean;
  slots: Slot[];
}

const PAID: readonly OrderState[] = ['purchased', 'delivered', 'received', 'disputed'];

/**
 * The booking rules that apply to an order, or 409 saying why its delivery is not booked by the
 * buyer (spec: not paid, collected, or arranged by the carrier).
 */
function rulesFor(ctx: UserCommandContext, o: Order): BookingRules {
  if (!PAID.includes(o.status)) throw new ConflictError(o.status === 'pending_payment' ? 'The delivery can be booked once the order is paid.' : 'This order will not be delivered: there is nothing to book.');
  if (o.delivery.method !== 'shipping') throw new ConflictError(`This order is not shipped (${o.delivery.method?.replace('_', ' ') ?? 'no delivery'}): there is no delivery to book.`);
  const rules = (ctx.marketplace.shipping as ShippingTableBody).booking;
  if (!rules || !o.buyerZone || !rules.zones.includes(o.buyerZone)) throw new ConflictError('The carrier arranges this delivery: there is nothing to book.');
  return rules;
}

/** What the buyer (or the seller) sees: the booked slot, whether it may change, and the slots open now. */
async function bookingOf(ctx: UserCommandContext, o: Order, rules: BookingRules): Promise<DeliveryBooking> {
  const today = localToday(ctx.clock.now(), rules.time_zone ?? DEFAULT_TIME_ZONE);
  const changeable = o.status === 'purchased' && changeableUntil(rules, today, o.bookedDate ?? null);
  const counts = await bookedCounts(ctx.em, today, addDays(today, rules.horizon_days));
  const booked = o.bookedDate && o.bookedWindow ? slotOf(rules, o.bookedDate, o.bookedWindow, counts) : undefined;
  return { ...(booked ? { booked } : {}), changeable, slots: changeable ? bookingSlots(rules, today, counts) : [] };
}

/** GET /v1/me/orders/{id}/delivery-booking (its buyer or seller). */
export async function getDeliveryBooking(ctx: UserCommandContext, id: string): Promise<DeliveryBooking> {
  const { order } = await findOrderFor(ctx, id);
  return bookingOf(ctx, order, rulesFor(ctx, order));
}

/**
 * PUT /v1/me/orders/{id}/delivery-booking: the buyer books one of the open slots, or changes the
 * booking until the lead time. A window's place is taken by a conditional upsert (exact when many
 * book at once) and the previous window's place given back, in one transaction with the order locked.
 */
export async function bookDelivery(ctx: UserCommandContext, id: string, want: { date: string; window: string }): Promise<DeliveryBooking> {
  return ctx.em.transactional(async (em) => {
    const scoped = { ...ctx, em };
    const { order, party } = await findOrderFor(scoped, id, { lock: true });
    const rules = rulesFor(scoped, order);
    if (party !== 'buyer') throw new DomainError('forbidden', 'Only the buyer books the delivery.');
    const today = localToday(ctx.clock.now(), rules.time_zone ?? DEFAULT_TIME_ZONE);
    if (order.status !== 'purchased') throw new ConflictError('This order has been sent: its delivery can no longer be booked.');
    if (!changeableUntil(rules, today, order.bookedDate ?? null)) throw new ConflictError(`The booked delivery is less than ${rules.lead_days} day${rules.lead_days === 1 ? '' : 's'} away and can no longer be changed.`);
    const offered = bookingSlots(rules, today, new Map());
    const errors = [];
    if (!offered.some((s) => s.date === want.date)) errors.push({ location: 'date', message: `Not a delivery day: days run from ${addDays(today, rules.lead_days)} to ${addDays(today, rules.horizon_days)} on the marketplace's delivery weekdays.`, value: want.date });
    if (!rules.windows.some((w) => w.key === want.window)) errors.push({ location: 'window', message: `Must be one of the delivery windows: ${rules.windows.map((w) => w.key).join(', ')}.`, value: want.window });
    if (errors.length) throw new ValidationError(errors);
    if (order.bookedDate !== want.date || order.bookedWindow !== want.window) {
      if (!(await takeSlot(em, want.date, want.window, rules.per_window ?? 0))) throw new ConflictError('This delivery window is full; choose another slot.');
      if (order.bookedDate && order.bookedWindow) await releaseBookedSlot(em, order.bookedDate, order.bookedWindow);
      order.bookedDate = want.date;
      order.bookedWindow = want.window;
      order.updatedAt = ctx.clock.now();
      await em.flush();
    }
    return bookingOf(scoped, order, rules);
  });
}
