import type { PaymentRefusal } from '../core/ports/payments.js';
import type { Order, Payout } from '@hm/db/entities';
import { availableEvents } from '../core/state-machine.js';
import { orderMachine, USER_EVENTS, type OrderActor, type OrderMachineTypes } from './order.machine.js';
import type { OrderBody } from './order.schema.js';

/** What the viewer may do now: a user only the user-facing transitions open to them; the team all of theirs. */
export function availableTo(o: Order, viewer: Exclude<OrderActor, 'system'>, ctx: OrderMachineTypes['ctx']): string[] {
  const open = availableEvents(orderMachine, o, viewer, ctx);
  return viewer === 'operator' ? open : open.filter((e) => (USER_EVENTS as readonly string[]).includes(e));
}

/**
 * The one place an order row becomes an OrderBody, for the calling user (its buyer or seller) or
 * the team. `payout`: given only for the seller's side and the team's (the buyer never sees it);
 * a canceled or expired order pays nothing, so it shows none.
 */
export function toOrderBody(o: Order, viewer: Exclude<OrderActor, 'system'>, ctx: OrderMachineTypes['ctx'], payout?: Payout): OrderBody {
  const pays = payout && viewer !== 'buyer' && o.status !== 'canceled' && o.status !== 'payment_expired';
  return {
    id: o.id,
    listing_id: o.listingId,
    buyer_id: o.buyerId,
    seller_id: o.sellerId,
    state: o.status,
    state_entered_at: o.stateEnteredAt.toISOString(),
    quantity: o.quantity,
    currency: o.currency,
    total: o.total,
    line_items: o.lineItems,
    delivery: o.delivery,
    available_transitions: availableTo(o, viewer, ctx),
    history: o.history,
    ...(pays && { payout: toPayoutBody(payout) }),
    ...(o.chargeback && { chargeback: o.chargeback }),
    ...(o.refundedOutside > 0 && { refunded_outside: o.refundedOutside }),
    sent_by: o.fulfilment,
    created_at: o.createdAt.toISOString(),
  };
}

/** Spec: Payout. */
export function toPayoutBody(p: Payout): NonNullable<OrderBody['payout']> {
  return {
    subtotal: p.subtotal,
    commission: p.commission,
    storage_fee: p.storageFee,
    storage_months: p.storageMonths,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    ...(p.status === 'failed' && { failure_reason: (p.failureReason ?? 'invalid_request') as PaymentRefusal }),
  };
}

/** The console's view: the public body plus what only the team sees (payment, refund, booking, fulfilment). */
export function toOrderConsoleBody(o: Order, ctx: OrderMachineTypes['ctx'], payout?: Payout) {
  return {
    ...toOrderBody(o, 'operator', ctx, payout),
    transfer: payout?.transferId ? { id: payout.transferId, at: payout.paidAt?.toISOString() ?? null } : null,
    marketplace_id: o.marketplaceId,
    fulfilment: o.fulfilment,
    payment: { provider: o.paymentProvider, id: o.paymentId, due_at: o.paymentDueAt.toISOString() },
    refund: o.refundId ? { id: o.refundId, at: o.refundedAt?.toISOString() ?? null } : null,
    booking: o.bookedDate ? { date: o.bookedDate, window: o.bookedWindow } : null,
    voucher_id: o.voucherId,
  };
}
