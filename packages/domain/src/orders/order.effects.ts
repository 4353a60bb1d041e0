import type { Order } from '@hm/db/entities';
import { addJob, jobKey } from '../core/jobs.js';
import { effectSlots, type Effect, type Effects } from '../core/state-machine.js';
import { releaseBookedSlot } from './booking/booking.queries.js';
import { cancelPaymentsTask } from './commands/cancel-payment.js';
import type { OrderMachineTypes } from './order.machine.js';
import { returnUnits } from './orders.queries.js';

type OrderEffect = Effect<OrderMachineTypes>;

/**
 * The order effects whose work belongs to other modules, named where they run in the table below
 * and filled by the flows (the module itself never calls payouts or emails):
 * - `notify`: the order notice to its buyer and its seller for the state entered (flows/order-notices.ts);
 * - `record-charge`: the buyer's payment, the ledger's first row of the order (flows/settlement.ts);
 * - `pay-seller`: a received order pays its seller by the pay-seller job (flows/settlement.ts);
 * - `refund`: a canceled paid order (or a payment after its window) is refunded by the refund-order job (flows/settlement.ts).
 */
export const ORDER_EFFECT_SLOTS = effectSlots<OrderMachineTypes, 'notify' | 'record-charge' | 'pay-seller' | 'refund'>('order', ['notify', 'record-charge', 'pay-seller', 'refund']);
const { slot } = ORDER_EFFECT_SLOTS;

/** The payment window ended, or a paid order was canceled before it was sent: the units come back to the listing, so it is on sale again if it was sold out. */
const releaseStock: OrderEffect = ({ entity, ctx }) => returnUnits(ctx.em, entity.listingId, entity.quantity);

/** Transactions (entity managers) that have queued a cancel-payments job already. */
const cancelQueued = new WeakSet<object>();

/**
 * The provider's payment is canceled by a job (a provider call never runs inside the move's
 * transaction): the order is marked, and one `cancel-payments` job per transaction works through
 * the marked orders, however many windows ended together.
 */
const cancelPayment: OrderEffect = async ({ entity, ctx }) => {
  if (!entity.paymentId) return;
  entity.paymentCancelPending = true;
  if (cancelQueued.has(ctx.em)) return;
  cancelQueued.add(ctx.em);
  await addJob(ctx.em, cancelPaymentsTask, { marketplace_id: ctx.marketplace.id }, { jobKey: jobKey(cancelPaymentsTask, entity.id) });
};

/** A delivery booked for an order that will not be delivered frees its window. */
const releaseBooking: OrderEffect = async ({ entity, ctx }) => {
  if (entity.bookedDate && entity.bookedWindow) await releaseBookedSlot(ctx.em, entity.bookedDate, entity.bookedWindow);
};

/** `tracking_number` and `carrier` given when marking sent appear in `order.delivery` (spec). */
const recordTracking: OrderEffect = ({ entity, move }) => {
  const { tracking_number, carrier } = move.data ?? {};
  entity.delivery = { ...entity.delivery, ...(tracking_number ? { tracking_number } : {}), ...(carrier ? { carrier } : {}) };
};

const paidTooLate = (o: Order) => o.status === 'payment_expired';
const refund = slot('refund');

/**
 * What each order event also does, besides its row's state change, in order. Every move then keeps
 * the order's timers (move-order.ts adds that effect to each event: the left state's timer goes,
 * the entered state's is scheduled).
 */
export const orderEffects: Effects<OrderMachineTypes> = {
  // a payment confirmed after its window ended is refunded: the item may have been sold to someone else meanwhile
  'confirm-payment': [slot('record-charge'), slot('notify'), (args) => (paidTooLate(args.entity) ? refund(args) : undefined)],
  'expire-payment': [releaseStock, cancelPayment],
  'mark-delivered': [recordTracking, slot('notify')],
  'mark-received': [slot('notify'), slot('pay-seller')],
  'mark-received-early': [slot('notify'), slot('pay-seller')],
  // never sent (the table's only cancel is from purchased): the item is still the seller's to sell
  cancel: [refund, releaseBooking, releaseStock],
  'resolve-received': [slot('notify'), slot('pay-seller')],
  'resolve-canceled': [refund],
};
