import { z } from 'zod';
import { ORDER_STATES, PAYOUT_STATUSES } from '@hm/db/entities';
import { PAYMENT_REFUSALS } from '../core/ports/payments.js';
import { ZMarketplaceCurrency } from '../listings/index.js';
import { ZCountryCode, ZDateTime, ZId } from '../core/schemas.js';
import { DELIVERY_METHODS } from './pricing/delivery.js';
import { ORDER_EVENTS, USER_EVENTS } from './order.machine.js';

/** Checkout and orders: the spec's OrderBody and the shapes under it, PlaceOrder, Quote, DeliveryBooking. */

export const ZAddress = z
  .strictObject({
    country: ZCountryCode.meta({ description: 'ISO 3166-1 alpha-2.' }),
    postal_code: z.string().trim().min(1).max(20),
    name: z.string().max(200).optional(),
    line1: z.string().max(200).optional(),
    line2: z.string().max(200).optional(),
    city: z.string().max(100).optional(),
    phone: z.string().max(40).optional(),
  })
  .meta({ id: 'Address' });

export const ZDeliveryInput = z
  .strictObject({
    method: z.enum(DELIVERY_METHODS).optional().meta({ description: 'May be omitted when the listing offers one method.' }),
    option: z.string().max(40).optional().meta({ description: "One of the shipping table's options; the first when omitted (shipping with the marketplace)." }),
    address: ZAddress.optional().meta({ description: 'Needed to ship; its country and postal code find the shipping zone.' }),
  })
  .meta({ id: 'DeliveryInput' });

export const ZPlaceOrder = z
  .strictObject({
    listing_id: ZId,
    quantity: z.number().int().min(1).max(100).optional().meta({ description: '1..100, default 1.', default: 1 }),
    currency: ZMarketplaceCurrency.optional().meta({ description: "One of the marketplace's currencies; the listing's when omitted." }),
    delivery: ZDeliveryInput.optional(),
    voucher_code: z.string().min(1).max(40).optional().meta({ description: 'Case-insensitive.' }),
  })
  .meta({ id: 'PlaceOrder' });
export type PlaceOrderInput = z.infer<typeof ZPlaceOrder>;

export const ZLineItem = z
  .object({
    code: z.enum(['item', 'shipping', 'collect', 'shipping_address_needed', 'shipping_quote', 'voucher']),
    label: z.string(),
    unit_price: z.number().int(),
    quantity: z.number().int(),
    amount: z.number().int().meta({ description: 'Minor units of the order currency; negative for discounts.' }),
  })
  .meta({ id: 'LineItem' });

export const ZQuote = z
  .object({ currency: z.string(), total: z.number().int(), line_items: z.array(ZLineItem) })
  .meta({ id: 'Quote', description: 'What placing the same order would charge now.' });

/** `data` of a transition: short strings (tracking number, carrier, a note), kept in history. */
export const ZTransitionData = z
  .strictObject({
    tracking_number: z.string().max(100).optional().meta({ description: 'mark-delivered: appears in `order.delivery`.' }),
    carrier: z.string().max(100).optional().meta({ description: 'mark-delivered: appears in `order.delivery`.' }),
  })
  .catchall(z.string().max(500))
  .refine((d) => Object.keys(d).length <= 20, 'At most 20 entries.')
  .refine((d) => Object.keys(d).every((k) => k.length >= 1 && k.length <= 40), 'Keys are 1 to 40 characters.');

export const ZOrderEvent = z
  .object({
    transition: z.string(),
    from: z.string().meta({ description: '`(new)` for the placing move.' }),
    to: z.string(),
    actor: z.enum(['buyer', 'seller', 'operator', 'system']),
    at: ZDateTime,
    data: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'OrderEvent' });

export const ZPayout = z
  .object({
    subtotal: z.number().int().meta({ description: 'The item lines, plus the shipping lines when the seller sends the parcel.' }),
    commission: z.number().int().meta({ description: "The listing's commission percent (else the marketplace's) of the item amount, rounded half away from zero." }),
    storage_fee: z.number().int().meta({ description: "The size's monthly storage fee for every started month stored beyond the free weeks, up to the sale." }),
    storage_months: z.number().int(),
    amount: z.number().int().meta({ description: 'What the seller is paid: subtotal − commission − storage fee, never below 0.' }),
    currency: z.string(),
    status: z.enum(PAYOUT_STATUSES).meta({ description: 'The spec’s statuses, and `failed`: the payment provider refused the transfer for good; the team fixes the cause and pays it.' }),
    failure_reason: z
      .enum(PAYMENT_REFUSALS)
      .optional()
      .meta({ description: 'Only when `failed`: why the provider refused — the seller’s account cannot take transfers yet, the platform’s balance is short, the currency is not accepted, or another invalid request.' }),
  })
  .meta({ id: 'Payout' });

export const ZChargeback = z
  .object({ id: z.string(), reason: z.string(), status: z.string().meta({ description: "The payment provider's dispute status (needs_response, under_review, won, lost …)." }) })
  .meta({ id: 'Chargeback' });

export const ZOrder = z
  .object({
    id: ZId,
    listing_id: ZId,
    buyer_id: ZId,
    seller_id: ZId,
    state: z.enum(ORDER_STATES),
    state_entered_at: ZDateTime,
    quantity: z.number().int(),
    currency: z.string(),
    total: z.number().int().meta({ description: 'Minor units of `currency`.' }),
    line_items: z.array(ZLineItem),
    delivery: z.record(z.string(), z.string()).meta({ description: 'Method, option, address, and the tracking number and carrier given when marked sent.' }),
    available_transitions: z.array(z.string()).meta({ description: 'What the calling user may do now.' }),
    history: z.array(ZOrderEvent).meta({ description: 'Every transition, oldest first.' }),
    payout: ZPayout.optional().meta({ description: "What the sale brings the seller: on the seller's side only (the buyer never sees it); none for a canceled or expired order." }),
    chargeback: ZChargeback.optional().meta({ description: "The buyer's bank disputed the payment." }),
    refunded_outside: z.number().int().optional().meta({ description: "Refunded at the payment provider outside the order, in the order's currency." }),
    sent_by: z.enum(['seller', 'marketplace']).meta({ description: 'Who sends the parcel: the seller (who marks it sent), or the marketplace for an item stored with it (the team marks it sent; the seller has nothing to do).' }),
    created_at: ZDateTime,
  })
  .meta({ id: 'Order' });
export type OrderBody = z.infer<typeof ZOrder>;

export const ZPlacedOrder = z.object({ order: ZOrder, payment: z.object({ client_secret: z.string() }).meta({ id: 'Payment' }) }).meta({ id: 'PlacedOrder' });

export const ZListOrders = z.strictObject({
  state: z.enum(ORDER_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'Page size, 1..100 (default 25).' }),
  offset: z.coerce.number().int().min(0).max(10000).default(0).meta({ description: '0..10000; a page shorter than `limit` is the last.' }),
  as: z.enum(['buyer', 'seller']).default('buyer').meta({ description: 'Orders you bought (default) or sold.' }),
});

export const ZOrderRef = z.strictObject({ id: ZId });
export const ZUpdateDelivery = z
  .strictObject({
    id: ZId,
    tracking_number: z.string().max(100).trim().optional().meta({ description: 'The parcel\'s tracking number; `""` removes it.' }),
    carrier: z.string().max(100).trim().optional().meta({ description: 'Who carries the parcel; `""` removes it.' }),
  })
  .refine((d) => d.tracking_number !== undefined || d.carrier !== undefined, { message: 'Give `tracking_number`, `carrier` or both.', path: ['tracking_number'] });
export const ZTransitionInput = z.strictObject({
  id: ZId,
  transition: z
    .enum(ORDER_EVENTS)
    // the team's and the service's own moves answer 409 saying who takes them; the document lists the user's (docs/decisions.md)
    .meta({ description: 'A user-facing transition; a user may take only those in `available_transitions`.', override: { enum: [...USER_EVENTS] } }),
  data: ZTransitionData.optional(),
});

export const ZSlot = z
  .object({ date: z.iso.date(), window: z.string(), label: z.string(), full: z.boolean().optional() })
  .meta({ id: 'Slot' });
export const ZDeliveryBooking = z
  .object({ booked: ZSlot.optional(), changeable: z.boolean(), slots: z.array(ZSlot) })
  .meta({ id: 'DeliveryBooking' });
export const ZBookSlot = z.strictObject({ id: ZId, date: z.iso.date(), window: z.string().min(1).max(40) });
