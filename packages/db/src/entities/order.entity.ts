import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns } from './common.js';

export const ORDER_STATES = ['pending_payment', 'purchased', 'delivered', 'received', 'disputed', 'canceled', 'payment_expired'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** One priced line, as quoted and as placed (spec: LineItem); amounts in minor units of the order's currency. */
export interface OrderLineItem {
  code: 'item' | 'shipping' | 'collect' | 'shipping_address_needed' | 'shipping_quote' | 'voucher';
  label: string;
  unit_price: number;
  quantity: number;
  amount: number;
}

/** One move in the order's history (spec: OrderEvent). `from` is `(new)` for the placing move. */
export interface OrderHistoryEntry {
  transition: string;
  from: string;
  to: string;
  actor: 'buyer' | 'seller' | 'operator' | 'system';
  at: string;
  data?: Record<string, string>;
}

/**
 * An order: one listing with a quantity, priced once when placed. The state lives here (as
 * `status`, the state-machine mechanism's field; `state` on the wire); what may change it lives
 * in the domain's order machine.
 */
export const OrderSchema = defineEntity({
  name: 'Order',
  tableName: 'orders',
  properties: {
    ...tenantColumns(),
    listingId: p.uuid(),
    buyerId: p.uuid(),
    sellerId: p.uuid(),
    status: p.enum(ORDER_STATES),
    stateEnteredAt: p.datetime(),
    quantity: p.integer(),
    currency: p.string(),
    total: p.bigint('number'),
    lineItems: p.json<OrderLineItem[]>(),
    /** method, option, the address, and what the sender gave when marking it sent (tracking number, carrier) */
    delivery: p.json<Record<string, string>>(),
    /** who sends it: the seller, or the marketplace for stored listings (when placed) */
    fulfilment: p.enum(['seller', 'marketplace'] as const),
    /** the buyer's shipping zone (shipping orders with an address in a zone) */
    buyerZone: p.string().nullable(),
    voucherId: p.uuid().nullable(),
    history: p.json<OrderHistoryEntry[]>(),
    paymentProvider: p.string().nullable(),
    /** the provider's payment id (Stripe: the PaymentIntent) */
    paymentId: p.string().nullable(),
    paymentClientSecret: p.string().nullable(),
    /** end of the payment window */
    paymentDueAt: p.datetime(),
    /** the window ended: the provider's payment is still to be canceled (by the cancel-payments job) */
    paymentCancelPending: p.boolean(),
    refundId: p.string().nullable(),
    refundedAt: p.datetime().nullable(),
    /** the buyer's bank disputed the payment (spec: Chargeback), as the provider's last dispute event said */
    chargeback: p.json<{ id: string; reason: string; status: string }>().nullable(),
    /** refunded at the provider outside the service, in the order's currency */
    refundedOutside: p.bigint('number').default(0),
    bookedDate: p.string().columnType('date').nullable(),
    bookedWindow: p.string().nullable(),
    updatedAt: p.datetime(),
  },
});
export type Order = InferEntity<typeof OrderSchema>;
