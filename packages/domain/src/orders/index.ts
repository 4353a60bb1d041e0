/** Entry point of the orders module: what other modules, the flows and the HTTP contract may use. Everything else in orders/ is private. */
export { bookDelivery, getDeliveryBooking } from './booking/delivery-booking.js';
export { cancelPaymentsTask } from './commands/cancel-payment.js';
export { confirmPaymentTask } from './commands/confirm-payment.js';
export { findOrderFor, listOrders, type Party } from './commands/find-orders.js';
export { autoCancelDisputeTask, autoCancelOrderTask, autoReceiveOrderTask, expirePaymentTask } from './commands/move-order.js';
export { confirmWithoutPayment, openOrder, recordPayment, withdrawOrder } from './commands/place-order.js';
export { lockOrder, recordChargeback, recordRefundOutside } from './commands/provider-records.js';
export { markRefunded, orderToRefund, refundIdOf } from './commands/refund-order.js';
export { byOrder, operatorTransition, transitionOrder } from './commands/transition-order.js';
export { updateTracking } from './commands/update-tracking.js';
export { ORDER_EFFECT_SLOTS } from './order.effects.js';
export { ORDER_EVENTS, type OrderMachineTypes } from './order.machine.js';
export { toOrderBody, toOrderConsoleBody } from './order.mapper.js';
export { NOT_SENT_ATTENTION_MS } from './order.timers.js';
export { type PlaceOrderInput, ZBookSlot, ZDeliveryBooking, ZListOrders, ZOrder, ZOrderRef, ZPlacedOrder, ZPlaceOrder, ZQuote, ZTransitionData, ZTransitionInput, ZUpdateDelivery } from './order.schema.js';
export { type PricedOrder, priceOrder } from './pricing/price-order.js';
export { teamOrderRows } from './orders.queries.js';
