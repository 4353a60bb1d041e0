/** Entry point of `@hm/domain/payments`: the payments port, its adapters and the one way provider events come in. */
export { PaymentError, type PaymentErrorKind, type PaymentEvent, type PaymentEventType, type Payments, type PaymentRequest, type CreatedPayment, type RefundRequest } from './payments.js';
export { localPayments } from './adapters/local-payments.js';
export { stripePayments, STRIPE_MAX_NETWORK_RETRIES, STRIPE_TIMEOUT_MS, type StripeOptions } from './adapters/stripe-payments.js';
export { verifyStripeWebhook } from './adapters/stripe-webhook.js';
export { recordPaymentEvents, type RecordedPaymentEvent } from './commands/record-payment-events.js';
export type { PaymentEventHandler, PaymentEventContext, StoredPaymentEvent } from './handlers.js';
