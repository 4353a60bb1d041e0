/**
 * The flows: one file per cross-module sequence, above the modules (docs/architecture.md, "Flows").
 * Loading this fills the effect slots the modules' machines name (orders' `notify`, `record-charge`,
 * `pay-seller`, `refund`; listings' `notify-seller`), registers the payment events' handlers and the
 * message notices' mailer; the router, the console, the demo and the task list load it, so no process
 * moves an order or a listing without them.
 */
export { checkout, createOrderPayment, quoteOrder } from './checkout.js';
import './listing-review.js';
import './message-notices.js';
import './order-notices.js';
import './events.js';
export { handlePaymentEvent, handlePaymentEventTask, PAYMENT_EVENT_HANDLERS } from './payment-events.js';
export { onAccountUpdated, onChargeRefunded, onDispute, refundOrderTask } from './settlement.js';
