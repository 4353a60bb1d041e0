/** Entry point of `@hm/domain/payments`: the payments port, its adapters and the one way provider events come in. */
export { type CreatedPayment, eventTypesOf, HANDLED_PAYMENT_EVENTS, PAYMENT_REFUSALS, PaymentError, type PaymentErrorKind, type PaymentEvent, type PaymentEventType, type PaymentRefusal, type PaymentRequest, type Payments, type PaymentsSetup, type RefundRequest, STRIPE_WEBHOOK_PATHS, type WebhookEndpointSetup } from './../core/ports/payments.js';
export { localPayments } from './adapters/local-payments.js';
export { STRIPE_API_VERSION, STRIPE_MAX_KEYS, STRIPE_MAX_NETWORK_RETRIES, STRIPE_TIMEOUT_MS, type StripeOptions, serviceAgreementFor, stripePayments } from './adapters/stripe-payments.js';
export { verifyStripeWebhook } from './adapters/stripe-webhook.js';
export { handlePaymentEvent, handlePaymentEventTask, registerPaymentEventHandlers } from './commands/handle-payment-event.js';
export { type RecordedPaymentEvent, recordPaymentEvents } from './commands/record-payment-events.js';
export type { PaymentEventContext, PaymentEventHandler, PaymentEventHandlerLookup, StoredPaymentEvent } from './payment-event-handler.js';
