/** Entry point of the orders module: what other modules, the flows and the HTTP contract may use. Everything else in orders/ is private. */
export { cancelPaymentsTask } from './commands/cancel-payment.js';
export { confirmPaymentTask } from './commands/confirm-payment.js';
export { findOrderFor } from './commands/find-orders.js';
export { autoCancelDisputeTask, autoCancelOrderTask, autoReceiveOrderTask, expirePaymentTask } from './commands/move-order.js';
export { refundOrderTask } from './commands/refund-order.js';
export { byOrder, operatorTransition } from './commands/transition-order.js';
export { ORDER_EVENTS } from './order.machine.js';
export { toOrderConsoleBody } from './order.mapper.js';
export { ZTransitionData } from './order.schema.js';
