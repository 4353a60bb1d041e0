import { UserSchema, type Order } from '@hm/db/entities';
import { queueOrderNotice } from '../emails/commands/queue-email.js';
import type { OrderTemplate } from '../emails/order-templates.js';
import { addJob, jobKey } from '../shared/jobs.js';
import type { Effect, Effects } from '../shared/state-machine.js';
import { releaseBookedSlot } from './booking/booking.queries.js';
import { cancelPaymentsTask } from './commands/cancel-payment.js';
import { refundOrderTask } from './commands/refund-order.js';
import type { OrderMachineTypes } from './order.machine.js';
import { returnUnits } from './orders.queries.js';
import { queuePaySeller } from '../payouts/commands/pay-seller.js';
import { appendLedger } from '../payouts/ledger.queries.js';

type OrderEffect = Effect<OrderMachineTypes>;
type Notice = 'paid' | 'sent' | 'received';

/** The order notice to its buyer and its seller, each in their language (sent only if the move commits). */
const notify =
  (notice: Notice, when: (o: Order) => boolean = () => true): OrderEffect =>
  async ({ entity, ctx }) => {
    if (!when(entity)) return;
    const [buyer, seller] = await Promise.all([ctx.em.findOneOrFail(UserSchema, { id: entity.buyerId }), ctx.em.findOneOrFail(UserSchema, { id: entity.sellerId })]);
    // the notice names the item, and once sent its tracking
    const item = entity.lineItems.find((l) => l.code === 'item')?.label;
    const about = item ? { item, tracking: entity.delivery.tracking_number, carrier: entity.delivery.carrier } : undefined;
    await queueOrderNotice(ctx.em, ctx.marketplace, buyer, `order_${notice}_buyer` satisfies OrderTemplate, entity.id, about);
    await queueOrderNotice(ctx.em, ctx.marketplace, seller, `order_${notice}_seller` satisfies OrderTemplate, entity.id, about);
  };

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

/** Money goes back to the buyer through the port, by a job (idempotent by a refund id derived from the order). */
const refund: OrderEffect = ({ entity, ctx }) => addJob(ctx.em, refundOrderTask, { marketplace_id: ctx.marketplace.id, order_id: entity.id }, { jobKey: jobKey(refundOrderTask, entity.id) });

/** A delivery booked for an order that will not be delivered frees its window. */
const releaseBooking: OrderEffect = async ({ entity, ctx }) => {
  if (entity.bookedDate && entity.bookedWindow) await releaseBookedSlot(ctx.em, entity.bookedDate, entity.bookedWindow);
};

/** `tracking_number` and `carrier` given when marking sent appear in `order.delivery` (spec). */
const recordTracking: OrderEffect = ({ entity, move }) => {
  const { tracking_number, carrier } = move.data ?? {};
  entity.delivery = { ...entity.delivery, ...(tracking_number ? { tracking_number } : {}), ...(carrier ? { carrier } : {}) };
};

/** The buyer's payment is the ledger's first row of the order (also when it came too late and is refunded). */
const recordCharge: OrderEffect = ({ entity, ctx, move }) =>
  appendLedger(ctx.em, [{ orderId: entity.id, kind: 'charge', amount: entity.total, currency: entity.currency, reference: entity.paymentId ?? 'payment' }], move.at);

/** A received order pays its seller, by a job (key `pay-seller:<order id>`) that commits with the move. */
const paySeller: OrderEffect = ({ entity, ctx }) => queuePaySeller(ctx.em, ctx.marketplace.id, entity.id);

const paid = (o: Order) => o.status === 'purchased';
const paidTooLate = (o: Order) => o.status === 'payment_expired';

/** What each order event also does, besides its row's state change. Timers are kept by commands/move-order.ts. */
export const orderEffects: Effects<OrderMachineTypes> = {
  // a payment confirmed after its window ended is refunded: the item may have been sold to someone else meanwhile
  'confirm-payment': [recordCharge, notify('paid', paid), (args) => (paidTooLate(args.entity) ? refund(args) : undefined)],
  'expire-payment': [releaseStock, cancelPayment],
  'mark-delivered': [recordTracking, notify('sent')],
  'mark-received': [notify('received'), paySeller],
  'mark-received-early': [notify('received'), paySeller],
  // never sent (the table's only cancel is from purchased): the item is still the seller's to sell
  cancel: [refund, releaseBooking, releaseStock],
  'resolve-received': [notify('received'), paySeller],
  'resolve-canceled': [refund],
};
