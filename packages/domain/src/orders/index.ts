/** Entry point of the orders module: what other modules, the flows and the HTTP contract may use. Everything else in orders/ is private. */
export { bookDelivery, getDeliveryBooking } from './booking/delivery-booking.js';
export { cancelPaymentsTask } from './commands/cancel-payment.js';
export { confirmPaymentTask } from './commands/confirm-payment.js';
export { findOrderFor, listOrders, type Party } from './commands/find-orders.js';
export { autoCancelDisputeTask, autoCancelOrderTask, autoReceiveOrderTask, expirePaymentTask } from './commands/move-order.js';
export { placeOrder } from './commands/place-order.js';
export { refundOrderTask } from './commands/refund-order.js';
export { byOrder, operatorTransition, transitionOrder } from './commands/transition-order.js';
export { ORDER_EVENTS } from './order.machine.js';
export { toOrderBody, toOrderConsoleBody } from './order.mapper.js';
export { ZBookSlot, ZDeliveryBooking, ZListOrders, ZOrder, ZOrderRef, ZPlacedOrder, ZPlaceOrder, ZQuote, ZTransitionData, ZTransitionInput } from './order.schema.js';
export { priceOrder } from './pricing/price-order.js';
