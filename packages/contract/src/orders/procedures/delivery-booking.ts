import { sessionProcedure } from '../../trpc.js';
import { bookDelivery, getDeliveryBooking } from '@hm/domain/orders';
import { ZBookSlot, ZDeliveryBooking, ZOrderRef } from '@hm/domain/orders';
import { TAG } from './_shared.js';

export const getOrderDeliveryBooking = sessionProcedure
  .meta({
    auth: 'session',
    problems: [409],
    openapi: {
      operationId: 'getDeliveryBooking',
      method: 'GET',
      path: '/me/orders/{id}/delivery-booking',
      tags: [TAG],
      summary: "An order's delivery booking",
      description: "The booked slot, whether it may still change, and the open slots (from today + `lead_days` to today + `horizon_days` on the booking's weekdays and windows, today in its time zone). 409 when the delivery is not booked by the buyer (not paid, collected, or arranged by the carrier).",
    },
  })
  .input(ZOrderRef)
  .output(ZDeliveryBooking)
  .query(({ ctx, input }) => getDeliveryBooking(ctx, input.id));

export const bookOrderDelivery = sessionProcedure
  .meta({
    auth: 'session',
    problems: [403, 409],
    requestExample: { date: '2026-12-03', window: 'am' },
    openapi: {
      operationId: 'bookDelivery',
      method: 'PUT',
      path: '/me/orders/{id}/delivery-booking',
      tags: [TAG],
      summary: 'Book the delivery',
      description: 'The buyer books one of the open slots, or changes the booking until the lead time (then 409). A full window is 409; a day or window that is not offered is 422.',
    },
  })
  .input(ZBookSlot)
  .output(ZDeliveryBooking)
  .mutation(({ ctx, input }) => bookDelivery(ctx, input.id, { date: input.date, window: input.window }));
